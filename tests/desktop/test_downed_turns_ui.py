"""The GM sees why a turn was skipped: the log shows the engine's line, and End turn says
Next round when nobody in the round can act."""

from __future__ import annotations

import pytest

from desktop.main_window import MainWindow
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import click, open_map, roll
from tests.desktop.window_helpers import answer_next_dialog

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")


def started(qtbot, tmp_path) -> MainWindow:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, "warehouse")
    answer_next_dialog(roll)
    click(qtbot, win.initiative.start_button)
    return win


def logged(win: MainWindow, line: str) -> bool:
    """Whether the log dock shows ``line`` (after its round mark, "R2 ")."""
    shown = [win.log.list.item(row).text() for row in range(win.log.list.count())]
    return any(text.endswith(f" {line}") for text in shown)


def test_the_log_says_an_unconscious_token_s_turn_was_skipped(qtbot, tmp_path) -> None:
    win = started(qtbot, tmp_path)
    combat = win.controller.state.combat
    order = [c.token_id for c in combat.order]
    following = order[order.index(str(combat.active)) + 1]
    name = win.controller.state.token(following).name
    win.controller.apply(Command.build("gm_knock_out", targets=[following]))
    click(qtbot, win.initiative.next_button)
    assert logged(win, f"{name} is unconscious; turn skipped.")
    assert win.controller.state.combat.active != following


def test_with_nobody_able_to_act_end_turn_becomes_next_round(qtbot, tmp_path) -> None:
    win = started(qtbot, tmp_path)
    for token in win.controller.state.tokens:
        win.controller.apply(Command.build("gm_knock_out", targets=[token.id]))
    click(qtbot, win.initiative.next_button)
    round_number = win.controller.state.combat.round
    assert win.controller.state.combat.active is None
    assert logged(win, f"Nobody else can act in round {round_number}.")
    assert win.initiative.next_button.isEnabled()
    assert win.initiative.next_button.text() == "Next round"
    click(qtbot, win.initiative.next_button)
    assert win.controller.state.combat.round == round_number + 1
