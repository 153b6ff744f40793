"""Doors from the map: double-click toggles open/closed, right-click opens, closes or locks."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from desktop.documents import load_document
from desktop.tools.base import square_at
from engine.battlemap import PortalKind, PortalState
from engine.grid import Square
from engine.routes import graph_for
from engine.rules.base import Command
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
    assert win.controller.state.combat.log[-1].text == "The door between (6,4) and (7,4) opens."
    # The movement graph follows the door (engine.routes keeps it in sync).
    graph = graph_for(win.controller.state, difficult_cost=2)
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
    # Closed already: Close is greyed out; a right click anywhere may also ping the square.
    # The door's middle is on a square edge: which side the click lands on depends on the zoom.
    square = square_at(win.view.mapToScene(point))
    assert square in ((4, 20), (4, 21))
    assert shown[0] == ["Open", "Lock", f"Ping this square {square} (P)"]
    assert door_state(win, "door-south") is PortalState.LOCKED
    locked = "The door between (4,20) and (4,21) is locked."
    assert win.controller.state.combat.log[-1].text == locked
    grab_png(win, "doors-south-locked")
    menu = win.portal_menu("door-south")  # the same menu, driven without a popup
    entries = {a.text(): a for a in menu.actions() if a.isEnabled()}
    assert list(entries) == ["Open", "Unlock (close)"]
    entries["Unlock (close)"].trigger()
    assert door_state(win, "door-south") is PortalState.CLOSED


def test_the_log_and_the_door_menu_name_no_ids(qtbot, warehouse) -> None:  # type: ignore[no-untyped-def]
    """People read the log: doors, windows and tokens by words, never by their file ids."""
    from desktop.fight import start_combat

    win = warehouse
    for portal_id in ("door-office", "window-office", "door-south"):
        double_click(qtbot, win, portal_id)
    start_combat(win, win.controller)
    state = win.controller.state
    ids = [p.id for p in state.battlemap.portals] + [t.id for t in state.tokens]
    ids += [c.id for c in state.battlemap.cover]
    shown = [win.log.list.item(row).text() for row in range(win.log.list.count())]
    assert any("door between" in line for line in shown), shown
    for line in shown:
        for name in sorted({t.name for t in state.tokens}, key=len, reverse=True):
            line = line.replace(name, "")  # an id may be a word of a name ("foreman")
        assert not [i for i in ids if re.search(rf"\b{re.escape(i)}\b", line)], line
    menu = win.portal_menu("door-yard")
    assert "door-yard" not in menu.title() and menu.title().startswith("Door between")


def click(qtbot, win, portal_id: str, button=Qt.MouseButton.LeftButton) -> None:  # type: ignore[no-untyped-def]
    point = middle(win, portal_id)
    qtbot.mouseMove(win.view.viewport(), point)
    qtbot.mouseClick(win.view.viewport(), button, pos=point)


def test_a_click_on_a_door_button_opens_it_and_sight_and_routes_follow(qtbot, warehouse) -> None:
    """Foundry VTT's door control: one click on the door's button opens or closes it, one
    undo step; the players' fog and the movement graph follow the door."""
    win = warehouse
    button = win.scene.door_buttons["door-office"]
    assert button.isVisible()  # the select tool is the window's tool
    assert "click to open" in button.toolTip().lower()
    player = win.show_player_view()
    seen_shut = player.scene.seen
    assert not player.scene.door_buttons  # the players get no buttons
    click(qtbot, win, "door-office")
    assert door_state(win, "door-office") is PortalState.OPEN
    assert win.statusBar().currentMessage() == "The door between (6,4) and (7,4) opens."
    assert "click to close" in button.toolTip().lower()
    assert not graph_for(win.controller.state, difficult_cost=2).portals_block(("door-office",))
    assert seen_shut is not None and player.scene.seen is not None
    assert player.scene.seen > seen_shut  # Keyes in the office now sees out of the door
    grab_png(win, "doors-button-office-open")
    win.undo()
    assert door_state(win, "door-office") is PortalState.CLOSED
    assert player.scene.seen == seen_shut
    player.close()


def test_a_door_button_wins_over_the_token_in_the_doorway(qtbot, warehouse) -> None:
    """A token standing beside the door does not hide its button: the click opens the door
    and leaves the token where it stands."""
    win = warehouse
    keyes = next(t for t in win.controller.state.tokens if t.name == "Reyes")
    win.controller.apply(Command("place", keyes.id, squares=(Square(6, 4),)))
    win.view.zoom_by(2.0)  # the token's disc reaches the button's edge
    point = middle(win, "door-office") - QPoint(8, 0)  # the button's edge, over the token
    scene_point = win.view.mapToScene(point)
    assert win.scene.token_item_at(scene_point) is not None
    assert win.scene.door_button_at(scene_point, win.view.transform()) is not None
    before = win.controller.state.token(keyes.id).square
    qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert door_state(win, "door-office") is PortalState.OPEN
    assert win.controller.state.token(keyes.id).square == before


def test_a_double_click_on_a_door_button_toggles_once(qtbot, warehouse) -> None:
    """The press of a double click toggles; its second click does not toggle back."""
    win = warehouse
    point = middle(win, "door-office")
    viewport = win.view.viewport()
    qtbot.mouseMove(viewport, point)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=point)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=point)
    assert door_state(win, "door-office") is PortalState.OPEN


def test_a_locked_door_button_stays_shut_and_other_tools_hide_the_buttons(
    qtbot, warehouse
) -> None:
    win = warehouse
    click(qtbot, win, "door-yard")
    assert door_state(win, "door-yard") is PortalState.LOCKED
    assert "locked" in win.statusBar().currentMessage()
    assert "Right-click to unlock" in win.scene.door_buttons["door-yard"].toolTip()
    from desktop.tools.ruler_tool import RulerTool

    win.view.set_tool(RulerTool(win.host))
    assert not any(b.isVisible() for b in win.scene.door_buttons.values())
    click(qtbot, win, "door-office")  # the ruler measures; the door stays as it was
    assert door_state(win, "door-office") is PortalState.CLOSED
    win.view.set_tool(win.default_tool)
    assert all(b.isVisible() for b in win.scene.door_buttons.values())


def test_doors_have_buttons_windows_do_not(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The office floor's dozens of windows would bury its doors' buttons."""
    document = load_document(MAPS / "office_floor.killbox")
    win = make_window(qtbot, tmp_path, document.state, document.images)
    portals = win.controller.state.battlemap.portals
    doors = {p.id for p in portals if p.kind is PortalKind.DOOR}
    assert doors and len(doors) < len(portals)
    assert set(win.scene.door_buttons) == doors
