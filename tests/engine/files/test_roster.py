"""The roster: save characters, use them in any encounter of the system, export and import."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

import engine
from engine.files import EncounterFileError
from engine.files.roster import Roster, place_character, read_roster
from engine.grid import Square
from engine.tokens import Condition
from tests.engine.files.builders import png_bytes

SYSTEMS = ("spycraft", "savage-worlds", "cities-without-number", "d20-firearms")


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_system_ships_sample_characters_that_play(system: str) -> None:
    samples = Roster(Path("/nonexistent"), system).samples().characters
    assert len(samples) >= 3
    fight = engine.new_encounter(system, "Test", size=(12, 10))
    for character in samples:
        fight.apply(place_character(character, fight.state))
    assert len(fight.state.tokens) == len(samples)
    fight.apply(engine.Command("start_combat"))
    assert fight.state.combat.active is not None


def test_a_saved_character_comes_back_in_another_encounter(tmp_path: Path) -> None:
    fight = engine.open_encounter(engine.bundled_map("warehouse"))
    kestrel = fight.state.token("kestrel")
    picture = fight.add_image(png_bytes((16, 16)), "kestrel")
    fight.apply(engine.Command.build("edit_token", targets=["kestrel"], portrait=picture))
    hurt = replace(fight.state.token("kestrel"), conditions=(Condition("prone"),))
    roster = Roster(tmp_path, "spycraft")
    kept = roster.save(hurt, fight.images)
    assert kept.conditions == () and kept.square == Square(0, 0)
    loaded = Roster(tmp_path, "spycraft").load()
    assert loaded.characters == (kept,)
    assert loaded.images == {picture: fight.images[picture]}
    other = engine.new_encounter("spycraft", "Elsewhere", size=(10, 10))
    other.add_image(loaded.images[picture], "kestrel")
    other.apply(place_character(loaded.characters[0], other.state, Square(2, 3)))
    placed = other.state.token("kestrel")
    assert (placed.name, placed.square, placed.stats) == ("Kestrel", Square(2, 3), kestrel.stats)
    # a second copy gets the next name and a fresh id
    other.apply(place_character(loaded.characters[0], other.state))
    assert other.state.token("kestrel-2").name == "Kestrel 2"


def test_saving_again_replaces_and_remove_takes_out(tmp_path: Path) -> None:
    roster = Roster(tmp_path, "spycraft")
    sample = roster.samples().characters[0]
    roster.save(sample)
    roster.save(replace(sample, notes="veteran"))
    assert [c.notes for c in roster.load().characters] == ["veteran"]
    roster.remove(sample.id)
    assert roster.load().characters == ()
    with pytest.raises(KeyError):
        roster.remove(sample.id)


def test_export_then_import_elsewhere_with_fresh_ids(tmp_path: Path) -> None:
    mine = Roster(tmp_path / "me", "d20-firearms")
    (tmp_path / "me").mkdir()
    samples = mine.samples().characters
    for character in samples[:2]:
        mine.save(character)
    shared = tmp_path / "squad.json"
    mine.export(shared, ids=(samples[0].id,))
    friend_folder = tmp_path / "friend"
    friend_folder.mkdir()
    friend = Roster(friend_folder, "d20-firearms")
    friend.save(samples[0])
    added = friend.import_file(shared)
    assert [t.id for t in added] == [f"{samples[0].id}-2"]
    assert len(friend.load().characters) == 2


def test_a_file_for_another_system_is_refused(tmp_path: Path) -> None:
    mine = Roster(tmp_path, "spycraft")
    mine.save(mine.samples().characters[0])
    with pytest.raises(EncounterFileError, match="for 'spycraft', not 'savage-worlds'"):
        Roster(tmp_path, "savage-worlds").import_file(mine.path)


@pytest.mark.parametrize(
    ("change", "place", "problem"),
    [
        (lambda d: d.update(format="zip"), "format", "not a roster file"),
        (lambda d: d.update(version=9), "version", "not supported"),
        (lambda d: d["characters"][0].update(size=0), "characters[0]", "size must be at least 1"),
        (lambda d: d["characters"][0].update(speed="fast"), "characters[0].speed", "number"),
        (lambda d: d["characters"][0].update(portrait="images/x.png"), "characters[0].portrait",
         "not in the file"),
        (lambda d: d.update(images={"images/x.png": "bm90IGFuIGltYWdl"}), "images['images/x.png']",
         "not a valid picture"),
        (lambda d: d.update(extra=1), "extra", "unknown key"),
        (lambda d: d["characters"].append(d["characters"][0]), "characters[1].id",
         "two characters"),
    ],
)
def test_bad_roster_files_name_the_place_and_problem(tmp_path: Path, change, place: str,  # type: ignore[no-untyped-def]
                                                      problem: str) -> None:
    roster = Roster(tmp_path, "spycraft")
    roster.save(roster.samples().characters[0])
    document = json.loads(roster.path.read_text())
    change(document)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    with pytest.raises(EncounterFileError) as caught:
        read_roster(bad, "spycraft")
    assert caught.value.place == place and problem in caught.value.problem, caught.value
    before = roster.path.read_bytes()
    with pytest.raises(EncounterFileError):
        roster.import_file(bad)
    assert roster.path.read_bytes() == before  # nothing half-imported


def test_not_json_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(EncounterFileError, match="not valid JSON"):
        read_roster(bad, "spycraft")
