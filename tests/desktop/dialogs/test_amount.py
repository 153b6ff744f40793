"""The GM's damage or healing amount: what it would do, shown whole however long it gets."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from desktop.dialogs.amount import AmountDialog
from engine.dice import roll_once
from tests.desktop.conftest import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)


def test_the_outcome_is_shown_whole_when_a_bigger_amount_says_more(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Sized for the one line of 1 damage, the dialog cut off the lines a bigger amount
    brought (the wound, the knock-out)."""

    def foresee(amount: int) -> list[str]:
        said = [f"Boone (militia leader) takes {amount} damage ({30 - amount} hit points left)."]
        if amount > 30:
            said += ["Boone (militia leader) is Disabled.", "Boone (militia leader) is Dying."] * 2
        return said

    dialog = AmountDialog(None, "Boone: Damage", "Damage:", foresee)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    short = dialog.outcome.height()
    dialog.set_value(35)
    label = dialog.outcome
    assert label.text().count("\n") == 4
    assert label.height() >= label.heightForWidth(label.width()) > short
    assert dialog.value() == 35


def test_ok_stays_under_the_pointer_while_the_outcome_grows_and_shrinks(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Typing 12 brought the knock-out line, the dialog grew and OK slid down from under
    the pointer: the GM's click missed it. OK now keeps its place for the usual outcome."""

    def foresee(amount: int) -> list[str]:
        said = ["GM deals it.", f"Harlan takes {amount} damage ({11 - amount} hit points left)."]
        return [*said, "Harlan is Mortally Wounded."] if amount >= 11 else said

    dialog = AmountDialog(None, "Harlan: Damage", "Damage:", foresee)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    where = ok.mapTo(dialog, ok.rect().center())
    for amount in (12, 1, 12):
        dialog.set_value(amount)
        qtbot.wait(10)
        assert ok.mapTo(dialog, ok.rect().center()) == where, amount


def _damage_dialog(qtbot, roll_dice=None) -> AmountDialog:  # type: ignore[no-untyped-def]
    def foresee(amount: int) -> list[str]:
        return [f"Rook takes {amount} damage."]

    dialog = AmountDialog(None, "Rook: Damage", "Damage:", foresee, roll_dice=roll_dice)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_a_typed_dice_expression_rolls_the_amount_and_enter_does_not_accept(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The playtest GM from Foundry rolled a grenade's 3d6 elsewhere and typed the total:
    the dialog now rolls it, shows the faces, and its Enter rolls rather than pressing OK."""
    faces = random.Random(5)
    dialog = _damage_dialog(qtbot, lambda expression: roll_once(expression, "damage", faces))
    expected = roll_once("3d6+2", "damage", random.Random(5))
    dialog.dice_box.setFocus()
    qtbot.keyClicks(dialog.dice_box, "3d6+2")
    qtbot.keyClick(dialog.dice_box, Qt.Key.Key_Return)
    assert dialog.isVisible(), "Enter in the Roll box pressed OK"
    assert dialog.value() == expected.total
    assert dialog.rolled.text() == f"Rolled {expected.detail}"
    assert "3d6 (" in dialog.rolled.text()
    assert dialog.outcome.text() == f"Rook takes {expected.total} damage."


def test_a_bad_expression_says_so_and_keeps_the_amount(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = _damage_dialog(qtbot)
    dialog.set_value(7)
    dialog.dice_box.setText("3q6")
    dialog.roll()
    assert dialog.rolled.text().startswith("Not rolled: cannot roll '3q6'")
    assert dialog.value() == 7
