"""packaging/linux/native_licences.py on small machine-readable copyright files (no build): how a
component's copyright and licence texts are read, and which manifest entry names a library."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packaging.conftest import PACKAGING, load_packaging_module

native_licences = load_packaging_module(
    "native_licences", PACKAGING / "linux" / "native_licences.py"
)

DEP5 = """\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: thing

Files: *
Copyright: 2001 Alice
           2002 Bob
License: LGPL-3 or GPL-2

Files: src/3rdparty/inline/*
       src/3rdparty/other/*
Copyright: 2010 Carol
License: public-domain
 placed in the public domain
 .
 really

# License texts

License: LGPL-3
 lesser text

License: GPL-2
 general text
"""


@pytest.fixture
def doc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "libthing1").mkdir()
    (tmp_path / "libthing1" / "copyright").write_text(DEP5)
    monkeypatch.setattr(native_licences, "DOC", tmp_path)
    return tmp_path


def test_standalone_licence_paragraphs_give_each_named_licence_its_text(doc: Path) -> None:
    found = native_licences.statement({"name": "Thing", "debian": "libthing*", "files": "*"})
    assert found.copyright == ("2001 Alice", "2002 Bob")
    assert found.licence == "LGPL-3 or GPL-2"
    assert [name for name, _ in found.texts] == ["LGPL-3", "GPL-2"]
    assert "general text" in found.texts[1][1]
    assert "libthing1/copyright (Files: *)" in found.source


def test_an_inline_licence_text_and_a_second_files_line_are_read(doc: Path) -> None:
    found = native_licences.statement(
        {"name": "Other", "debian": "libthing1", "files": "src/3rdparty/other/*"}
    )
    assert found.copyright == ("2010 Carol",)
    ((name, text),) = found.texts
    assert name == "public-domain" and "placed in the public domain\n .\n really" in text


def test_a_package_not_installed_or_a_pattern_not_listed_stops_the_build(doc: Path) -> None:
    with pytest.raises(SystemExit, match="not installed"):
        native_licences.statement({"name": "X", "debian": "libabsent", "files": "*"})
    with pytest.raises(SystemExit, match="no Files paragraph"):
        native_licences.statement({"name": "X", "debian": "libthing1", "files": "nowhere/*"})


def test_a_missing_text_is_said_and_never_made_up() -> None:
    found = native_licences.statement(
        {"name": "Scaler", "licence": "Imlib2", "copyright": ["2004 D"], "missing": "why not"}
    )
    ((name, text),) = found.texts
    assert name == "Imlib2" and text == " The text of Imlib2 is not included: why not."


def test_components_licences_join_without_repeating_a_term() -> None:
    joined = native_licences.joined(["LGPL-3 or GPL-2", "LGPL-3 or GPL-2, and HPND", "MIT"])
    assert joined == "LGPL-3 or GPL-2, and HPND, and MIT"


def test_the_last_manifest_entry_naming_a_library_applies(tmp_path: Path) -> None:
    manifest_file = tmp_path / "m.toml"
    manifest_file.write_text(
        '[[library]]\nfiles = ["PySide6/*"]\nparagraph = "PySide6_Essentials"\n'
        '[[library]]\nfiles = ["PySide6/Qt/lib/libQt6Core.so.*"]\ncomponents = ["qt"]\n'
        '[component.qt]\nname = "Qt"\ncommon = "LGPL-3"\nlicence = "LGPL-3"\ncopyright = ["Q"]\n'
    )
    manifest = native_licences.load_manifest(manifest_file)
    assert manifest.library_for("PySide6/Qt/lib/libQt6Core.so.6").components == ("qt",)
    assert manifest.library_for("PySide6/QtCore.abi3.so").paragraph == "PySide6_Essentials"
    assert manifest.library_for("numpy/x.so") is None


def test_the_manifest_names_only_components_it_defines(tmp_path: Path) -> None:
    manifest_file = tmp_path / "m.toml"
    manifest_file.write_text('[[library]]\nfiles = ["a"]\ncomponents = ["nope"]\n[component]\n')
    with pytest.raises(SystemExit, match="nope"):
        native_licences.load_manifest(manifest_file)


def test_the_real_manifest_loads() -> None:
    manifest = native_licences.load_manifest()
    assert manifest.library_for("PySide6/Qt/lib/libicui18n.so.73").components == ("icu",)


def test_a_text_given_relatively_is_read_from_the_checkout() -> None:
    found = native_licences.statement(
        {
            "name": "Glyph list",
            "licence": "BSD-3-clause",
            "copyright": ["2015 Adobe Systems"],
            "text": "packaging/licences/aglfn.txt",
            "source": "upstream",
        }
    )
    ((name, text),) = found.texts
    assert name == "BSD-3-clause" and found.source == "upstream"
    assert " Neither the name of Adobe Systems Incorporated nor the names" in text.splitlines()


def test_every_component_of_the_real_manifest_has_a_licence_text() -> None:
    """No component a library of any platform holds is left `missing`, and the notices kept in
    the checkout (packaging/licences/) are exactly those the manifest quotes."""
    for platform in native_licences.PLATFORMS:
        manifest = native_licences.load_manifest(platform=platform)
        named = {c for library in manifest.libraries for c in library.components}
        assert named, platform
        assert [c for c in sorted(named) if "missing" in manifest.components[c]] == []
    kept = [Path(str(c["text"])) for c in manifest.components.values() if "text" in c]
    local = {path for path in kept if not path.is_absolute()}
    folder = native_licences.CHECKOUT / "packaging" / "licences"
    assert {path.name for path in local} == {path.name for path in folder.glob("*.txt")}
    assert [p for p in local if not (native_licences.CHECKOUT / p).read_text().strip()] == []
