"""Save then load of .killbox files: equal states, identical pictures, a clear file layout."""

from __future__ import annotations

import json
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from engine.battlemap import TerrainKind, TerrainPatch
from engine.encounter import EncounterState
from engine.files import (
    FORMAT_VERSION,
    MAX_ENTRIES,
    EncounterFile,
    EncounterFileError,
    encounter_from_json,
    encounter_to_json,
    load_encounter,
    referenced_images,
    save_encounter,
)
from engine.grid import Square
from engine.turns.combat import CombatState
from tests.engine.files.builders import (
    png_bytes,
    rich_entries,
    rich_file,
    rich_state,
    write_archive,
)
from tests.engine.files.strategies import IMAGE_NAMES, encounter_states


def test_save_then_load_gives_the_same_state_and_image_bytes(tmp_path: Path) -> None:
    original = rich_file()
    path = tmp_path / "warehouse.killbox"
    save_encounter(path, original)
    loaded = load_encounter(path)
    assert loaded.state == original.state
    assert dict(loaded.images) == dict(original.images)
    # Equality of frozen dataclasses skips nothing that matters, but check the parts
    # that need care in JSON: enums, frozensets of squares, mixed stat types.
    assert loaded.state.battlemap.portals == original.state.battlemap.portals
    assert loaded.state.battlemap.terrain[0].squares == original.state.battlemap.terrain[0].squares
    stats = loaded.state.token("agent-1").stats
    assert stats == {"defense": 14, "initiative": 3, "armor": "partial", "helmet": True}
    assert [type(v) for v in stats.values()] == [int, int, str, bool]


def test_the_archive_holds_versioned_json_and_the_images(tmp_path: Path) -> None:
    path = tmp_path / "warehouse.killbox"
    save_encounter(path, rich_file())
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        document = json.loads(archive.read("encounter.json"))
    assert names == ["encounter.json", "images/background.png", "images/kestrel.png"]
    assert document["format"] == "killbox-encounter"
    assert document["version"] == FORMAT_VERSION == 1
    assert document["encounter"]["name"] == "Warehouse shoot-out"
    assert document["encounter"]["tokens"][1]["side"] == "enemy"


def test_saving_twice_gives_identical_bytes(tmp_path: Path) -> None:
    save_encounter(tmp_path / "a.killbox", rich_file())
    save_encounter(tmp_path / "b.killbox", rich_file())
    assert (tmp_path / "a.killbox").read_bytes() == (tmp_path / "b.killbox").read_bytes()


def test_sets_are_written_in_the_order_of_their_json_text(tmp_path: Path) -> None:
    """Terrain squares and the GM's fog are sets: written sorted, a file saved again after
    loading cannot differ from itself (the walk that sorts them reads only the fields whose
    types can hold a set)."""
    squares = frozenset(Square(x, y) for x in range(12) for y in range(3, 6))
    state = rich_state()
    battlemap = replace(state.battlemap, terrain=(TerrainPatch("mud", TerrainKind.DIFFICULT,
                                                               squares),))
    state = replace(state, battlemap=battlemap,
                    fog=replace(state.fog, revealed=squares - {Square(0, 3)}))
    save_encounter(tmp_path / "sets.killbox", EncounterFile(state, rich_file().images))
    with zipfile.ZipFile(tmp_path / "sets.killbox") as archive:
        encounter = json.loads(archive.read("encounter.json"))["encounter"]
    written = [encounter["battlemap"]["terrain"][0]["squares"], encounter["fog"]["revealed"]]
    for squares_written in written:
        assert squares_written == sorted(squares_written, key=json.dumps)
        assert squares_written != sorted(squares_written)  # text order: [10, 3] before [2, 3]


def test_saving_over_an_existing_file_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "warehouse.killbox"
    save_encounter(path, rich_file())
    renamed = replace(rich_state(), name="After the fight")
    save_encounter(path, EncounterFile(renamed, rich_file().images))
    assert load_encounter(path).state.name == "After the fight"
    assert [p.name for p in tmp_path.iterdir()] == ["warehouse.killbox"]


def test_json_helpers_round_trip_without_a_file() -> None:
    state = rich_state()
    document = encounter_to_json(state)
    assert json.loads(json.dumps(document)) == document  # plain JSON values only
    assert encounter_from_json(document) == state


def test_whole_numbers_are_accepted_where_the_model_wants_a_float() -> None:
    document = encounter_to_json(rich_state())
    document["encounter"]["tokens"][0]["facing"] = 90
    document["encounter"]["battlemap"]["walls"][0]["start"] = [0, 0]
    assert encounter_from_json(document) == rich_state()


def test_json_helpers_name_the_document_given() -> None:
    document = encounter_to_json(rich_state())
    document["encounter"]["tokens"][2]["speed"] = "fast"
    with pytest.raises(EncounterFileError) as caught:
        encounter_from_json(document, path="snapshot")
    assert caught.value.path == "snapshot"
    assert caught.value.place == "encounter.tokens[2].speed"


def test_referenced_images_name_their_json_paths() -> None:
    assert referenced_images(rich_state()) == {
        "encounter.battlemap.background.image": "images/background.png",
        "encounter.tokens[0].portrait": "images/kestrel.png",
    }


