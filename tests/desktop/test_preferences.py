"""The dice preference: Killbox rolls by default (no dialog, the faces in the log), or the GM
rolls physical dice and types the faces; Edit > Preferences… and a check entry set it, and
it is kept between runs."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QSettings

from desktop.dialogs.dice import DiceDialog
from desktop.fight import act
from desktop.main_window import MainWindow
from desktop.preferences import ROLL_FOR_ME, PreferencesDialog
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import open_map
from tests.desktop.window_helpers import answer_next_dialog

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")


def started(qtbot, tmp_path, name: str, physical_dice: bool | None) -> MainWindow:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, name, physical_dice=physical_dice)
    answer_next_dialog(lambda dialog: dialog.roll_button.click())
    win.initiative.start_button.click()
    assert win.controller.state.combat.active is not None
    return win


def rolled_command(win: MainWindow) -> Command:
    controller = win.controller
    active = controller.state.combat.active or ""
    return next(
        command
        for command in controller.session.example_commands(active)
        if controller.preview(command).legal and controller.preview(command).rolls
    )


@pytest.mark.parametrize("name", ["warehouse", "compound"])
def test_by_default_killbox_rolls_at_once_and_the_log_shows_the_faces(
    qtbot, tmp_path, monkeypatch, name: str
) -> None:
    win = started(qtbot, tmp_path, name, physical_dice=None)  # a GM who chose nothing
    assert win.menu_actions["roll_for_me"].isChecked()
    monkeypatch.setattr(DiceDialog, "exec", lambda self: pytest.fail("a dice dialog opened"))
    before = win.controller.state
    logged = len(before.combat.log)
    assert act(win, win.controller, rolled_command(win))
    lines = [entry.text for entry in win.controller.state.combat.log[logged:]]
    # The d20's face and the total, in words a GM reads ("1d20 (13) + 5 = 18").
    assert any(re.search(r"\[1d20 \(\d+\)( [+-] \d+)? = -?\d+\]", line) for line in lines), lines
    assert win.controller.state != before
    win.undo()
    assert win.controller.state == before  # one undo takes the rolled action back whole


def test_preferences_page_sets_physical_dice_and_it_is_kept(qtbot, tmp_path) -> None:
    win = started(qtbot, tmp_path, "warehouse", physical_dice=None)

    def physical(dialog) -> None:  # type: ignore[no-untyped-def]
        assert isinstance(dialog, PreferencesDialog)
        assert dialog.roll_choice.isChecked()
        dialog.physical_choice.setChecked(True)
        dialog.accept()

    answer_next_dialog(physical)
    win.menu_actions["preferences"].trigger()
    assert win.controller.physical_dice
    assert not win.menu_actions["roll_for_me"].isChecked()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert settings.value(ROLL_FOR_ME) in (False, "false")
    dialogs: list = []
    answer_next_dialog(lambda dialog: dialog.typed_button.click(), dialogs)
    act(win, win.controller, rolled_command(win))
    assert dialogs and isinstance(dialogs[0], DiceDialog)
    assert dialogs[0].typed_button.isDefault()  # Enter applies the faces typed
    win.close()
    again = open_map(qtbot, tmp_path, "warehouse", physical_dice=None)  # the same settings
    assert again.controller.physical_dice
    assert not again.menu_actions["roll_for_me"].isChecked()


def test_the_menu_check_switches_the_mode(qtbot, tmp_path) -> None:
    win = open_map(qtbot, tmp_path, "night_street", physical_dice=None)
    check = win.menu_actions["roll_for_me"]
    assert check.isCheckable() and check.text() == "Roll dice for me"
    check.trigger()
    assert win.controller.physical_dice and win.settings.value(ROLL_FOR_ME) in (False, "false")
    check.trigger()
    assert not win.controller.physical_dice
    assert win.settings.value(ROLL_FOR_ME) in (True, "true")
