"""The GM's editing commands take typed options (points, stat blocks, records), so names and
ids may hold any character from the command to the journal, the file and back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.files import load_encounter
from engine.grid import Square
from engine.rules.base import Command
from engine.rules.option_kinds import PointKind, PointsKind, RecordOf, StatsKind
from engine.tokens import Side, Token, Weapon
from engine.turns.journal import (
    CommandJournal,
    apply_record,
    command_from_json,
    command_to_json,
    read_journal,
    replay,
)
from engine.turns.session import Encounter
from tests.engine.rules.test_editing import EXAMPLES, room

#: An id holding every character a packed string split on, and names like it.
ACE = 'ann, "ace"=|;:'
COLT = Weapon("Colt, .45", "2d6", 30.0, 6, 6, ("single-shot",))
UZI = Weapon('Uzi|"9mm"=;:', "2d6", 20.0, 20, 20, ("burst",))


def awkward_token() -> Token:
    return Token(ACE, 'Ann "Ace" Ünal, = | ;', Side.PARTY, Square(2, 6), weapons=(COLT,),
                 stats={"defense": 13, "not_proficient": ("Colt, .45", "a|b")})


def through_json(command: Command) -> tuple[Command, dict[str, object]]:
    """The command as a journal line holds it and reads it back."""
    written = json.loads(json.dumps(command_to_json(command), allow_nan=False))
    return command_from_json(written, room().system), dict(written["options"])


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_every_editing_command_round_trips_through_the_journal(key: str) -> None:
    command, _ = EXAMPLES[key]
    assert through_json(command)[0] == command


def test_places_stats_and_records_are_json_values_not_text() -> None:
    command = Command.build("edit_token", targets=[ACE], stats={"not_proficient": ["x, y"]},
                            weapons=[COLT, UZI])
    again, options = through_json(command)
    assert again == command
    assert options["stats"] == {"not_proficient": ["x, y"]}
    assert [w["name"] for w in options["weapons"]] == ["Colt, .45", 'Uzi|"9mm"=;:']  # type: ignore[attr-defined]
    _, options = through_json(Command.build("add_wall", points=[(0, 6), (2.5, 6)]))
    assert options["points"] == [[0, 6], [2.5, 6]]
    _, options = through_json(Command.build("add_light", at=(8.5, 1.5)))
    assert options["at"] == [8.5, 1.5]
    token, options = through_json(Command.build("add_token", token=awkward_token()))
    assert token.value_of("token") == awkward_token()
    assert options["token"]["id"] == ACE  # type: ignore[index]


def test_names_and_ids_with_any_character_work_end_to_end(tmp_path: Path) -> None:
    fight = room()
    base = fight.state
    journal = CommandJournal(tmp_path / "journal.jsonl")
    build = Command.build
    commands = [
        build("add_token", token=awkward_token()),
        build("edit_token", targets=[ACE], weapons=[COLT, UZI], stats={"defense": 15},
              name='Ann "the Ace", = |'),
        build("duplicate_token", targets=[ACE], id=f"{ACE} 2", name="Ünal, 2"),
        build("add_portal", points=[(5, 1), (5, 2)], kind="window", id='win, "n"=|'),
        build("add_cover", rect=[(8, 6), (8, 6)], name='crate "A", =|', id="crate, 1"),
        build("set_terrain", rect=[(6, 6), (7, 7)], kind="difficult", name="mud, deep | wet"),
        build("remove_portal", portal='win, "n"=|'),
    ]
    for command in commands:
        preview = fight.preview(command)
        assert preview.legal, preview.reasons
        fight.apply(command)
        journal.append(apply_record(command, None, False, fight))
    journal.close()
    ann = fight.state.token(ACE)
    assert (ann.name, ann.weapon("Colt, .45"), ann.weapon('Uzi|"9mm"=;:')) == (
        'Ann "the Ace", = |', COLT, UZI)
    assert ann.stat("not_proficient") == ("Colt, .45", "a|b")
    assert fight.state.token(f"{ACE} 2").weapons == (COLT, UZI)
    assert [c.id for c in fight.state.battlemap.cover] == ["crate, 1"]
    restored = Encounter(base)
    replay(restored, read_journal(tmp_path / "journal.jsonl"))
    assert restored.state == fight.state
    fight.save(tmp_path / "awkward.killbox")
    assert load_encounter(tmp_path / "awkward.killbox").state == fight.state


@pytest.mark.parametrize(("kind", "value", "problem"), [
    (PointKind(), (1, 2), None),
    (PointKind(), (1.5, -2), None),
    (PointKind(), "1,2", "must be a point (x, y): a point is two numbers (x, y), not '1,2'"),
    (PointKind(), (1, 2, 3), "a point is two numbers"),
    (PointKind(), (1e9, 0), "is not a point on any map"),
    (PointsKind(), (), None),
    (PointsKind(), ((0, 0), (1, 0.5)), None),
    (PointsKind(), (0, 0), "must be a list of points (x, y): a point is two numbers"),
    (PointsKind(whole=True), ((0, 0), (1.0, 2)), None),
    (PointsKind(whole=True), ((0, 0.5),), "a square is two whole numbers (x, y), not (0, 0.5)"),
    (StatsKind(), (("defense", 14), ("skills", ("a, b",))), None),
    (StatsKind(), (("defense", 14), ("defense", 15)), "names 'defense' twice"),
    (StatsKind(), (("", 14),), "must be stat names each with a value"),
    (StatsKind(), (("defense", (1, 2)),), "stat 'defense' must be a number, text"),
    (RecordOf(Token), awkward_token(), None),
    (RecordOf(Token), (awkward_token(),), "must be a token record"),
    (RecordOf(Weapon, many=True), (COLT, UZI), None),
    (RecordOf(Weapon, many=True), (COLT, "knife"), "must be a list of weapon records"),
])
def test_each_kind_names_what_is_wrong(kind: object, value: object, problem: str | None) -> None:
    found = kind.problem(value)  # type: ignore[attr-defined]
    assert found == problem if problem is None else problem in (found or ""), found
