"""engine.turns.journal: a journal replayed on its base state gives back the state and
its whole undo and redo history, in every system; damage is named, a torn last line is
the one record dropped."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.rules import system_names
from engine.rules.base import Command
from engine.turns.journal import (
    REDO,
    UNDO,
    CommandJournal,
    JournalError,
    apply_record,
    command_from_json,
    command_to_json,
    image_record,
    read_journal,
    replay,
)
from engine.turns.session import Encounter
from tests.engine.files.builders import png_bytes
from tests.engine.rules.test_conformance import candidates, small_encounter


def _journaled_game(name: str, path: Path, seed: int = 3) -> Encounter:
    """A random game with undo, redo, a grouped step, typed dice and a picture, journaled
    as the desktop journals it."""
    fight = Encounter(small_encounter(name), seed=seed)
    journal = CommandJournal(path)
    rng = random.Random(seed)

    def applied(command: Command, dice: list[int] | None, depth: int) -> None:
        journal.append(apply_record(command, dice, fight.undo_depth == depth, fight))

    depth = fight.undo_depth
    fight.apply(Command("start_combat"), [7, 3])
    applied(Command("start_combat"), [7, 3], depth)
    picture = png_bytes((3, 3), "teal")
    journal.append(image_record(fight.add_image(picture, "crate"), "crate", picture))
    for step in range(40):
        depth = fight.undo_depth
        if step % 9 == 4 and fight.can_undo:
            fight.undo()
            journal.append(UNDO)
        elif step % 9 == 5 and fight.can_redo:
            fight.redo()
            journal.append(REDO)
        elif step % 13 == 7:
            with fight.step():  # two commands, one undo step (a drag)
                for _ in range(2):
                    depth = fight.undo_depth
                    command = play_step(fight, rng)
                    applied(command, None, depth)
        else:
            command = play_step(fight, rng)
            applied(command, None, depth)
    journal.close()
    return fight


def play_step(fight: Encounter, rng: random.Random) -> Command:
    """One random legal command, applied."""
    options = candidates(fight)
    rng.shuffle(options)
    command = next(c for c in options if fight.preview(c).legal)
    fight.apply(command)
    return command


def _history(fight: Encounter) -> tuple[list[object], list[object]]:
    """Every state undo reaches, then every state redo reaches (the fight is put back)."""
    back = [fight.state]
    while fight.can_undo:
        back.append(fight.undo())
    forward = []
    while fight.can_redo:
        forward.append(fight.redo())
    return back, forward


@pytest.mark.parametrize("name", system_names())
def test_a_replayed_journal_gives_back_the_state_and_the_undo_history(
    name: str, tmp_path: Path
) -> None:
    path = tmp_path / "journal.jsonl"
    played = _journaled_game(name, path)
    restored = Encounter(small_encounter(name), seed=3)
    count = replay(restored, read_journal(path))
    assert count == len(path.read_text().splitlines())
    assert restored.state == played.state
    assert restored.undo_depth == played.undo_depth
    assert restored.images == played.images
    assert _history(restored) == _history(played)


def test_a_line_a_crash_cut_short_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    played = _journaled_game("spycraft", path)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"op": "apply", "comm')
    assert len(read_journal(path)) == len(whole.splitlines())
    restored = Encounter(small_encounter("spycraft"), seed=3)
    replay(restored, read_journal(path))
    assert restored.state == played.state


def test_a_damaged_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    _journaled_game("spycraft", path)
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2][:10] + b"\xff" + lines[2][11:]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match="line 3 is damaged"):
        read_journal(path)


def test_a_replay_that_goes_another_way_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    _journaled_game("spycraft", path)
    records = read_journal(path)
    first_apply = next(r for r in records if r["op"] == "apply")
    first_apply["rolls"] += 1
    with pytest.raises(JournalError, match="went another way"):
        replay(Encounter(small_encounter("spycraft"), seed=3), records)


def test_each_append_is_on_disk_before_it_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.turns.journal as module

    synced: list[bytes] = []
    path = tmp_path / "journal.jsonl"
    monkeypatch.setattr(module.os, "fsync", lambda fd: synced.append(path.read_bytes()))
    journal = CommandJournal(path)
    journal.append(UNDO)
    journal.append(REDO)
    assert synced == [b'{"op":"undo"}\n', b'{"op":"undo"}\n{"op":"redo"}\n']


def test_commands_round_trip_through_json() -> None:
    command = Command.build(
        "strafe", "kevin", targets=["a"], squares=[(3, 4)], weapon="SMG",
        steady=True, rounds=3, label="x", range=1.5,
    )
    assert command_from_json(json.loads(json.dumps(command_to_json(command)))) == command


@pytest.mark.parametrize(
    "data",
    [42, {}, {"action": 3}, {"action": "m", "squares": [["1", 2]]},
     {"action": "m", "options": [["a", [1]]]}, {"action": "m", "targets": [None]}],
)
def test_a_record_that_is_not_a_command_is_refused(data: object) -> None:
    with pytest.raises(JournalError, match="not a command"):
        command_from_json(data)
