"""The Windows and macOS notices (THIRD-PARTY-LICENSES.txt), made by packaging/linux/copyright.py
in the release workflow, tried here on frozen folders laid out as those bundles are: file names
from the win_amd64 and macOS wheels of the bundled packages and a python.org build, each file
starting with its platform's library header (no build)."""

from __future__ import annotations

import ast
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.packaging.conftest import (
    PACKAGING,
    dep5_paragraphs,
    load_packaging_module,
    paragraph_applying,
)

native_licences = load_packaging_module(
    "native_licences", PACKAGING / "linux" / "native_licences.py"
)
# copyright.py imports its sibling modules by name.
load_packaging_module("rust_crates", PACKAGING / "linux" / "rust_crates.py")
copyright_file = load_packaging_module("copyright_file", PACKAGING / "linux" / "copyright.py")

PE = b"MZ\x90\x00"
MACH_O = b"\xcf\xfa\xed\xfe"

WINDOWS_BUNDLE = [
    "python311.dll",
    "VCRUNTIME140.dll",
    "VCRUNTIME140_1.dll",
    "_ctypes.pyd",
    "_decimal.pyd",
    "_ssl.pyd",
    "pyexpat.pyd",
    "select.pyd",
    "unicodedata.pyd",
    "libcrypto-3.dll",
    "libssl-3.dll",
    "libffi-8.dll",
    "PySide6/Qt6Core.dll",
    "PySide6/Qt6Gui.dll",
    "PySide6/Qt6Widgets.dll",
    "PySide6/Qt6Svg.dll",
    "PySide6/QtCore.pyd",
    "PySide6/QtGui.pyd",
    "PySide6/QtWidgets.pyd",
    "PySide6/pyside6.abi3.dll",
    "PySide6/MSVCP140.dll",
    "PySide6/msvcp140_1.dll",
    "PySide6/msvcp140_2.dll",
    "PySide6/plugins/platforms/qwindows.dll",
    "PySide6/plugins/platforms/qoffscreen.dll",
    "PySide6/plugins/styles/qmodernwindowsstyle.dll",
    "PySide6/plugins/iconengines/qsvgicon.dll",
    "PySide6/plugins/imageformats/qgif.dll",
    "PySide6/plugins/imageformats/qicns.dll",
    "PySide6/plugins/imageformats/qico.dll",
    "PySide6/plugins/imageformats/qjpeg.dll",
    "PySide6/plugins/imageformats/qsvg.dll",
    "PySide6/plugins/imageformats/qtga.dll",
    "PySide6/plugins/imageformats/qtiff.dll",
    "PySide6/plugins/imageformats/qwbmp.dll",
    "PySide6/plugins/imageformats/qwebp.dll",
    "shiboken6/Shiboken.pyd",
    "shiboken6/shiboken6.abi3.dll",
    "shiboken6/vcruntime140_1.dll",
    "numpy/_core/_multiarray_umath.cp311-win_amd64.pyd",
    "numpy/linalg/_umath_linalg.cp311-win_amd64.pyd",
    "numpy.libs/libscipy_openblas64_-63c857e738469261263c764a36be9436.dll",
    "numpy.libs/msvcp140-a4c2229bdc2a2a630acdc095b4d86008.dll",
    "PIL/_imaging.cp311-win_amd64.pyd",
    "shapely/lib.cp311-win_amd64.pyd",
    "shapely.libs/geos-bf067cd6ff74ee0ad5f3ff52c7ef08c9.dll",
    "shapely.libs/geos_c-6dd9fd915eef8a7928285416bef1e666.dll",
    "shapely.libs/msvcp140-0fa7eb792d3fbcf2233e4ea47e9144b9.dll",
    "pydantic_core/_pydantic_core.cp311-win_amd64.pyd",
    "engine/geometry/_kernel.cp311-win_amd64.pyd",
]

