"""The .deb: what it installs, what it declares, and how Debian's own tools judge it."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.packaging.conftest import elf_deps, project_version
from tests.packaging.test_bundle import assert_picture, assert_real_letters, export_png

pytestmark = pytest.mark.packaging

MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def field(deb: Path, name: str) -> str:
    return subprocess.run(
        ["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_app_installed_from_the_deb_exports_the_default_encounter(
    deb_root: Path, tmp_path: Path
) -> None:
    launcher = (deb_root / "usr/bin/killbox").read_text()
    assert "/usr/lib/killbox/killbox" in launcher
    binary = deb_root / "usr/lib/killbox/killbox"
    assert_picture(export_png(binary, tmp_path / "deb.png"))
    assert_real_letters(binary, tmp_path)


def test_nothing_is_installed_under_opt(deb_root: Path) -> None:
    """Removing the package must leave /opt alone: the package has no /opt at all."""
    assert sorted(path.name for path in deb_root.iterdir()) == ["usr"]


def test_depends_declares_every_library_left_to_the_system(deb: Path, deb_root: Path) -> None:
    depends = field(deb, "Depends")
    table = elf_deps.read_table()
    needed = elf_deps.missing_libraries(deb_root / "usr/lib/killbox")
    for soname in needed:
        assert re.search(rf"(^|, ){re.escape(table[soname])}( |,|$)", depends), soname
    glibc = re.search(r"libc6 \(>= (\d+)\.(\d+)\)", depends)
    assert glibc is not None and (int(glibc[1]), int(glibc[2])) <= (2, 35), depends


@pytest.mark.parametrize("package", ["libstdc++6", "libgcc-s1"])
def test_the_cxx_runtime_comes_from_the_system(deb: Path, package: str) -> None:
    assert package in field(deb, "Depends")


def test_version_and_maintainer_come_from_pyproject(deb: Path) -> None:
    with (REPO_ROOT / "pyproject.toml").open("rb") as handle:
        person = tomllib.load(handle)["project"]["maintainers"][0]
    assert field(deb, "Version") == project_version()
    assert field(deb, "Maintainer") == f"{person['name']} <{person['email']}>"
    domain = person["email"].rpartition("@")[2]
    # Reserved for examples and placeholders (RFC 2606, RFC 6761): no one's mailbox.
    reserved = [
        "invalid",
        "example",
        "test",
        "localhost",
        "example.com",
        "example.net",
        "example.org",
    ]
    assert not any(domain == name or domain.endswith("." + name) for name in reserved), domain


@pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None, reason="needs desktop-file-utils"
)
def test_desktop_entry_is_valid(deb_root: Path) -> None:
    entry = deb_root / "usr/share/applications/killbox.desktop"
    result = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout == "", result.stdout + result.stderr


def test_mime_type_for_killbox_files_with_an_icon(deb_root: Path) -> None:
    definition = ElementTree.parse(deb_root / "usr/share/mime/packages/killbox.xml").getroot()
    (mime,) = definition.findall(f"{MIME_NS}mime-type")
    assert mime.get("type") == "application/x-killbox"
    assert [g.get("pattern") for g in mime.findall(f"{MIME_NS}glob")] == ["*.killbox"]
    icon = mime.find(f"{MIME_NS}icon")
    assert icon is not None
    assert (
        deb_root / f"usr/share/icons/hicolor/256x256/mimetypes/{icon.get('name')}.png"
    ).is_file()
    desktop = (deb_root / "usr/share/applications/killbox.desktop").read_text()
    assert "MimeType=application/x-killbox;" in desktop


def test_changelog(deb_root: Path) -> None:
    with gzip.open(deb_root / "usr/share/doc/killbox/changelog.gz", "rt") as handle:
        first = handle.readline()
    assert first.startswith(f"killbox ({project_version()}) ")


@pytest.mark.skipif(shutil.which("lintian") is None, reason="lintian is not installed")
def test_lintian_finds_no_errors_or_warnings(deb: Path) -> None:
    """Tags that are right for a frozen app (its bundled Python and Qt) are overridden in
    packaging/linux/lintian-overrides, each with its reason."""
    result = subprocess.run(
        ["lintian", "--no-tag-display-limit", str(deb)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    complaints = [line for line in result.stdout.splitlines() if line[:2] in ("E:", "W:")]
    print(result.stdout[-4000:])
    assert complaints == []
