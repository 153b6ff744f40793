"""/usr/share/doc/killbox/copyright: machine-readable, and a licence paragraph with its text for
every third-party package, library and runtime the bundle carries (packaging/linux/copyright.py
collects them from the wheels at build time, and native_licences.py the code inside Qt's
libraries from packaging/linux/native-components.toml)."""

from __future__ import annotations

import fnmatch
import json
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest
from PyInstaller.archive.readers import CArchiveReader

from tests.packaging.conftest import (
    PACKAGING,
    dep5_paragraphs,
    elf_deps,
    load_packaging_module,
    paragraph_applying,
)

native_licences = load_packaging_module(
    "native_licences", PACKAGING / "linux" / "native_licences.py"
)

pytestmark = pytest.mark.packaging

INTERNAL = "usr/lib/killbox/_internal"
OWN = {"engine", "desktop", "assets", "maps"}


def copyright_paragraphs(deb_root: Path) -> list[dict[str, str]]:
    return dep5_paragraphs((deb_root / "usr/share/doc/killbox/copyright").read_text())


def third_party(deb_root: Path) -> list[dict[str, str]]:
    """The Files paragraphs after Killbox's own (Files: *)."""
    return copyright_paragraphs(deb_root)[2:]


def paragraph_for(deb_root: Path, path: str) -> dict[str, str] | None:
    """The paragraph that applies to PATH (the last whose Files patterns match it)."""
    return paragraph_applying(copyright_paragraphs(deb_root)[1:], path)


def archived_packages(deb_root: Path) -> set[str]:
    """Top-level packages and modules in the frozen app's archive, the standard library's and
    PyInstaller's own run-time helpers left out."""
    executable = CArchiveReader(str(deb_root / "usr/lib/killbox/killbox"))
    names = executable.open_embedded_archive("PYZ.pyz").toc
    tops = {name.split(".")[0] for name in names} - set(sys.stdlib_module_names)
    return {top for top in tops if not top.startswith(("_pyi_", "_sysconfigdata"))}


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


def test_every_bundled_top_level_package_has_a_licence_paragraph(deb_root: Path) -> None:
    """Folders and files straight under _internal (packages with compiled parts, the wheels'
    vendored-library folders, the Python runtime) and the packages inside the archive."""
    internal = deb_root / INTERNAL
    archived = archived_packages(deb_root)
    assert {"pydantic", "networkx", "PySide6", "numpy"} <= archived  # the reader found them
    paths = [f"{INTERNAL}/{top}/__init__.py" for top in sorted(archived - OWN)]
    for entry in sorted(internal.iterdir()):
        if entry.name in OWN or entry.name.endswith(".dist-info") or entry.is_symlink():
            continue
        paths.append(f"{INTERNAL}/{entry.name}" + ("/x" if entry.is_dir() else ""))
    assert [path for path in paths if paragraph_for(deb_root, path) is None] == []


@pytest.mark.parametrize(
    ("library", "licence", "text"),
    [
        # Qt itself, from Debian's Qt packages' copyright (the wheel carries no licence text).
        ("PySide6/Qt/lib/libQt6Core.so.6", "LGPL-3", "/usr/share/common-licenses/LGPL-3"),
        ("PySide6/Qt/lib/libQt6Core.so.6", "BSD-2-clause", "Zoltan Herczeg"),
        ("PySide6/Qt/lib/libQt6Gui.so.6", "libpng", "PNG Reference Library"),
        ("PySide6/Qt/lib/libQt6Gui.so.6", "MIT", "without written agreement"),
        ("PySide6/Qt/lib/libicuuc.so.73", "Unicode-DFS-2016", "UNICODE, INC. LICENSE AGREEMENT"),
        ("PySide6/Qt/plugins/imageformats/libqtiff.so", "Hylafax", "Sam Leffler"),
        ("shapely.libs/libgeos.so", "LGPL-2.1", "Geometry Engine Open Source"),
        ("numpy.libs/libgfortran.so", "GPL-3.0-or-later with GCC-exception-3.1", "Libgfortran"),
        ("numpy.libs/libscipy_openblas64_.so", "BSD-3-Clause", "OpenBLAS"),
    ],
)
def test_vendored_libraries_carry_their_own_licence(
    deb_root: Path, library: str, licence: str, text: str
) -> None:
    paragraph = paragraph_for(deb_root, f"{INTERNAL}/{library}")
    assert paragraph is not None
    name, _, body = paragraph["License"].partition("\n")
    assert licence in re.split(r",? (?:and|or) ", name)
    assert text in paragraph["Copyright"] + body


