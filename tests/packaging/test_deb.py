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
    assert "@invalid" not in field(deb, "Maintainer")


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


def copyright_paragraphs(deb_root: Path) -> list[dict[str, str]]:
    text = (deb_root / "usr/share/doc/killbox/copyright").read_text()
    paragraphs = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        name = ""
        for line in block.splitlines():
            if line.startswith(" ") and name:
                fields[name] += "\n" + line
            else:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        paragraphs.append(fields)
    return paragraphs


def test_copyright_is_machine_readable(deb_root: Path) -> None:
    header, *files = copyright_paragraphs(deb_root)
    assert header["Format"].startswith(
        "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0"
    )
    for paragraph in files:
        assert paragraph.keys() >= {"Files", "Copyright", "License"}, paragraph.get("Files")
        # A licence name followed by its text (or a pointer to Debian's common licences).
        assert "\n" in paragraph["License"], paragraph["Files"]
    assert files[0]["Files"] == "*" and files[0]["License"].startswith("MIT")


def test_copyright_covers_every_bundled_component(deb_root: Path) -> None:
    """Each top-level folder of bundled code or libraries is under some Files paragraph."""
    covered = " ".join(p["Files"] for p in copyright_paragraphs(deb_root)[1:])
    internal = deb_root / "usr/lib/killbox/_internal"
    own = {"engine", "desktop", "assets", "maps"}
    uncovered = [
        path.name
        for path in sorted(internal.iterdir())
        if path.is_dir()
        and path.name not in own
        and not path.name.endswith(".dist-info")
        and f"_internal/{path.name}/*" not in covered
        and not (path.name.startswith("python3") and "_internal/python3*/*" in covered)
    ]
    assert uncovered == []


def test_every_licence_referred_to_is_in_debian_common_licenses(deb_root: Path) -> None:
    text = (deb_root / "usr/share/doc/killbox/copyright").read_text()
    named = set(re.findall(r"/usr/share/common-licenses/([A-Za-z0-9.+-]+[A-Za-z0-9])", text))
    assert named, "no full GPL/LGPL/Apache text is pointed at; the check below found nothing"
    assert sorted(n for n in named if not (Path("/usr/share/common-licenses") / n).is_file()) == []


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
