"""Undo and redo say in the status bar what they took back or brought back, in the combat
log's words: undoing a shot once said nothing, and the GM had to read the log to know which
step went (an attack, or only the turn's end?)."""

from __future__ import annotations

from desktop.step_words import step_words
from engine.rules.base import Command
from engine.turns.combat import LogEntry
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import make_window


def test_undo_and_redo_name_the_step_in_the_logs_words(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, sample_state())
    before = win.controller.state.combat.log
    win.controller.apply(Command("start_combat"))
    added = win.controller.state.combat.log[len(before):]
    assert len(added) > 2
    words = f"{added[0].text} (+{len(added) - 1} more lines)"
    win.undo()
    assert win.controller.state.combat.log == before
    assert win.statusBar().currentMessage() == f"Undone: {words}"
    win.redo()
    assert win.statusBar().currentMessage() == f"Redone: {words}"


def test_a_step_that_wrote_no_line_is_the_last_step() -> None:
    one = LogEntry(1, "note", "Kara moves to (3,4).")
    two = LogEntry(1, "note", "Kara is Prone.")
    assert step_words("Undone", (one,), (one,)) == "Undone: the last step"
    assert step_words("Undone", (one, two), (one,)) == "Undone: Kara is Prone."
    assert step_words("Undone", (one, two), ()) == "Undone: Kara moves to (3,4). (+1 more line)"
