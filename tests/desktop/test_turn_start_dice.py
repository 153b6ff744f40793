"""The rolls a turn starts with (a Shaken token's Spirit roll, a dying soldier's d%) are
asked for when the GM rolls physical dice, as an action's are; Killbox rolls them otherwise.
A reshuffle of the Action Deck is card draws, never dice to type."""

from __future__ import annotations

import pytest

from desktop.dialogs.dice import DiceDialog, planned_rolls
from desktop.main_window import MainWindow
from engine.rules.base import Command
from engine.turns.combat import Phase
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import open_map
from tests.desktop.window_helpers import answer_next_dialog

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")


def started(qtbot, tmp_path, name: str, physical_dice: bool) -> MainWindow:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, name, physical_dice=physical_dice)
    answer_next_dialog(lambda dialog: dialog.roll_button.click())
    win.initiative.start_button.click()
    assert win.controller.state.combat.phase is Phase.ROUND
    return win


def next_in_order(win: MainWindow) -> str:
    combat = win.controller.state.combat
    waiting = [c.token_id for c in combat.order if not c.acted and c.token_id != combat.active]
    return waiting[0]


def labels(dialog: DiceDialog) -> list[str]:
    form = dialog.rolls_layout
    return [form.itemAt(row, form.ItemRole.LabelRole).widget().text()
            for row in range(form.rowCount())]


def shake_the_next(win: MainWindow) -> str:
    following = next_in_order(win)
    win.controller.apply(
        Command.build("gm_condition", targets=[following], condition="Shaken"))
    return following


def test_physical_dice_the_next_turns_spirit_roll_is_asked_for(qtbot, tmp_path) -> None:
    win = started(qtbot, tmp_path, "night_street", physical_dice=True)
    following = shake_the_next(win)
    name = win.controller.state.token(following).name
    dialogs: list = []

    def spirit(dialog) -> None:  # type: ignore[no-untyped-def]
        for box in dialog.face_boxes:
            box.setValue(6)
        dialog.typed_button.click()

    answer_next_dialog(spirit, dialogs)
    before = len(win.controller.state.combat.log)
    win.initiative.next_button.click()
    assert dialogs, "no dialog asked for the start-of-turn roll"
    rows = labels(dialogs[0])
    assert rows and all("Spirit to recover" in row for row in rows), rows
    assert win.controller.state.combat.active == following
    lines = [e.text for e in win.controller.state.combat.log[before:]]
    assert any(name in line and "Spirit" in line for line in lines), lines
    # The typed face is what the engine used: a Trait die of 6 at the least, so no more Shaken.
    assert not win.controller.state.token(following).has_condition("Shaken")


def test_rolling_for_the_gm_the_turn_starts_with_no_dialog(qtbot, tmp_path, monkeypatch) -> None:
    win = started(qtbot, tmp_path, "night_street", physical_dice=False)
    following = shake_the_next(win)
    monkeypatch.setattr(DiceDialog, "exec", lambda self: pytest.fail("a dice dialog opened"))
    win.initiative.next_button.click()
    assert win.controller.state.combat.active == following
    assert "Spirit" in "\n".join(e.text for e in win.controller.state.combat.log[-4:])


def test_a_dying_soldiers_d100_is_asked_for(qtbot, tmp_path) -> None:
    win = started(qtbot, tmp_path, "compound", physical_dice=True)
    following = next_in_order(win)
    controller = win.controller
    hp = controller.system.stat_block.number(controller.state.token(following), "hp")
    controller.apply(Command.build("gm_damage", targets=[following], amount=hp + 3))  # -3
    dialogs: list = []
    answer_next_dialog(lambda dialog: (dialog.face_boxes[0].setValue(7),
                                       dialog.typed_button.click()), dialogs)
    win.initiative.next_button.click()
    assert dialogs and any("stabilise" in row for row in labels(dialogs[0]))
    lines = [e.text for e in win.controller.state.combat.log]
    assert any("rolls 7 on d%" in line for line in lines), lines[-6:]


def test_a_reshuffle_is_never_listed_as_dice(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street", physical_dice=True)
    controller = win.controller
    first = controller.state.tokens[0].id
    # The Red Joker dealt: the whole deck is shuffled again when the round ends.
    controller.apply(Command.build("start_combat", cards={first: "RJ"}))
    for _ in range(40):
        combat = controller.state.combat
        if all(c.acted or c.token_id == combat.active for c in combat.order):
            break
        controller.apply(Command("end_turn"))
    rolls_before = controller.state.combat.rolls
    rows = planned_rolls(controller.system, controller.state, Command("end_turn"))
    assert not any("shuffl" in row.label for row in rows), [row.label for row in rows]
    controller.apply(Command("end_turn"))
    assert controller.state.combat.round == 2
    assert controller.state.combat.rolls - rolls_before >= 50  # the shuffle did draw