def test_an_unreferenced_image_is_kept(tmp_path: Path) -> None:
    images = {**rich_file().images, "images/spare.png": png_bytes((2, 2))}
    save_encounter(tmp_path / "x.killbox", EncounterFile(rich_state(), images))
    assert load_encounter(tmp_path / "x.killbox").images["images/spare.png"] == png_bytes((2, 2))


def test_loaded_images_cannot_be_changed(tmp_path: Path) -> None:
    save_encounter(tmp_path / "x.killbox", rich_file())
    loaded = load_encounter(tmp_path / "x.killbox")
    with pytest.raises(TypeError):
        loaded.images["images/new.png"] = b""  # type: ignore[index]


def test_save_refuses_a_state_naming_an_image_it_does_not_carry(tmp_path: Path) -> None:
    path = tmp_path / "x.killbox"
    with pytest.raises(EncounterFileError) as caught:
        save_encounter(path, EncounterFile(rich_state(), {}))
    assert caught.value.place == "encounter.battlemap.background.image"
    assert "images/background.png" in caught.value.problem
    assert not path.exists()


def test_save_refuses_a_number_json_cannot_hold(tmp_path: Path) -> None:
    state = rich_state()
    token = replace(state.tokens[0], facing=float("inf"))
    with pytest.raises(EncounterFileError) as caught:
        save_encounter(tmp_path / "x.killbox",
                       EncounterFile(state.with_token(token), rich_file().images))
    assert caught.value.place == "encounter.tokens[0].facing"


def test_save_refuses_what_the_loader_would_refuse_and_writes_nothing(tmp_path: Path) -> None:
    """More pictures than an archive may hold: before, this saved and then never reopened."""
    path = tmp_path / "x.killbox"
    picture = png_bytes((2, 2))
    pictures = {f"images/p{n}.png": picture for n in range(MAX_ENTRIES)}
    with pytest.raises(EncounterFileError) as caught:
        save_encounter(path, EncounterFile(rich_state(), {**rich_file().images, **pictures}))
    assert f"more than the limit of {MAX_ENTRIES}" in caught.value.problem
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_save_checks_the_bytes_it_writes_with_the_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The archive checks (size, entries) read the very bytes a save is about to write."""
    import engine.files.encounter_file as module

    checked: list[bytes] = []
    real = module.read_entries_from_bytes

    def spy(data: bytes, path: object) -> dict[str, bytes]:
        checked.append(data)
        return real(data, path)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "read_entries_from_bytes", spy)
    path = tmp_path / "x.killbox"
    save_encounter(path, rich_file())
    assert checked == [path.read_bytes()]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(state=encounter_states())
def test_any_valid_state_survives_save_and_load(tmp_path: Path, state: EncounterState) -> None:
    images = {name: png_bytes((3, 3)) for name in IMAGE_NAMES}
    path = tmp_path / "generated.killbox"
    save_encounter(path, EncounterFile(state, images))
    loaded = load_encounter(path)
    assert loaded.state == state
    assert dict(loaded.images) == images


def test_squares_from_sets_are_saved_in_a_stable_sorted_order(tmp_path: Path) -> None:
    squares = [Square(x, y) for x in range(6) for y in range(5)]
    saved: list[bytes] = []
    for order in (squares, squares[::-1], squares[7:] + squares[:7]):
        patch = TerrainPatch("rubble", TerrainKind.DIFFICULT, frozenset(order))
        state = replace(rich_state(), battlemap=replace(rich_state().battlemap, terrain=(patch,)))
        path = tmp_path / "x.killbox"
        save_encounter(path, EncounterFile(state, rich_file().images))
        saved.append(path.read_bytes())
        with zipfile.ZipFile(path) as archive:
            listed = json.loads(archive.read("encounter.json"))["encounter"]["battlemap"][
                "terrain"][0]["squares"]
        assert listed == sorted([x, y] for x, y in squares)
    assert saved[0] == saved[1] == saved[2]


@pytest.mark.parametrize("name", ["encounter.json", "bg.png", "images/", "../images/x.png"])
def test_save_refuses_image_names_outside_the_images_folder(tmp_path: Path, name: str) -> None:
    images = {**rich_file().images, name: png_bytes()}
    with pytest.raises(EncounterFileError) as caught:
        save_encounter(tmp_path / "x.killbox", EncounterFile(rich_state(), images))
    assert caught.value.place == name
    assert not (tmp_path / "x.killbox").exists()


def test_a_byte_order_mark_from_a_windows_editor_is_accepted(tmp_path: Path) -> None:
    entries = rich_entries()
    entries["encounter.json"] = b"\xef\xbb\xbf" + entries["encounter.json"]
    assert load_encounter(write_archive(tmp_path / "x.killbox", entries)).state == rich_state()


def test_a_file_written_before_a_field_existed_loads_with_its_default() -> None:
    """Version 1 files from before ``combat`` was added to the state still load."""
    document = encounter_to_json(rich_state())
    del document["encounter"]["combat"]
    assert encounter_from_json(document) == replace(rich_state(), combat=CombatState())


def test_combat_state_with_a_big_dice_seed_survives_a_save(tmp_path: Path) -> None:
    path = tmp_path / "x.killbox"
    save_encounter(path, rich_file())
    combat = load_encounter(path).state.combat
    assert combat == rich_state().combat
    assert combat.seed == 2**70 + 3
    assert combat.order[0].tiebreak == (3, 12)