MACOS_BUNDLE = [
    "Python",
    "libssl.3.dylib",
    "libcrypto.3.dylib",
    "python3.11/lib-dynload/_ssl.cpython-311-darwin.so",
    "python3.11/lib-dynload/_decimal.cpython-311-darwin.so",
    "PySide6/Qt/lib/QtCore.framework/Versions/A/QtCore",
    "PySide6/Qt/lib/QtGui.framework/Versions/A/QtGui",
    "PySide6/Qt/lib/QtWidgets.framework/Versions/A/QtWidgets",
    "PySide6/Qt/lib/QtDBus.framework/Versions/A/QtDBus",
    "PySide6/Qt/lib/QtSvg.framework/Versions/A/QtSvg",
    "PySide6/Qt/plugins/platforms/libqcocoa.dylib",
    "PySide6/Qt/plugins/platforms/libqoffscreen.dylib",
    "PySide6/Qt/plugins/styles/libqmacstyle.dylib",
    "PySide6/Qt/plugins/iconengines/libqsvgicon.dylib",
    "PySide6/Qt/plugins/imageformats/libqgif.dylib",
    "PySide6/Qt/plugins/imageformats/libqjpeg.dylib",
    "PySide6/Qt/plugins/imageformats/libqmacheif.dylib",
    "PySide6/Qt/plugins/imageformats/libqsvg.dylib",
    "PySide6/Qt/plugins/imageformats/libqtiff.dylib",
    "PySide6/Qt/plugins/imageformats/libqwebp.dylib",
    "PySide6/QtCore.abi3.so",
    "PySide6/libpyside6.abi3.6.11.dylib",
    "shiboken6/Shiboken.abi3.so",
    "shiboken6/libshiboken6.abi3.6.11.dylib",
    "numpy/_core/_multiarray_umath.cpython-311-darwin.so",
    "numpy/.dylibs/libscipy_openblas64_.dylib",
    "numpy/.dylibs/libgfortran.5.dylib",
    "PIL/_imaging.cpython-311-darwin.so",
    "PIL/.dylibs/libjpeg.62.4.0.dylib",
    "shapely/lib.cpython-311-darwin.so",
    "shapely/.dylibs/libgeos.3.13.1.dylib",
    "pydantic_core/_pydantic_core.cpython-311-darwin.so",
    "engine/geometry/_kernel.cpython-311-darwin.so",
]


def frozen_folder(root: Path, names: list[str], header: bytes) -> Path:
    """An _internal folder with NAMES as libraries, beside data files that are not."""
    internal = root / "_internal"
    for name in names:
        (internal / name).parent.mkdir(parents=True, exist_ok=True)
        (internal / name).write_bytes(header + b"\0" * 60)
    (internal / "base_library.zip").write_bytes(b"PK\x03\x04")
    (internal / "PySide6" / "Qt6Core.dll.txt").write_text("not a library")
    return internal


@pytest.mark.parametrize(
    ("platform", "names", "header"),
    [("windows", WINDOWS_BUNDLE, PE), ("macos", MACOS_BUNDLE, MACH_O)],
)
def test_every_library_of_a_windows_or_macos_bundle_is_named(
    tmp_path: Path, platform: str, names: list[str], header: bytes
) -> None:
    internal = frozen_folder(tmp_path, names, header)
    manifest = native_licences.load_manifest(platform=platform)
    assert sorted(native_licences.native_libraries(internal)) == sorted(names)
    assert native_licences.unnamed_libraries(internal, manifest) == []
    # A library the manifest does not know stops the release build.
    (internal / "PySide6" / "unknown-library.bin").write_bytes(header)
    assert native_licences.unnamed_libraries(internal, manifest) == ["PySide6/unknown-library.bin"]


def test_the_microsoft_runtime_overrides_the_wheel_it_came_with() -> None:
    manifest = native_licences.load_manifest(platform="windows")
    for name in ("numpy.libs/msvcp140-a4c2229b.dll", "VCRUNTIME140.dll", "PySide6/MSVCP140.dll"):
        assert manifest.library_for(name).components == ("msvc-runtime", "msvc-runtime-terms"), name
    assert manifest.library_for("numpy.libs/libscipy_openblas64_-63c8.dll").paragraph == "numpy"


def sources_file(tmp_path: Path) -> Path:
    """bundled-sources.txt as the Windows build writes it (backslashes), each name pointing at
    a file of the installed distribution it comes from."""
    lines = []
    for dist, name in [
        ("PySide6_Essentials", "PySide6\\QtCore.pyd"),
        ("shiboken6", "shiboken6\\Shiboken.pyd"),
        ("numpy", "numpy\\_core\\_multiarray_umath.cp311-win_amd64.pyd"),
        ("pydantic_core", "pydantic_core\\_pydantic_core.cp311-win_amd64.pyd"),
    ]:
        installed = metadata.distribution(dist)
        (first,) = [f for f in installed.files or [] if str(f).endswith("__init__.py")][:1]
        lines.append(f"{name}\t{installed.locate_file(first)}")
    path = tmp_path / "bundled-sources.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def applying(paragraphs: list[dict[str, str]], path: str) -> dict[str, str]:
    return paragraph_applying(paragraphs, path, ignore_case=True) or {}


needs_debian_texts = pytest.mark.skipif(
    not Path("/usr/share/doc/libqt6core6/copyright").is_file()
    or not Path(
        f"/usr/share/doc/libpython{sys.version_info[0]}.{sys.version_info[1]}-minimal"
    ).is_dir(),
    reason="the Debian packages whose copyright files give the texts are not installed "
    "(.ci/run installs packaging/linux/licence-packages.txt)",
)


