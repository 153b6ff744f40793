"""Autosave journals written before the editing commands took typed options still restore.

``journal_with_text_options.jsonl`` was written by the engine of commit f865e2f (the last
one whose editing commands took text): points as ``"x,y x,y"``, a token, stats and weapons
as JSON inside strings, names and ids holding commas, quotes, ``=``, ``|`` and unicode. It
starts from ``room()`` of the editing tests and ends with an undo.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules.base import Command
from engine.turns.journal import (
    JournalError,
    command_from_json,
    command_to_json,
    read_journal,
    replay,
)
from engine.turns.session import Encounter
from tests.engine.rules.test_editing import room
from tests.engine.rules.test_typed_edit_options import ACE, COLT, UZI, awkward_token

OLD = Path(__file__).with_name("journal_with_text_options.jsonl")


def typed_commands() -> list[Command]:
    """What the old journal's commands are in today's typed form."""
    build = Command.build
    return [
        build("add_wall", points=[(0, 6), (3, 6), (3, 8)], blocks="sight"),
        build("move_wall_point", at=(3, 8), to=(4, 8)),
        build("add_portal", points=[(5, 1), (5, 2)], kind="window", id='win, "north"=|'),
        build("set_terrain", rect=[(6, 6), (7, 7)], kind="difficult", name="mud, deep"),
        build("add_cover", rect=[(8, 6), (8, 6)], name='crate "A", =|', id="crate, 1"),
        build("add_cover", points=[(1, 4), (3, 4), (2, 5)], grade="light"),
        build("add_light", at=(8.5, 1.5), range=3.0),
        build("remove_light", at=(2.6, 2.4)),
        build("set_fog", rect=[(0, 0), (1, 1)], mode="reveal"),
        build("add_token", token=awkward_token()),
        build("edit_token", targets=[ACE], stats={"defense": 15}, weapons=[COLT, UZI]),
        build("duplicate_token", targets=[ACE], id=f"{ACE} 2"),
        build("remove_wall", points=[(5, 5), (5, 8)]),
        build("remove_cover", cover="crate, 1"),
    ]


def test_a_journal_with_the_old_text_options_replays_to_the_same_fight_and_history() -> None:
    old = Encounter(room().state)
    records = read_journal(OLD)
    assert replay(old, records) == 15
    today = Encounter(room().state)
    for command in typed_commands():
        today.apply(command)
    today.undo()
    assert old.state == today.state
    while today.can_redo:  # the undone step is there to redo, as it was
        assert old.redo() == today.redo()
    while today.can_undo:
        assert old.undo() == today.undo()


def test_the_old_text_forms_are_read_as_the_typed_values_and_written_typed_again() -> None:
    records = [r for r in read_journal(OLD) if r["op"] == "apply"]
    system = room().system
    for record, typed in zip(records, typed_commands(), strict=True):
        command = command_from_json(record["command"], system)
        assert command == typed, record["command"]["action"]
        written = json.loads(json.dumps(command_to_json(command)))
        assert command_from_json(written, system) == command
        for name, value in written["options"]:  # no list, place or record left in text
            if name in {"points", "rect", "at", "to", "stats", "weapons", "token"}:
                assert not isinstance(value, str), (name, value)


@pytest.mark.parametrize(("action", "name", "text"), [
    ("add_wall", "points", "1,1 a,b"),
    ("add_light", "at", "1,1 2,2"),
    ("edit_token", "stats", "{bad"),
    ("edit_token", "weapons", '[{"damage": "1d6"}]'),
    ("add_token", "token", '{"id": "x"}'),
])
def test_a_text_option_that_was_never_valid_is_named_on_load(
    action: str, name: str, text: str
) -> None:
    with pytest.raises(JournalError, match=f"option '{name}'"):
        command_from_json({"action": action, "options": [[name, text]]})
