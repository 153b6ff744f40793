"""The window follows the fight: the tracker comes forward when combat starts, and the
selection, the Token dock and the map follow the acting token unless the GM pinned one."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from desktop.main_window import MainWindow
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import open_map

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]


def in_front(win: MainWindow, title: str) -> bool:
    """A dock the GM can see: shown and not behind another dock's tab."""
    return not win.docks[title].widget().visibleRegion().isEmpty()


def test_starting_combat_brings_the_tracker_and_actions_before_the_roster(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, "warehouse")
    win.docks["Roster"].raise_()
    QApplication.processEvents()
    assert in_front(win, "Roster") and not in_front(win, "Actions")
    win.controller.apply(Command("start_combat"))
    QApplication.processEvents()
    assert in_front(win, "Actions") and in_front(win, "Initiative")
    assert not in_front(win, "Roster")