def test_every_licence_referred_to_is_in_debian_common_licenses(deb_root: Path) -> None:
    text = (deb_root / "usr/share/doc/killbox/copyright").read_text()
    named = set(re.findall(r"/usr/share/common-licenses/([A-Za-z0-9.+-]+[A-Za-z0-9])", text))
    assert named, "no full GPL/LGPL/Apache text is pointed at; the check below found nothing"
    assert sorted(n for n in named if not (Path("/usr/share/common-licenses") / n).is_file()) == []


def bundled_libraries(internal: Path) -> list[str]:
    """Every ELF file under _internal/ (shared libraries, extension modules, plug-ins), by its
    path there; the links PyInstaller makes beside them are the same files."""
    return sorted(
        path.relative_to(internal).as_posix()
        for path in internal.rglob("*")
        if path.is_file() and not path.is_symlink() and elf_deps.is_elf(path)
    )


def test_every_bundled_library_is_accounted_for_in_the_copyright_file(deb_root: Path) -> None:
    """Each library in the frozen folder is named by packaging/linux/native-components.toml,
    and the paragraph that applies to it names every component the manifest says it holds (or
    is the wheel's, the Python runtime's or Killbox's own paragraph)."""
    manifest = native_licences.load_manifest()
    internal = deb_root / INTERNAL
    libraries = bundled_libraries(internal)
    assert "PySide6/Qt/lib/libicuuc.so.73" in libraries  # the walk found Qt's libraries
    assert [lib for lib in libraries if manifest.library_for(lib) is None] == []
    stale = [
        pattern
        for entry in manifest.libraries
        for pattern in entry.files
        if not any(fnmatch.fnmatchcase(lib, pattern) for lib in libraries)
    ]
    assert stale == []
    wrong = []
    for lib in libraries:
        entry = manifest.library_for(lib)
        paragraph = paragraph_for(deb_root, f"{INTERNAL}/{lib}") or {}
        comment = paragraph.get("Comment", "")
        if entry.components:
            names = [manifest.components[c]["name"] for c in entry.components]
            if not all(str(name) in comment for name in names):
                wrong.append(lib)
        elif entry.paragraph == "Killbox":
            if paragraph.get("Files") != "*":
                wrong.append(lib)
        elif entry.paragraph == "Python":
            if not comment.startswith("The Python "):
                wrong.append(lib)
        elif not comment.startswith(f"{entry.paragraph} "):
            wrong.append(lib)
    assert wrong == []


@pytest.mark.parametrize(
    ("component", "line"),
    [
        (
            "Smooth Scaling Algorithm (the parts beside Imlib2's)",
            "Copyright (C) 2004, 2005 Daniel M. Duley",
        ),
        (
            "X Server helper (QRegion)",
            "X CONSORTIUM BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN",
        ),
        (
            "X Server helper (QRegion)",
            "DIGITAL DISCLAIMS ALL WARRANTIES WITH REGARD TO THIS SOFTWARE, INCLUDING",
        ),
        (
            "Adobe Glyph List For New Fonts",
            "Neither the name of Adobe Systems Incorporated nor the names",
        ),
    ],
)
def test_qt_guis_paragraph_quotes_the_notices_kept_in_the_checkout(
    deb_root: Path, component: str, line: str
) -> None:
    """The three notices no package carries (packaging/licences/) are quoted in the paragraph
    of the library that holds them, under the component's own heading."""
    paragraph = paragraph_for(deb_root, f"{INTERNAL}/PySide6/Qt/lib/libQt6Gui.so.6") or {}
    licence = paragraph.get("License", "")
    heading = f" --- {component}: "
    assert heading in licence
    section = licence[licence.index(heading) :].split("\n --- ", 1)[0]
    assert f" {line}" in section.splitlines()
    assert "is not included" not in licence


def test_the_rust_crates_compiled_into_pydantic_core_are_quoted(deb_root: Path) -> None:
    """pydantic-core's wheel carries only its own licence text; its SBOM names the crates
    compiled into its extension module, and the paragraph lists each with its licence and
    quotes their licence files (packaging/licences/rust/), copyright lines included."""
    dist = metadata.distribution("pydantic_core")
    (sbom,) = [f for f in dist.files or [] if "sboms" in str(f) and str(f).endswith(".json")]
    crates = json.loads(Path(str(dist.locate_file(sbom))).read_text())["components"]
    compiled = [c for c in crates if c.get("scope") != "excluded"]
    assert len(compiled) > 10
    paragraph = paragraph_for(deb_root, f"{INTERNAL}/pydantic_core/_pydantic_core.so") or {}
    licence = paragraph.get("License", "")
    assert [c["name"] for c in compiled if f"\n {c['name']} {c['version']} (" not in licence] == []
    assert " Copyright (c) 2015 Andrew Gallant" in licence  # memchr's and aho-corasick's MIT
    assert "Unicode-3.0" in licence.partition("\n")[0]