@needs_debian_texts
def test_the_windows_notices_quote_a_licence_for_every_library(tmp_path: Path) -> None:
    text = copyright_file.notices(REPO_ROOT, sources_file(tmp_path), "windows")
    paragraphs = dep5_paragraphs(text)
    manifest = native_licences.load_manifest(platform="windows")
    for library in WINDOWS_BUNDLE:
        entry = manifest.library_for(library)
        paragraph = applying(paragraphs, f"_internal/{library}")
        assert paragraph, library
        if entry.components:
            names = [str(manifest.components[c]["name"]) for c in entry.components]
            assert [n for n in names if n not in paragraph["Comment"]] == [], library
    qt_gui = applying(paragraphs, "_internal/PySide6/Qt6Gui.dll")["License"]
    for notice in ("Daniel M. Duley", "X CONSORTIUM BE LIABLE", "Adobe Systems Incorporated"):
        assert notice in qt_gui
    runtime = applying(paragraphs, "_internal/PySide6/msvcp140_2.dll")
    assert "Microsoft Distributable Code" in runtime["License"]  # CPython's statement
    assert "EULA ID: Cpp_2015-2022_ENU.1033" in runtime["License"]  # and Microsoft's terms


@needs_debian_texts
def test_windows_and_macos_notices_carry_the_common_licences_they_name(tmp_path: Path) -> None:
    """No /usr/share/common-licenses there: each licence named is a License paragraph at the end
    with Debian's text, and the paragraphs that named it point there."""
    for platform in ("windows", "macos"):
        text = copyright_file.notices(REPO_ROOT, sources_file(tmp_path), platform)
        assert "/usr/share/common-licenses" not in text
        standalone = {
            p["License"].partition("\n")[0]: p["License"]
            for p in dep5_paragraphs(text)
            if "Files" not in p and "License" in p
        }
        assert {"LGPL-3", "GPL-2", "GPL-3", "Apache-2.0"} <= standalone.keys()
        assert "GNU LESSER GENERAL PUBLIC LICENSE" in standalone["LGPL-3"]
        internal = copyright_file.LAYOUTS[platform].internal
        pyside = applying(dep5_paragraphs(text), f"{internal}/PySide6/QtCore.pyd")
        assert "the License paragraph LGPL-3 at the end" in pyside["License"]
        assert text.count("\nLicense: LGPL-3\n") == 1


def test_the_debian_files_are_read_under_the_root_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The release workflow reads them from a copy made in a Debian container."""
    doc = tmp_path / "usr/share/doc/libthing1"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n"
        "Files: *\nCopyright: 2001 Alice\nLicense: MIT\n permission text\n"
    )
    monkeypatch.setattr(native_licences, "ROOT", tmp_path)
    found = native_licences.statement({"name": "Thing", "debian": "libthing1", "files": "*"})
    assert found.copyright == ("2001 Alice",) and "permission text" in found.texts[0][1]
    assert found.source.startswith("/usr/share/doc/libthing1/copyright")


def test_the_release_workflow_ships_the_notices_on_windows_and_macos() -> None:
    """Made from each frozen folder with the check that every library is named, installed
    beside killbox.exe by Inno Setup (which stops without the file), and put in Killbox.app and
    beside it on the disk image."""
    workflow = (REPO_ROOT / ".github" / "workflows" / "release.yml").read_text()
    for platform in ("windows", "macos"):
        assert f"--platform {platform} --root licence-root --bundle dist" in workflow
    assert 'Source: "{#NoticesFile}"' in (PACKAGING / "windows" / "killbox.iss").read_text()
    assert "cp dist/THIRD-PARTY-LICENSES.txt dist/Killbox.app/Contents/Resources/" in workflow
    assert "cp dist/THIRD-PARTY-LICENSES.txt dmg/" in workflow


def test_the_notices_are_read_and_written_as_utf8_whatever_the_locale() -> None:
    """Windows' locale encoding is cp1252: a text read without encoding="utf-8" turns the
    licences' UTF-8 (Unicode's ©, Microsoft's quotation marks) into mojibake, or fails on a byte
    cp1252 leaves undefined (0x9D of ”). Every text read or write of the generator names it."""
    unnamed = []
    for path in [*sorted((PACKAGING / "linux").glob("*.py")), PACKAGING / "killbox.spec"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            binary = any(isinstance(a, ast.Constant) and "b" in str(a.value) for a in node.args)
            keywords = {keyword.arg for keyword in node.keywords}
            if (
                name in {"read_text", "write_text", "open"}
                and not binary
                and "encoding" not in keywords
            ):
                unnamed.append(f"{path.name}:{node.lineno}")
    assert unnamed == []
