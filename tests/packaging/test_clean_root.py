"""The .deb and the tarball on a bare Debian: a minbase root made by debootstrap from the package
archive this machine's apt uses, then `apt-get install ./killbox_*.deb` in it (or only what the
tarball's README lists), then `killbox --export-png` there with no display, drawing real letters.

Needs root (chroot, mount) and the Debian archive; the root is cached between runs as a tar in
~/.cache/killbox-root (KILLBOX_ROOT_CACHE), with the packages apt downloaded. Marked
``cleanroot``: ``pytest -m 'packaging or cleanroot' -n 0`` runs it with the build it shares.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
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
from tests.packaging.test_tarball import apt_line_packages

pytestmark = pytest.mark.cleanroot

CACHE = Path(os.environ.get("KILLBOX_ROOT_CACHE", Path.home() / ".cache" / "killbox-root"))
APT_ENV = {
    "DEBIAN_FRONTEND": "noninteractive",
    "PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/root",
}


def this_machines_archive() -> tuple[str, str]:
    """(mirror, suite) of the Debian archive this machine's apt installs from."""
    suite = re.search(r"^VERSION_CODENAME=(\S+)", Path("/etc/os-release").read_text(), re.M)
    sources = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for source in sources:
        text = source.read_text() if source.is_file() else ""
        found = re.search(r"^URIs:\s*(\S+/debian)\s*$", text, re.M) or re.search(
            r"^deb\s+(?:\[[^]]*\]\s+)?(\S+/debian)\s", text, re.M
        )
        if found and suite:
            return found[1], suite[1]
    pytest.skip("this machine's apt does not use a Debian archive")


def chroot(root: Path, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        ["chroot", str(root), *command],
        env=APT_ENV,
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    if check:
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


@pytest.fixture(scope="session")
def minbase_tar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.geteuid() != 0 or shutil.which("debootstrap") is None:
        pytest.skip("needs root and debootstrap (apt-get install debootstrap)")
    mirror, suite = this_machines_archive()
    cached = CACHE / f"{suite}-minbase.tar"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        root = tmp_path_factory.mktemp("debootstrap") / "root"
        subprocess.run(
            ["debootstrap", "--variant=minbase", suite, str(root), mirror],
            check=True,
            capture_output=True,
            timeout=1800,
        )
        partial = cached.with_suffix(".partial")
        subprocess.run(["tar", "-C", str(root), "-cf", str(partial), "."], check=True)
        partial.rename(cached)
    return cached


@pytest.fixture
def clean_root(minbase_tar: Path, tmp_path: Path) -> Iterator[Path]:
    """A fresh copy of the minbase root with /proc and /dev, apt's downloads kept across runs."""
    root = tmp_path / "root"
    root.mkdir()
    subprocess.run(["tar", "-C", str(root), "-xpf", str(minbase_tar)], check=True)
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    archives = CACHE / "archives"
    archives.mkdir(parents=True, exist_ok=True)
    for package in archives.glob("*.deb"):
        shutil.copy(package, root / "var/cache/apt/archives")
    mounts = [root / "proc", root / "dev"]
    subprocess.run(["mount", "-t", "proc", "proc", str(mounts[0])], check=True)
    subprocess.run(["mount", "--bind", "/dev", str(mounts[1])], check=True)
    try:
        chroot(root, "apt-get", "update", "-q")
        yield root
    finally:
        for mount in reversed(mounts):
            subprocess.run(["umount", "-l", str(mount)], check=False)
        for package in (root / "var/cache/apt/archives").glob("*.deb"):
            if not (archives / package.name).exists():
                shutil.copy(package, archives)
        shutil.rmtree(root, ignore_errors=True)


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
    installed = chroot(clean_root, "apt-get", "install", "-y", "-q", f"/tmp/{deb.name}")
    print(installed.stdout.splitlines()[-1] if installed.stdout else "")
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
    chroot(clean_root, "apt-get", "install", "-y", "-q", "--no-install-recommends", *packages)
    assert_exports_real_letters(clean_root, f"/home/{folder}/killbox")
