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


def test_the_token_dock_follows_the_turn_unless_pinned(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, "night_street")
    controller = win.controller
    controller.apply(Command("start_combat"))
    first = controller.state.combat.active
    assert first is not None
    assert controller.selected == first
    assert win.inspector.fields["Name"].text() == controller.state.token(first).name
    controller.apply(Command("end_turn"))
    second = controller.state.combat.active
    assert second not in (None, first)
    assert controller.selected == second
    assert win.inspector.fields["Name"].text() == controller.state.token(second).name
    win.inspector.pin_button.setChecked(True)  # the GM keeps an eye on this one
    controller.apply(Command("end_turn"))
    third = controller.state.combat.active
    assert third not in (None, second)
    assert controller.selected == third  # the palette and the map still follow the turn
    assert win.inspector.fields["Name"].text() == controller.state.token(second).name
    win.inspector.pin_button.setChecked(False)
    assert win.inspector.fields["Name"].text() == controller.state.token(third).name


def test_the_map_scrolls_to_an_acting_token_out_of_view(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, "compound")
    controller = win.controller
    controller.apply(Command("start_combat"))
    view = win.view
    view.scale(4, 4)
    following = controller.state.combat.order[1].token_id
    far = controller.state.combat.order[0].token_id
    view.centerOn(win.scene.token_items[far].sceneBoundingRect().center())
    item = win.scene.token_items[following]

    def seen() -> bool:
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        return shown.contains(item.sceneBoundingRect().center())

    if seen():  # the two start side by side: look elsewhere first
        view.centerOn(win.scene.map_rect.bottomRight())
    assert not seen()
    controller.apply(Command("end_turn"))
    assert controller.state.combat.active == following
    assert seen()
