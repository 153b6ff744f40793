"""The roster: one file per character, samples on a first start, save, share and import."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.files import EncounterFileError
from engine.files.character_file import read_character
from engine.files.roster import Roster, place_character
from engine.files.roster_file import read_roster_file
from engine.grid import Square
from engine.tokens import Condition
from tests.engine.files.builders import png_bytes

SYSTEMS = ("spycraft", "savage-worlds", "cities-without-number", "d20-firearms")


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_first_start_gives_the_systems_sample_characters_and_they_play(
    tmp_path: Path, system: str
) -> None:
    listing = Roster(tmp_path, system).load()
    assert listing.problems == ()
    samples = [entry.token for entry in listing.characters]
    assert len(samples) >= 4
    assert {"party", "enemy"} <= {token.side.value for token in samples}
    files = sorted(p.name for p in (tmp_path / "roster" / system).iterdir())
    assert files == sorted(f"{e.key}.killbox-character" for e in listing.characters)
    fight = engine.new_encounter(system, "Test", size=(12, 10))
    for character in samples:
        fight.apply(place_character(character, fight.state))
    assert len(fight.state.tokens) == len(samples)
    fight.apply(engine.Command("start_combat"))
    assert fight.state.combat.active is not None


def test_samples_come_once_so_a_removed_one_stays_removed(tmp_path: Path) -> None:
    roster = Roster(tmp_path, "spycraft")
    first = roster.load().characters[0]
    roster.remove(first.key)
    assert first.key not in {e.key for e in Roster(tmp_path, "spycraft").load().characters}


def test_a_roster_first_used_to_save_still_gets_the_samples(tmp_path: Path) -> None:
    token = engine.open_encounter(engine.bundled_map("warehouse")).state.token("reyes")
    Roster(tmp_path, "spycraft").save(replace(token, name="Reyes (mine)"))
    names = [e.token.name for e in Roster(tmp_path, "spycraft").load().characters]
    assert "Reyes (mine)" in names and "Kestrel" in names


def test_a_saved_character_comes_back_in_another_encounter(tmp_path: Path) -> None:
    fight = engine.open_encounter(engine.bundled_map("warehouse"))
    kestrel = fight.state.token("kestrel")
    picture = fight.add_image(png_bytes((16, 16)), "kestrel")
    fight.apply(engine.Command.build("edit_token", targets=["kestrel"], portrait=picture))
    hurt = replace(fight.state.token("kestrel"), conditions=(Condition("prone"),), name="Kes")
    kept = Roster(tmp_path, "spycraft").save(hurt, fight.images[picture])
    assert kept.key == "kes"
    assert (kept.token.conditions, kept.token.square, kept.token.portrait) == ((), Square(0, 0),
                                                                               None)
    again = Roster(tmp_path, "spycraft").entry("kes")
    assert again == kept and again.picture == fight.images[picture]
    other = engine.new_encounter("spycraft", "Elsewhere", size=(10, 10))
    other.apply(place_character(again.token, other.state, Square(2, 3)))
    placed = other.state.token("kestrel")
    assert (placed.name, placed.square, placed.stats) == ("Kes", Square(2, 3), kestrel.stats)
    # a second copy gets the next name and a fresh id
    other.apply(place_character(again.token, other.state))
    assert other.state.token("kestrel-2").name == "Kes 2"


def test_saving_the_same_name_twice_keeps_both_and_remove_takes_one_out(tmp_path: Path) -> None:
    roster = Roster(tmp_path, "spycraft")
    sample = roster.entry("kestrel").token
    first = roster.save(sample)
    second = roster.save(replace(sample, notes="veteran"))
    assert (first.key, second.key) == ("kestrel-2", "kestrel-3")  # the sample is "kestrel"
    roster.remove(second.key)
    assert [e.key for e in roster.load().characters if e.token.name == "Kestrel"] == [
        "kestrel", "kestrel-2"]
    with pytest.raises(KeyError):
        roster.remove(second.key)


@pytest.mark.parametrize("key", ["../roster-spycraft", ".hidden", "", "a/b"])
def test_a_key_that_is_not_a_file_of_the_roster_is_refused(tmp_path: Path, key: str) -> None:
    with pytest.raises(KeyError):
        Roster(tmp_path, "spycraft").entry(key)


def test_export_then_import_elsewhere_keeps_the_picture(tmp_path: Path) -> None:
    mine = Roster(tmp_path / "me", "d20-firearms")
    sample = mine.load().characters[0].token
    kept = mine.save(replace(sample, name="Hollis the elder"), png_bytes((8, 8), "red"))
    shared = tmp_path / "hollis.killbox-character"
    mine.export(kept.key, shared)
    friend = Roster(tmp_path / "friend", "d20-firearms")
    friend.save(replace(sample, name="Hollis the elder"))
    (added,) = friend.import_file(shared)
    assert added.key == "hollis-the-elder-2"
    assert added.token == kept.token and added.picture == kept.picture


def test_a_character_of_another_system_is_refused(tmp_path: Path) -> None:
    mine = Roster(tmp_path, "spycraft")
    mine.export(mine.load().characters[0].key, tmp_path / "kestrel.killbox-character")
    with pytest.raises(EncounterFileError, match="for 'spycraft', not 'savage-worlds'"):
        Roster(tmp_path, "savage-worlds").import_file(tmp_path / "kestrel.killbox-character")


Change = Callable[[dict[str, Any]], object]


@pytest.mark.parametrize(
    ("change", "place", "problem"),
    [
        (lambda d: d.update(format="zip"), "format", "not a Killbox character file"),
        (lambda d: d.update(version=9), "version", "not supported"),
        (lambda d: d.update(system="chess"), "system", "for 'chess', not 'spycraft'"),
        (lambda d: d.update(extra=1), "extra", "unknown key"),
        (lambda d: d["token"].update(size=0), "token", "size must be at least 1"),
        (lambda d: d["token"].update(speed="fast"), "token.speed", "number"),
        (lambda d: d["token"]["stats"].update(defence=14), "token.stats", "defence"),
        (lambda d: d["token"]["stats"].update(defense=-400), "token.stats", "defense"),
        (lambda d: d["token"].update(portrait="images/x.png"), "token.portrait", "must be null"),
        (lambda d: d.update(picture="bm90IGFuIGltYWdl"), "picture", "not a valid picture"),
        (lambda d: d.update(picture="%%%"), "picture", "not a valid picture"),
    ],
)
def test_bad_character_files_name_the_place_and_problem_and_add_nothing(
    tmp_path: Path, change: Change, place: str, problem: str
) -> None:
    roster = Roster(tmp_path, "spycraft")
    shared = tmp_path / "shared.killbox-character"
    roster.export(roster.load().characters[0].key, shared)
    document = json.loads(shared.read_text())
    change(document)
    shared.write_text(json.dumps(document))
    with pytest.raises(EncounterFileError) as caught:
        read_character(shared, "spycraft")
    assert caught.value.place == place and problem in caught.value.problem, caught.value
    assert caught.value.path == str(shared)
    before = sorted(roster.folder.iterdir())
    with pytest.raises(EncounterFileError):
        roster.import_file(shared)
    assert sorted(roster.folder.iterdir()) == before  # nothing half-imported


def test_not_json_is_refused_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.killbox-character"
    bad.write_text("{nope")
    with pytest.raises(EncounterFileError, match="not valid JSON") as caught:
        Roster(tmp_path, "spycraft").import_file(bad)
    assert caught.value.path == str(bad)


def test_a_damaged_file_loses_one_character_not_the_library(tmp_path: Path) -> None:
    roster = Roster(tmp_path, "spycraft")
    everyone = roster.load().characters
    damaged = roster.path_of(everyone[0].key)
    damaged.write_text(damaged.read_text()[:40])
    listing = roster.load()
    assert listing.characters == everyone[1:]
    (problem,) = listing.problems
    assert (problem.path, problem.place) == (str(damaged), "file")
    assert "not valid JSON" in problem.problem


def old_roster_file(tmp_path: Path, portrait: bytes) -> Path:
    """A roster as versions before the per-character files kept it: one file per system."""
    samples = Roster(tmp_path / "elsewhere", "spycraft")
    characters = [
        json.loads(samples.path_of(entry.key).read_text())["token"]
        for entry in samples.load().characters[:2]
    ]
    characters[0].update(name="Kestrel (old)", portrait="images/kestrel.png")
    characters[1].update(name="Ibarra (old)")
    document = {
        "format": "killbox-roster", "version": 1, "system": "spycraft",
        "characters": characters,
        "images": {"images/kestrel.png": base64.b64encode(portrait).decode()},
    }
    path = tmp_path / "data" / "roster-spycraft.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(document))
    return path


def test_an_old_roster_file_is_imported_once_and_kept_aside(tmp_path: Path) -> None:
    picture = png_bytes((12, 12), "navy")
    old = old_roster_file(tmp_path, picture)
    before = old.read_bytes()
    roster = Roster(tmp_path / "data", "spycraft")
    listing = roster.load()
    by_name = {e.token.name: e for e in listing.characters}
    assert by_name["Kestrel (old)"].picture == picture
    assert by_name["Kestrel (old)"].token.portrait is None
    assert by_name["Ibarra (old)"].picture is None
    assert "Okafor" in by_name  # the samples are there as on any first start
    assert not old.exists()
    assert (old.parent / "roster-spycraft.json.migrated").read_bytes() == before
    assert Roster(tmp_path / "data", "spycraft").load() == listing  # once, not at every start


def test_a_second_old_file_is_imported_and_the_first_aside_is_not_overwritten(
    tmp_path: Path,
) -> None:
    old = old_roster_file(tmp_path, png_bytes())
    text = old.read_text()
    Roster(tmp_path / "data", "spycraft").load()
    old.write_text(text.replace("(old)", "(older)"))
    names = {e.token.name for e in Roster(tmp_path / "data", "spycraft").load().characters}
    assert {"Kestrel (old)", "Kestrel (older)"} <= names
    assert "(old)" in (old.parent / "roster-spycraft.json.migrated").read_text()
    assert "(older)" in (old.parent / "roster-spycraft.json.migrated-2").read_text()


def test_an_old_roster_that_does_not_read_stays_and_is_reported(tmp_path: Path) -> None:
    old = old_roster_file(tmp_path, png_bytes())
    document = json.loads(old.read_text())
    document["characters"][1]["speed"] = "fast"
    old.write_text(json.dumps(document))
    listing = Roster(tmp_path / "data", "spycraft").load()
    (problem,) = listing.problems
    assert (problem.path, problem.place) == (str(old), "characters[1].speed")
    assert old.exists()  # the GM mends it; the next start imports it
    assert "Kestrel (old)" not in {e.token.name for e in listing.characters}  # not half-read


def test_an_old_roster_export_imports_all_its_characters(tmp_path: Path) -> None:
    old = old_roster_file(tmp_path, png_bytes())
    added = Roster(tmp_path / "friend", "spycraft").import_file(old)
    assert [e.token.name for e in added] == ["Kestrel (old)", "Ibarra (old)"]


@pytest.mark.parametrize(
    ("change", "place", "problem"),
    [
        (lambda d: d.update(format="zip"), "format", "not a roster file"),
        (lambda d: d["characters"][0].update(portrait="images/x.png"), "characters[0].portrait",
         "not in the file"),
        (lambda d: d.update(images={"images/x.png": "bm90IGFuIGltYWdl"}), "images['images/x.png']",
         "not a valid picture"),
        (lambda d: d.update(images={"x.png": ""}), "images['x.png']", "images/<name>"),
        (lambda d: d.update(extra=1), "extra", "unknown key"),
        (lambda d: d["characters"].append(d["characters"][0]), "characters[2].id",
         "two characters"),
    ],
)
def test_bad_old_roster_files_name_the_place_and_problem(
    tmp_path: Path, change: Change, place: str, problem: str
) -> None:
    old = old_roster_file(tmp_path, png_bytes())
    document = json.loads(old.read_text())
    change(document)
    old.write_text(json.dumps(document))
    with pytest.raises(EncounterFileError) as caught:
        read_roster_file(old, "spycraft")
    assert caught.value.place == place and problem in caught.value.problem, caught.value
