"""The licence texts of the Rust crates compiled into pydantic-core (packaging/linux/rust_crates.py
and packaging/licences/rust/crates.toml), against the installed wheel's SBOM (no build)."""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

import pytest

from tests.packaging.conftest import PACKAGING, load_packaging_module

rust_crates = load_packaging_module("rust_crates", PACKAGING / "linux" / "rust_crates.py")
native_licences = load_packaging_module(
    "native_licences", PACKAGING / "linux" / "native_licences.py"
)
copyright_file = load_packaging_module("copyright_file", PACKAGING / "linux" / "copyright.py")


def installed_crates() -> list[object]:
    dist = metadata.distribution("pydantic_core")
    (sbom,) = [f for f in dist.files or [] if "sboms" in str(f) and str(f).endswith(".json")]
    return rust_crates.sbom_crates(json.loads(Path(str(dist.locate_file(sbom))).read_text()))


def test_every_crate_the_installed_sbom_names_has_its_licence_files() -> None:
    crates = installed_crates()
    assert len(crates) > 50
    assert rust_crates.problems(crates, rust_crates.load()) == []


def test_every_crate_under_a_licence_that_names_holders_has_a_holder() -> None:
    manifest = rust_crates.load()
    unnamed = [
        crate.key
        for crate in installed_crates()
        if crate.scope != "excluded" and not manifest[crate.key].get("copyright")
    ]
    # wasi and wit-bindgen-rt: no licence file of theirs was found (packaging/README.md).
    assert unnamed == ["wasi@0.14.2+wasi-0.2.4", "wit-bindgen-rt@0.39.0"]


Crate = rust_crates.Crate


def test_a_file_shared_by_crates_is_quoted_once_and_each_crate_points_at_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a-1.0").mkdir()
    (tmp_path / "a-1.0" / "LICENSE-MIT").write_text("Copyright (c) 2020 Alice\nMIT terms\n")
    monkeypatch.setattr(rust_crates, "FOLDER", tmp_path)
    shared = {"file": "a-1.0/LICENSE-MIT"}
    manifest = {
        "a@1.0": {"copyright": ["2020 Alice"], "texts": [{**shared, "source": "/r/a-1.0/M"}]},
        "b@2.0": {
            "read": "b 1.9",
            "copyright": ["2021 Bob"],
            "texts": [{**shared, "source": "/r/b-1.9/M"}],
        },
        "c@3.0": {"missing": "none found", "common": "Apache-2.0"},
    }
    crates = [
        Crate("a", "1.0", "MIT", "required"),
        Crate("b", "2.0", "MIT OR Apache-2.0", "required"),
        Crate("c", "3.0", "(MIT OR Apache-2.0) AND Unicode-DFS-2016", "required"),
        Crate("build-helper", "1.0", "MIT", "excluded"),
    ]
    found = rust_crates.section(crates, manifest=manifest)
    assert found.text.count("MIT terms") == 1
    assert "  [1] /r/a-1.0/M" in found.text and "  [1] /r/b-1.9/M" in found.text
    assert "Files read from: b 1.9" in found.text
    assert "none found" in found.text and "/usr/share/common-licenses/Apache-2.0" in found.text
    assert "build-helper" not in found.text
    assert found.holders == ["2020 Alice", "2021 Bob"]
    assert rust_crates.licence(crates, first="MIT") == (
        "MIT, and MIT or Apache-2.0, and Unicode-DFS-2016"
    )


def test_a_crate_without_an_entry_or_a_text_file_gone_stops_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rust_crates, "FOLDER", tmp_path)
    manifest = {"gone@0.1": {"texts": []}, "a@1.0": {"texts": [{"file": "x", "source": "y"}]}}
    crates = [Crate("a", "1.0", "MIT", "required"), Crate("new", "2.0", "MIT", "required")]
    with pytest.raises(SystemExit) as stopped:
        rust_crates.section(crates, manifest=manifest)
    message = str(stopped.value)
    assert "new@2.0: no entry" in message
    assert f"a@1.0: {tmp_path / 'x'} is gone" in message
    # The test's exact check also names an entry the SBOM no longer needs.
    assert "gone@0.1: the SBOM names no such crate" in rust_crates.problems(crates, manifest)


def test_a_crate_at_another_version_is_quoted_from_its_entry_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "LICENSE").write_text("Copyright (c) 2020 Alice\n")
    monkeypatch.setattr(rust_crates, "FOLDER", tmp_path)
    text = {"file": "LICENSE", "source": "s"}
    manifest = {"a@1.0": {"copyright": ["2020 Alice"], "texts": [text]}}
    crates = [Crate("a", "1.1", "MIT", "required")]
    found = rust_crates.section(crates, manifest=manifest)
    assert "a 1.1 (MIT)" in found.text
    assert "Entry for a@1.0: none for this version yet" in found.text
    assert "Copyright (c) 2020 Alice" in found.text
    assert rust_crates.problems(crates, manifest) == [
        "a@1.1: no entry in crates.toml",
        "a@1.0: the SBOM names no such crate",
    ]


def test_pydantic_cores_paragraph_quotes_the_crates_texts_with_their_holders() -> None:
    text = copyright_file.distribution_paragraph("pydantic_core", ["pydantic_core"])
    licence_line = text.split("\nLicense: ", 1)[1].partition("\n")[0]
    assert "Unicode-3.0" in licence_line and "Zlib" in licence_line
    assert " Copyright (c) 2015 Andrew Gallant" in text  # memchr's own LICENSE-MIT
    assert " Copyright (c) 2009 The Go Authors. All rights reserved." in text  # lexical's notice
    assert "\n 2016-2024 David Tolnay <dtolnay@gmail.com>" in text  # Copyright field
    # The full Apache-2.0 text points at Debian's copy instead of being repeated.
    assert len(re.findall(r"TERMS AND CONDITIONS FOR USE, REPRODUCTION", text)) <= 1
