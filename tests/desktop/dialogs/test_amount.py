"""The GM's damage or healing amount: what it would do, shown whole however long it gets."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from desktop.dialogs.amount import AmountDialog
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
