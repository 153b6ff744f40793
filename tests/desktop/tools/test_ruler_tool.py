"""The ruler: drag to measure, Space adds waypoints, legs and total in the system's units."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.scene.overlay_items import RouteItem, centre
from desktop.scene.preview_overlay import ROUTE_COLOURS, draw_overlay
from desktop.tools.ruler_tool import RulerTool
from engine.grid import Square
from engine.measure import measure
from engine.overlay import Tone
from tests.desktop.tools.conftest import TOOL_NOISE, painted, render_png, view_point

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def _ruler(win):  # type: ignore[no-untyped-def]
    win.menu_actions["tool_ruler"].trigger()
    tool = win.view.tool
    assert isinstance(tool, RulerTool)
    return tool


def test_drag_with_a_space_waypoint_measures_each_leg_and_the_total(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    tool = _ruler(win)
    viewport = win.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (1.5, 1.5)))
    qtbot.mouseMove(viewport, view_point(win.view, (3.5, 3.5)))
    qtbot.keyPress(viewport, Qt.Key.Key_Space)  # a waypoint at (3,3), not a pan
    qtbot.mouseMove(viewport, view_point(win.view, (3.5, 6.5)))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (3.5, 6.5)))
    assert tool.route == [Square(1, 1), Square(3, 3), Square(3, 6)]
    assert not tool.measuring  # released: the ruler stays drawn
    # Spycraft: 5 ft squares, alternating diagonals (1 + 2), then 3 straight.
    assert [tag.text for tag in tool.tags] == [
        "3 squares, 15 ft",
        "3 squares, 15 ft\ntotal 6 squares, 30 ft",
    ]
    assert "6 squares, 30 ft" in win.statusBar().currentMessage()
    render_png(win, "ruler_waypoints")
    tags = tool.tags
    win.cancel_tool()  # Escape: back to the default tool, nothing left on the map
    assert win.view.tool is win.default_tool
    assert tool.tags == [] and not tool.overlay.childItems()
    assert all(tag.scene() is None for tag in tags)


def test_click_by_click_with_backspace_and_enter(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    tool = _ruler(win)
    viewport = win.view.viewport()
    for point in ((1.5, 1.5), (5.5, 1.5), (5.5, 4.5)):
        qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, point))
    assert tool.waypoints == [Square(1, 1), Square(5, 1), Square(5, 4)]
    qtbot.keyPress(viewport, Qt.Key.Key_Backspace)
    assert tool.waypoints == [Square(1, 1), Square(5, 1)]
    qtbot.mouseMove(viewport, view_point(win.view, (5.5, 2.5)))
    qtbot.keyPress(viewport, Qt.Key.Key_Return)
    assert not tool.measuring
    assert tool.measurement is not None and tool.measurement.squares == 5


def test_savage_worlds_measures_in_inches_with_yards(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("savage-worlds")
    tool = _ruler(win)
    viewport = win.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (1.5, 1.5)))
    qtbot.mouseMove(viewport, view_point(win.view, (4.5, 3.5)))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (4.5, 3.5)))
    assert [tag.text for tag in tool.tags] == ['3 squares, 3" (6 yd)']


def test_the_ruler_draws_exactly_the_engines_measurement(qtbot, spy_window):  # type: ignore[no-untyped-def]
    """From the Boss (a 2x2 token) round a waypoint: the tool draws the measurement's overlay
    through the shared painter, item for item, and the line stays on the squares measured
    (a tape measure is not the Boss's walk, so it is not moved to the token's centre)."""
    win = spy_window
    tool = _ruler(win)
    viewport = win.view.viewport()
    boss = win.controller.state.token("boss").square
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (13.5, 6.5)))
    qtbot.mouseMove(viewport, view_point(win.view, (13.5, 2.5)))
    qtbot.keyPress(viewport, Qt.Key.Key_Space)
    qtbot.mouseMove(viewport, view_point(win.view, (9.5, 2.5)))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (9.5, 2.5)))
    state = win.controller.state
    route = [boss, Square(13, 2), Square(9, 2)]
    expected = measure(route, state.scale).overlay
    assert tool.measurement is not None and tool.measurement.overlay == expected
    (line,) = expected.routes
    assert line.squares == tuple(route) and line.tone is Tone.INFO
    assert [note.text for note in expected.notes] == [
        "4 squares, 20 ft",
        "4 squares, 20 ft\ntotal 8 squares, 40 ft",
    ]
    items = tool.drawn.items
    assert all(item.scene() is win.scene for item in items)
    expected_items = draw_overlay(expected, state).items
    # The same items but for stacking: the tags go above the tokens' name plates.
    assert [p[:3] + p[4:] for p in painted(items)] == [
        p[:3] + p[4:] for p in painted(expected_items)
    ]
    plates = [i.label for i in win.scene.token_items.values()]
    assert plates and all(plate.parentItem() is None for plate in plates)  # z compares
    assert all(tag.zValue() > plate.zValue() and tag.parentItem() is None for tag in tool.tags
               for plate in plates)
    assert set(tool.overlay.childItems()) == set(items) - set(tool.tags)
    (drawn_line,) = [i for i in items if isinstance(i, RouteItem)]
    assert drawn_line.pen().color() == ROUTE_COLOURS[str(Tone.INFO)]
    path = drawn_line.path()
    corners = [path.elementAt(i) for i in range(path.elementCount())]
    assert [(c.x, c.y) for c in corners] == [(centre(s).x(), centre(s).y()) for s in route]
    render_png(win, "ruler_from_a_big_token")
