"""The Deviation Diagram tool draws the system's diagram and its weapon flights, from the
system's ``deviation`` part (no number of its own)."""

from __future__ import annotations

import pytest

from desktop.tools.deviation_tool import DeviationTool
from engine.grid import Square
from engine.routes import DeviationRule
from tests.desktop.tools.conftest import TOOL_NOISE, move_to

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_the_longest_flight_is_the_systems(qtbot, spy_window, monkeypatch):  # type: ignore[no-untyped-def]
    win = spy_window
    # A flight no bundled system has, so a number of the tool's own would show.
    monkeypatch.setattr(type(win.controller.system), "deviation", DeviationRule("1d6+4"))
    tool = DeviationTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (1.5, 10.5))  # the bottom row is open ten squares east
    assert tool.flights[3] == tuple(Square(x, 10) for x in range(1, 12))
    assert tool.flights[5] == (Square(1, 10), Square(1, 11))  # the map's edge stops it
    assert any("(10 squares)" in line for line in tool.lines), tool.lines


def test_the_diagram_is_the_systems(qtbot, spy_window, monkeypatch):  # type: ignore[no-untyped-def]
    win = spy_window
    mirrored = {n: (-dx, dy) for n, (dx, dy) in DeviationRule("1d4").diagram.items()}
    monkeypatch.setattr(type(win.controller.system), "deviation", DeviationRule("1d4", mirrored))
    tool = DeviationTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (5.5, 10.5))
    assert tool.landings[3] == Square(4, 10)  # 3 is west on the mirrored diagram
    assert tool.landings[7] == Square(6, 10)


def test_a_system_without_a_diagram_says_so(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("cities-without-number")
    assert win.controller.system.deviation is None
    tool = DeviationTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (4.5, 6.5))  # not where the last test left the mouse
    assert tool.lines == [f"{win.controller.system.title} has no Deviation Diagram"]
    assert tool.landings == {} and tool.flights == {}
