"""One Escape leaves an aimed action, also from the dice dialog its Confirm opens."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from desktop.dialogs.dice import DiceDialog
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.desktop.window_helpers import answer_next_dialog
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_escape_in_the_dice_dialog_leaves_the_action(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Enter opened the dice dialog; Escape there closed it but left the action aimed (its
    card still read "Escape cancels"), so a GM pressed Escape twice to leave it."""
    setup = legal_setup("spycraft", "standard_attack")
    win = make_window(qtbot, tmp_path, setup.state, ask_dice=True, physical_dice=True)
    before = win.controller.state
    spec = win.controller.system.action("standard_attack")
    tool = win.start_action(str(setup.command.actor), spec, setup.command.targets,
                            setup.command.weapon)
    assert tool.ready, tool.preview.reasons if tool.preview else None
    seen: list[QDialog] = []
    answer_next_dialog(lambda dialog: qtbot.keyClick(dialog, Qt.Key.Key_Escape), seen)
    qtbot.keyClick(win.view, Qt.Key.Key_Return)
    assert seen and isinstance(seen[0], DiceDialog)
    assert win.view.tool is win.default_tool
    assert not win.action_palette.targeting.isVisible()
    assert win.controller.state is before
    assert "cancelled" in win.statusBar().currentMessage()
