"""The .deb and the tarball on bare Debian 12 and 13 and Ubuntu 22.04 and 24.04: a minbase root
of each (tests/packaging/roots.py), then `apt-get install ./killbox_*.deb` in it (or only what
the tarball's README lists), then `killbox --export-png` there with no display, drawing real
letters, and for the .deb an `apt-get purge`.

Needs root (chroot, mount) and the archives; the roots are cached between runs. Marked
``cleanroot``: ``pytest -m 'packaging or cleanroot' -n 0`` runs it with the build it shares.
"""

from __future__ import annotations

import shutil
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.packaging.glyphs import (
    MIN_DIFFERENT_PIXELS,
    NAMES,
    different_pixels,
    encounter_with_token_names,
)
from tests.packaging.roots import RELEASES, Release, apt_install, chroot, fresh_root, unpack
from tests.packaging.test_tarball import apt_line_packages

pytestmark = pytest.mark.cleanroot


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Each release's minbase root, unpacked once a session (and removed after it)."""
    roots: dict[str, Path] = {}
    yield roots
    for root in roots.values():
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=RELEASES, ids=lambda release: release.name)
def clean_root(
    request: pytest.FixtureRequest,
    unpacked: dict[str, Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Path]:
    release: Release = request.param
    if release.name not in unpacked:
        unpacked[release.name] = unpack(release, tmp_path_factory.mktemp(release.name))
    with fresh_root(release, unpacked[release.name], tmp_path_factory.mktemp("overlay")) as root:
        print(f"{release.name} ({release.suite}, glibc {release.glibc})")
        yield root


def assert_exports_real_letters(root: Path, binary: str) -> None:
    """`binary --export-png` in the root, with no display, of two encounters differing only in
    the tokens' letters: a picture each, and the letters are glyphs, not boxes."""
    pictures = []
    for index, name in enumerate(NAMES):
        encounter_with_token_names(name, root / "tmp" / f"letters-{index}.killbox")
        result = chroot(
            root,
            binary,
            f"/tmp/letters-{index}.killbox",
            "--export-png",
            f"/tmp/letters-{index}.png",
        )
        assert "QFont" not in result.stderr, result.stderr
        pictures.append(root / "tmp" / f"letters-{index}.png")
    changed = different_pixels(*pictures)
    print(f"{binary}: pixels that differ between the {NAMES} exports: {changed}")
    assert changed >= MIN_DIFFERENT_PIXELS, "the token letters are boxes or missing"


def test_deb_installs_runs_and_removes_in_a_clean_root(clean_root: Path, deb: Path) -> None:
    shutil.copy(deb, clean_root / "tmp" / deb.name)
    print(apt_install(clean_root, f"/tmp/{deb.name}"))
    chroot(clean_root, "killbox", "--export-png", "/tmp/default.png")
    assert (clean_root / "tmp/default.png").stat().st_size > 10_000
    assert_exports_real_letters(clean_root, "killbox")
    had_opt = (clean_root / "opt").is_dir()
    chroot(clean_root, "apt-get", "purge", "-y", "-q", "killbox")
    assert not (clean_root / "usr/lib/killbox").exists()
    assert (clean_root / "opt").is_dir() == had_opt


def test_tarball_runs_in_a_clean_root_with_only_what_its_readme_lists(
    clean_root: Path, tarball: Path
) -> None:
    with tarfile.open(tarball) as archive:
        (readme,) = [m for m in archive.getmembers() if m.name.endswith("/README.txt")]
        member = archive.extractfile(readme)
        assert member is not None
        packages = apt_line_packages(member.read().decode())
        folder = readme.name.split("/")[0]
        archive.extractall(clean_root / "home", filter="tar")
    print(apt_install(clean_root, "--no-install-recommends", *packages))
    assert_exports_real_letters(clean_root, f"/home/{folder}/killbox")
