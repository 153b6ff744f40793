"""Bad .killbox files raise EncounterFileError, naming the file, the place and the problem,
and nothing else: no other exception type, no half-loaded encounter."""

from __future__ import annotations

import copy
import io
import json
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.files.archive as archive_module
from engine.files import (
    MAX_IMAGE_PIXELS,
    EncounterFile,
    EncounterFileError,
    encounter_to_json,
    load_encounter,
    save_encounter,
)
from tests.engine.files.builders import (
    document_bytes,
    huge_png,
    image_bytes,
    png_bytes,
    rich_entries,
    rich_file,
    rich_state,
    write_archive,
)

SLOW_OK = settings(
    max_examples=80, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def load_error(path: Path) -> EncounterFileError:
    """The error loading ``path`` raises; fails the test on success or any other type."""
    with pytest.raises(EncounterFileError) as caught:
        load_encounter(path)
    error = caught.value
    assert error.path == str(path)
    assert str(error) == f"{path}: {error.place}: {error.problem}"
    assert error.place and error.problem
    return error


def load_or_error(path: Path) -> EncounterFile | EncounterFileError:
    """Loading either succeeds or raises EncounterFileError; anything else fails the test."""
    try:
        return load_encounter(path)
    except EncounterFileError as error:
        assert error.path == str(path)
        assert str(error).startswith(f"{path}: ")
        assert error.place and error.problem
        return error


# -- the archive itself ------------------------------------------------------------------

def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.killbox"
    path.write_bytes(b"")
    assert load_error(path).problem == "the file is empty"


def test_a_file_that_is_not_a_zip_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.killbox"
    path.write_text("just some notes about the warehouse\n")
    error = load_error(path)
    assert error.place == "zip archive"
    assert "not a zip archive" in error.problem


def test_a_missing_file_is_reported_as_a_file_error(tmp_path: Path) -> None:
    error = load_error(tmp_path / "nowhere.killbox")
    assert "cannot be read" in error.problem


def test_a_directory_is_reported_as_a_file_error(tmp_path: Path) -> None:
    assert "cannot be read" in load_error(tmp_path).problem


def test_every_truncation_of_a_good_file_is_refused_cleanly(tmp_path: Path) -> None:
    good = tmp_path / "good.killbox"
    save_encounter(good, rich_file())
    data = good.read_bytes()
    cut = tmp_path / "cut.killbox"
    # Every cut in the last kilobyte (the zip directory), then a spread over the rest.
    lengths = sorted(set(range(max(0, len(data) - 1024), len(data))) | set(range(0, len(data), 97)))
    for length in lengths:
        cut.write_bytes(data[:length])
        load_error(cut)


@SLOW_OK
@given(flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(1, 255)),
                      min_size=1, max_size=4))
def test_corrupted_bytes_load_or_raise_the_file_error(
    tmp_path: Path, flips: list[tuple[int, int]]
) -> None:
    good = tmp_path / "good.killbox"
    if not good.exists():
        save_encounter(good, rich_file())
    data = bytearray(good.read_bytes())
    for position, mask in flips:
        data[position % len(data)] ^= mask
    bad = tmp_path / "flipped.killbox"
    bad.write_bytes(bytes(data))
    load_or_error(bad)


@pytest.mark.parametrize("name", [
    "../x.png", "images/../../x.png", "/etc/x", "C:\\x", "C:/x", "images\\bg.png",
    "images/./bg.png", "images//bg.png",
])
def test_zip_slip_names_are_refused(tmp_path: Path, name: str) -> None:
    path = write_archive(tmp_path / "slip.killbox", {**rich_entries(), name: png_bytes()})
    error = load_error(path)
    assert error.place == name
    assert "refused" in error.problem


def test_a_missing_encounter_json_is_named(tmp_path: Path) -> None:
    entries = rich_entries()
    del entries["encounter.json"]
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "encounter.json"
    assert "missing" in error.problem


def test_duplicate_entry_names_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "dup.killbox"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in rich_entries().items():
            archive.writestr(name, data)
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("images/kestrel.png", png_bytes())
    error = load_error(path)
    assert (error.place, error.problem) == (
        "images/kestrel.png", "the archive holds two entries of this name")


