"""Doors from the map: double-click toggles open/closed, right-click opens, closes or locks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from desktop.documents import load_document
from engine.battlemap import PortalState
from engine.routes import graph_for
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.tools.conftest import make_window, view_point
from tests.desktop.window_helpers import MAPS, grab_png

#: A popup menu on the offscreen plugin cannot grab the keyboard or raise itself: plugin noise.
pytestmark = pytest.mark.qt_log_ignore(
    *OFFSCREEN_NOISE,
    "This plugin does not support raise()",
    "This plugin does not support grabbing the keyboard",
)


@pytest.fixture
def warehouse(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    document = load_document(MAPS / "warehouse.killbox")
    return make_window(qtbot, tmp_path, document.state, document.images)


def door_state(win, portal_id: str) -> PortalState:  # type: ignore[no-untyped-def]
    return win.controller.state.battlemap.portal(portal_id).state


def middle(win, portal_id: str) -> QPoint:  # type: ignore[no-untyped-def]
    portal = win.controller.state.battlemap.portal(portal_id)
    centre = ((portal.start[0] + portal.end[0]) / 2, (portal.start[1] + portal.end[1]) / 2)
    return view_point(win.view, centre)


def double_click(qtbot, win, portal_id: str) -> None:  # type: ignore[no-untyped-def]
    point = middle(win, portal_id)
    qtbot.mouseMove(win.view.viewport(), point)
    qtbot.mouseDClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_double_click_opens_and_closes_a_door_each_one_undo_step(qtbot, warehouse) -> None:
    win = warehouse
    assert door_state(win, "door-office") is PortalState.CLOSED
    double_click(qtbot, win, "door-office")
    assert door_state(win, "door-office") is PortalState.OPEN
    assert win.controller.state.combat.log[-1].text == "The door door-office opens."
    # The movement graph follows the door (engine.routes keeps it in sync).
    graph = graph_for(win.controller.state)
    assert not graph.portals_block(("door-office",))
    assert win.scene.portal_items["door-office"].portal.state is PortalState.OPEN
    grab_png(win, "doors-office-open")
    double_click(qtbot, win, "door-office")
    assert door_state(win, "door-office") is PortalState.CLOSED
    win.undo()
    assert door_state(win, "door-office") is PortalState.OPEN


def test_a_locked_door_stays_shut_on_double_click(qtbot, warehouse) -> None:
    win = warehouse
    double_click(qtbot, win, "door-yard")
    assert door_state(win, "door-yard") is PortalState.LOCKED
    assert "locked" in win.statusBar().currentMessage()


def test_right_click_menu_locks_and_unlocks(qtbot, warehouse) -> None:
    win = warehouse
    point = middle(win, "door-south")
    shown: list[list[str]] = []

    def pick(label: str) -> None:
        def choose() -> None:
            menu = QApplication.activePopupWidget()
            if not isinstance(menu, QMenu):
                QTimer.singleShot(10, choose)
                return
            actions = {a.text(): a for a in menu.actions()}
            shown.append([a.text() for a in menu.actions() if a.isEnabled()])
            menu.close()
            actions[label].trigger()

        QTimer.singleShot(0, choose)

    def right_click() -> None:
        global_point = win.view.viewport().mapToGlobal(point)
        event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, global_point)
        assert event.type() is QEvent.Type.ContextMenu
        QApplication.sendEvent(win.view.viewport(), event)

    pick("Lock")
    right_click()
    assert shown[0] == ["Open", "Lock"]  # closed already: Close is greyed out
    assert door_state(win, "door-south") is PortalState.LOCKED
    assert win.controller.state.combat.log[-1].text == "The door door-south is locked."
    grab_png(win, "doors-south-locked")
    menu = win.portal_menu("door-south")  # the same menu, driven without a popup
    entries = {a.text(): a for a in menu.actions() if a.isEnabled()}
    assert list(entries) == ["Open", "Unlock (close)"]
    entries["Unlock (close)"].trigger()
    assert door_state(win, "door-south") is PortalState.CLOSED
