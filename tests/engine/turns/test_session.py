"""engine.turns.session: apply, undo/redo as a stack of states, drags as one step, the log."""

from pathlib import Path

import pytest

from engine import limits
from engine.rules.base import IllegalCommand
from engine.tokens import Side
from engine.turns.session import Encounter, NothingToUndo
from tests.engine.rules.spycraft.builders import agent, cmd, started, state


def two() -> Encounter:
    return started(
        agent("kevin", 1, 1, initiative=5), agent("guard", 6, 1, Side.ENEMY), rolls=[20, 3]
    )


def test_undo_goes_back_to_the_very_first_state() -> None:
    fight = Encounter(state(agent("kevin", 1, 1), agent("guard", 6, 1, Side.ENEMY)), seed=4)
    first = fight.state
    fight.apply(cmd("start_combat"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("place", "kevin", squares=[(2, 2)]))
    fight.undo_all()
    assert fight.state == first
    assert not fight.can_undo and fight.can_redo


def test_redo_replays_and_a_new_command_clears_redo() -> None:
    fight = two()
    fight.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    after = fight.state
    fight.undo()
    fight.redo()
    assert fight.state == after
    fight.undo()
    fight.apply(cmd("standard_move", "kevin", squares=[(1, 2)]))
    assert not fight.can_redo
    with pytest.raises(NothingToUndo):
        fight.redo()


def test_a_drag_is_one_undo_step() -> None:
    fight = two()
    before = fight.state
    with fight.step():
        for x in (2, 3, 4):
            fight.apply(cmd("place", "kevin", squares=[(x, 1)]))
    assert fight.state.token("kevin").square == (4, 1)
    fight.undo()
    assert fight.state == before


def test_illegal_apply_raises_and_changes_nothing() -> None:
    fight = two()
    before = fight.state
    with pytest.raises(IllegalCommand, match="not Guard"):
        fight.apply(cmd("standard_move", "guard", squares=[(6, 2)]))
    assert fight.state == before


def test_preview_changes_nothing_and_agrees_with_apply() -> None:
    fight = two()
    before = fight.state
    good = fight.preview(cmd("standard_move", "kevin", squares=[(2, 1)]))
    bad = fight.preview(cmd("standard_move", "kevin", squares=[(9, 9)]))
    assert fight.state == before
    assert good.legal and not good.reasons
    assert not bad.legal and "jumps" in bad.reasons[0]


def test_replay_with_the_same_seed_gives_the_same_log() -> None:
    def play() -> tuple[str, ...]:
        fight = Encounter(state(agent("kevin", 1, 1), agent("guard", 3, 1, Side.ENEMY)), seed=11)
        fight.apply(cmd("start_combat"))
        for _ in range(4):
            active = fight.state.combat.active
            assert active is not None
            other = "guard" if active == "kevin" else "kevin"
            fight.apply(cmd("standard_attack", active, targets=[other], weapon="pistol"))
            fight.apply(cmd("end_turn"))
        return tuple(entry.text for entry in fight.log)

    assert play() == play()


def test_typed_rolls_are_used_in_order() -> None:
    fight = two()
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"), [8, 5])
    texts = [e.text for e in fight.log]
    assert any("attacks Guard: 11 against Defense" in t for t in texts)
    assert fight.state.token("guard").stats["vitality"] == 20  # 8 + 3 = 11 misses Defense 12


def test_the_log_reads_as_sentences() -> None:
    fight = two()
    fight.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    assert "Kevin moves to (2,1) (5 ft)." in [e.text for e in fight.log]


# ---- the history shares one log


def _play_commands(fight: Encounter, commands: int) -> None:
    """End turns, every other one after a point of damage to whoever acts."""
    for step in range(commands):
        active = fight.state.combat.active
        command = cmd("end_turn")
        if step % 2 and active is not None:
            command = cmd("gm_damage", targets=[active], amount=1)
            if not fight.preview(command).legal:
                command = cmd("end_turn")
        fight.apply(command)


def _memory_per_command(fight: Encounter, commands: int) -> float:
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    _play_commands(fight, commands)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    return used / commands


def test_undo_history_grows_by_a_bounded_amount_per_command() -> None:
    """A state on the undo stack no longer holds its own copy of the whole log: the
    memory per command late in a long fight is what it was early on (a copy per state
    made it grow with the log, about 8 bytes per log line per command)."""
    fight = two()
    early = _memory_per_command(fight, 300)
    _play_commands(fight, 900)  # the log grows; tracing it would only slow the test
    late = _memory_per_command(fight, 300)
    assert len(fight.log) > 1500
    assert late < early * 1.5


def test_undo_and_redo_give_back_each_state_with_its_log() -> None:
    fight = two()
    seen = [fight.state]
    for step in range(12):
        fight.apply(cmd("end_turn"))
        if step == 5:
            fight.undo()
            fight.undo()
            seen = seen[:-1]  # back to the state before the last one shown
            fight.apply(cmd("end_turn"))  # play goes another way
        seen.append(fight.state)
    for expected in reversed(seen[:-1]):
        assert fight.undo() == expected
    for expected in seen[1:]:
        assert fight.redo() == expected


def test_a_joined_command_is_part_of_the_last_undo_step() -> None:
    fight = two()
    before, depth = fight.state, fight.undo_depth
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"), join=True)
    assert fight.undo_depth == depth + 1
    assert fight.undo() == before


def test_the_log_drops_its_oldest_lines_before_a_file_could_not_hold_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A file keeps at most MAX_LOG_ENTRIES lines: a longer log would make the fight
    impossible to save (or autosave) with nothing the GM could change."""
    monkeypatch.setattr(limits, "MAX_LOG_ENTRIES", 40)
    fight = two()
    written = len(fight.state.combat.log)
    for _ in range(60):
        written += len(fight.apply(cmd("end_turn")))
        assert len(fight.state.combat.log) <= 40
    assert written > 80
    newest = fight.state.combat.log[-1]
    fight.save(tmp_path / "long.killbox")
    assert Encounter.open(tmp_path / "long.killbox").state.combat.log[-1] == newest