def test_an_entry_outside_images_is_refused(tmp_path: Path) -> None:
    entries = {**rich_entries(), "notes.txt": b"hello"}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "notes.txt"
    assert "unexpected entry" in error.problem


def test_an_entry_over_the_size_cap_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = {**rich_entries(), "images/big.png": png_bytes() + b"\x00" * 50_000}
    cap = len(entries["encounter.json"]) + 1000
    monkeypatch.setattr(archive_module, "MAX_ENTRY_BYTES", cap)
    read_names: list[str] = []
    real_read_entry = archive_module._read_entry
    monkeypatch.setattr(archive_module, "_read_entry", lambda archive, info, path: (
        read_names.append(info.filename) or real_read_entry(archive, info, path)))
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "images/big.png"
    assert f"over the limit of {cap:,} bytes" in error.problem
    assert read_names == []  # refused from the directory, before anything was unpacked


def test_reading_stops_at_the_cap_even_if_the_directory_check_was_passed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Belt and braces: the byte count is checked again while unpacking."""
    path = write_archive(tmp_path / "x.killbox", {"images/big.png": b"\x00" * 50_000})
    monkeypatch.setattr(archive_module, "MAX_ENTRY_BYTES", 10_000)
    monkeypatch.setattr(archive_module, "_CHUNK", 4096)
    with zipfile.ZipFile(path) as archive, pytest.raises(EncounterFileError) as caught:
        archive_module._read_entry(archive, archive.getinfo("images/big.png"), path)
    assert caught.value.place == "images/big.png"
    assert "unpacks to 12,288 bytes or more, over the limit of 10,000 bytes" in str(caught.value)


def test_an_entry_lying_about_its_size_is_refused(tmp_path: Path) -> None:
    """The directory claims 10 bytes; the deflated data holds 100 kB (a zip bomb's shape).
    zipfile stops at the declared size and the checksum then fails."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for name, content in rich_entries().items():
            target.writestr(name, content)
        target.writestr("images/bomb.png", b"\x89PNG" + b"\x00" * 99_996)
    declared = struct.pack("<I", 100_000)
    forged = buffer.getvalue()
    assert forged.count(declared) == 2  # local header and central directory
    path = tmp_path / "x.killbox"
    path.write_bytes(forged.replace(declared, struct.pack("<I", 10)))
    error = load_error(path)
    assert error.place == "images/bomb.png"
    assert "damaged" in error.problem


# -- encounter.json --------------------------------------------------------------------------

def entries_with(document: Any) -> dict[str, bytes]:
    return rich_entries(document)


def good_document() -> dict[str, Any]:
    return encounter_to_json(rich_state())


@pytest.mark.parametrize("version, expected", [
    (2, "version 2 is not supported (written by a newer Killbox?); this Killbox reads version 1"),
    (0, "version 0 is not supported; this Killbox reads version 1"),
    ("1", "version '1' is not supported; this Killbox reads version 1"),
    (True, "version True is not supported; this Killbox reads version 1"),
    (None, "version None is not supported; this Killbox reads version 1"),
])
def test_a_wrong_schema_version_is_refused(tmp_path: Path, version: Any, expected: str) -> None:
    document = good_document()
    document["version"] = version
    error = load_error(write_archive(tmp_path / "x.killbox", entries_with(document)))
    assert (error.place, error.problem) == ("version", expected)


def test_a_foreign_json_format_is_refused(tmp_path: Path) -> None:
    document = good_document()
    document["format"] = "foundry-scene"
    error = load_error(write_archive(tmp_path / "x.killbox", entries_with(document)))
    assert error.place == "format"
    assert "'killbox-encounter'" in error.problem


def test_json_syntax_errors_give_line_and_column(tmp_path: Path) -> None:
    entries = {**rich_entries(), "encounter.json": b'{\n  "format": "killbox-encounter",\n  oops'}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "encounter.json line 3 column 3"
    assert error.problem.startswith("not valid JSON")


@pytest.mark.parametrize("raw, problem", [
    (b"\xff\xfe{}", "is not UTF-8 text (byte 0)"),
    (b'{"format": NaN}', "not valid JSON: NaN is not a JSON number"),
    (b"[1, 2]", "must hold a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_encounter_json_that_is_not_a_document(tmp_path: Path, raw: bytes, problem: str) -> None:
    entries = {**rich_entries(), "encounter.json": raw}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "encounter.json"
    assert error.problem == problem


@pytest.mark.parametrize("mutate, place, problem", [
    (lambda d: d["encounter"]["tokens"][3].__setitem__("square", "B7"),
     "encounter.tokens[3].square",
     "Input should be an array or an object (found 'B7')"),
    (lambda d: d["encounter"]["tokens"][1].__setitem__("side", "pirates"),
     "encounter.tokens[1].side",
     "Input should be 'party', 'ally', 'enemy' or 'neutral' (found 'pirates')"),
    (lambda d: d["encounter"]["battlemap"]["walls"][2].pop("end"),
     "encounter.battlemap.walls[2].end", "Field required"),
    (lambda d: d["encounter"]["tokens"][0]["stats"].__setitem__("defense", [14]),
     "encounter.tokens[0].stats.defense",
     "Input should be a valid integer, a valid number, a valid string or a valid boolean"),
    (lambda d: d["encounter"]["tokens"][2].__setitem__("square", [20, 1]),
     "encounter",
     "token 'civ' covers square (20,1), outside the 12x10 map"),
    (lambda d: d["encounter"]["tokens"][0].__setitem__("sqaure", [1, 1]),
     "encounter.tokens[0].sqaure", "unknown key"),
    (lambda d: d.__setitem__("extra", 1), "extra", "unknown key"),
    (lambda d: d["encounter"]["battlemap"].__setitem__("width", "12"),
     "encounter.battlemap.width", "Input should be a valid integer (found '12')"),
    (lambda d: d["encounter"]["battlemap"]["walls"][0].__setitem__("blocks_sight", 1),
     "encounter.battlemap.walls[0].blocks_sight", "Input should be a valid boolean (found 1)"),
    (lambda d: d["encounter"]["tokens"][0]["stats"].__setitem__("defense", None),
     "encounter.tokens[0].stats.defense",
     "Input should be a valid integer, a valid number, a valid string, a valid boolean or a "
     "valid array (found None)"),
    (lambda d: d["encounter"]["tokens"].__setitem__(0, "agent"),
     "encounter.tokens[0]", "Input should be an object (found 'agent')"),
    (lambda d: d.pop("encounter"), "encounter", "missing"),
    (lambda d: d.pop("format"), "format", "missing: this is not a Killbox encounter"),
    (lambda d: d.pop("version"), "version", "missing: this is not a Killbox encounter"),
])
def test_a_bad_value_is_named_by_its_json_path(
    tmp_path: Path, mutate: Callable[[dict[str, Any]], object], place: str, problem: str
) -> None:
    document = good_document()
    mutate(document)
    error = load_error(write_archive(tmp_path / "x.killbox", entries_with(document)))
    assert error.place == place
    assert error.problem.startswith(problem)


# -- images --------------------------------------------------------------------------------------

def test_a_missing_referenced_image_is_named(tmp_path: Path) -> None:
    entries = rich_entries()
    del entries["images/kestrel.png"]
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "encounter.tokens[0].portrait"
    assert error.problem == "names the image 'images/kestrel.png', which is not in the archive"


def test_an_image_that_is_not_png_jpeg_or_webp_is_refused(tmp_path: Path) -> None:
    entries = {**rich_entries(), "images/background.png": image_bytes("GIF")}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "images/background.png"
    assert "not a PNG, JPEG or WebP image" in error.problem


def test_text_posing_as_an_image_is_refused(tmp_path: Path) -> None:
    entries = {**rich_entries(), "images/background.png": b"<svg></svg>"}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert "not a PNG, JPEG or WebP image" in error.problem


def test_an_oversize_image_is_refused_without_decoding(tmp_path: Path) -> None:
    # 100000 x 100000 1-bit pixels would take 10 GB to decode; the header says so first.
    entries = {**rich_entries(), "images/background.png": huge_png(100_000, 100_000)}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "images/background.png"
    assert "100000x100000 pixels" in error.problem
    assert f"limit of {MAX_IMAGE_PIXELS:,} pixels" in error.problem


def test_an_image_just_over_the_limit_is_refused_and_one_at_it_is_not(tmp_path: Path) -> None:
    side = int(MAX_IMAGE_PIXELS ** 0.5)
    assert side * side == MAX_IMAGE_PIXELS
    over = {**rich_entries(), "images/background.png": huge_png(side + 1, side)}
    assert "more than the limit" in load_error(
        write_archive(tmp_path / "over.killbox", over)).problem
    # A whole picture at exactly the limit passes (decoded once, 64 MB at one bit a pixel).
    at_limit = {**rich_entries(), "images/background.png": huge_png(side, side, complete=True)}
    loaded = load_encounter(write_archive(tmp_path / "at.killbox", at_limit))
    assert loaded.images["images/background.png"] == huge_png(side, side, complete=True)


def test_a_truncated_png_is_refused(tmp_path: Path) -> None:
    entries = {**rich_entries(), "images/background.png": png_bytes((40, 40))[:-20]}
    error = load_error(write_archive(tmp_path / "x.killbox", entries))
    assert error.place == "images/background.png"
    assert "damaged" in error.problem


def test_a_save_of_a_bad_image_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "x.killbox"
    images = {**rich_file().images, "images/background.png": b"GIF89a..."}
    with pytest.raises(EncounterFileError) as caught:
        save_encounter(path, EncounterFile(rich_state(), images))
    assert caught.value.place == "images/background.png"
    assert not path.exists()


# -- Hypothesis-mutated JSON --------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=6,
)


def all_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            paths += all_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            paths += all_paths(value, (*prefix, index))
    return paths


@st.composite
def mutated_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid encounter.json with one to three random edits at random places."""
    document = copy.deepcopy(good_document())
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(all_paths(document)[1:]))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = draw(st.sampled_from(["replace", "delete", "rename", "wrap", "stringify"]))
        if action == "replace":
            parent[key] = draw(json_values)
        elif action == "delete":
            del parent[key]
        elif action == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = parent.pop(key)
        elif action == "wrap":
            parent[key] = [parent[key]]
        else:
            parent[key] = json.dumps(parent[key])
    return document


@SLOW_OK
@given(document=mutated_documents())
def test_mutated_json_loads_or_raises_the_file_error(
    tmp_path: Path, document: dict[str, Any]
) -> None:
    path = write_archive(tmp_path / "mutated.killbox", entries_with(document))
    outcome = load_or_error(path)
    if isinstance(outcome, EncounterFile):
        # Whatever loads is a sound encounter: it saves and loads back to the same state.
        again = tmp_path / "again.killbox"
        save_encounter(again, outcome)
        assert load_encounter(again).state == outcome.state


def test_mutations_do_produce_errors(tmp_path: Path) -> None:
    """Guard for the property above: a typical mutation is caught, with a JSON path."""
    document = good_document()
    document["encounter"]["battlemap"]["portals"][4]["kind"] = 7
    path = write_archive(tmp_path / "x.killbox", {**rich_entries(), "encounter.json":
                                                  document_bytes(document)})
    error = load_error(path)
    assert error.place == "encounter.battlemap.portals[4].kind"
    assert error.problem == "Input should be 'door' or 'window' (found 7)"


@pytest.mark.parametrize("limit, value, words", [
    ("MAX_FILE_BYTES", 100, "more than the limit of 100 bytes"),
    ("MAX_TOTAL_BYTES", 100, "unpack to more than the limit of 100 bytes"),
    ("MAX_ENTRIES", 2, "holds 3 entries, more than the limit of 2"),
])
def test_archive_caps_are_enforced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, value: int, words: str
) -> None:
    monkeypatch.setattr(archive_module, limit, value)
    error = load_error(write_archive(tmp_path / "x.killbox", rich_entries()))
    assert error.place == "zip archive"
    assert words in error.problem
