"""The template tool: follow the mouse, turn with the wheel, place with a click, Escape."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.tools.template_tool import TemplateTool
from engine.geometry import Inclusion, circle_template, cone_template
from tests.desktop.tools.conftest import TOOL_NOISE, click_at, move_to, render_png, wheel_at

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_cone_follows_turns_and_lists_the_engines_tokens(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    tool = TemplateTool(win.host, "cone")
    win.set_tool(tool)
    tool.size = 6
    move_to(qtbot, win.view, (9.1, 4.2))
    assert tool.origin == (9.0, 4.0)
    wheel_at(win.view, (9.1, 4.2), 3)  # 15 degrees
    wheel_at(win.view, (9.1, 4.2), 1, shift=True)  # +15 degrees
    assert tool.direction == pytest.approx(30.0)
    click_at(qtbot, win.view, (9.1, 4.2))
    assert tool.placed
    expected = cone_template(
        win.controller.state, (9.0, 4.0), 30.0, 6, inclusion=Inclusion.CENTRE
    )
    assert tool.measured is not None
    assert tool.measured.overlay.token_ids() == expected.token_ids()
    assert tool.measured.overlay.squares() == expected.squares
    assert expected.token_ids(), "the test should touch somebody"
    names = [win.controller.state.token(t).name for t in expected.token_ids()]
    assert all(name in tool.lines[1] for name in names)
    render_png(win, "template_cone_placed")


def test_savage_medium_blast_counts_partial_squares(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("savage-worlds")
    tool = TemplateTool(win.host)
    win.set_tool(tool)
    tool.set_kind("medium_blast")
    click_at(qtbot, win.view, (12.4, 3.6))
    # A Medium Blast is a 2" circle; the system counts squares partly beneath it.
    expected = circle_template(
        win.controller.state, (12.5, 3.5), 2, inclusion=Inclusion.PARTIAL
    )
    assert tool.measured is not None and tool.measured.overlay.squares() == expected.squares
    assert tool.measured.overlay.token_ids() == expected.token_ids()
    assert "any part of it is beneath" in "\n".join(tool.lines)
    render_png(win, "template_medium_blast")


def test_escape_cancels_the_template(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    tool = TemplateTool(win.host, "burst")
    win.set_tool(tool)
    move_to(qtbot, win.view, (5.0, 5.0))
    assert tool.overlay.childItems()
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Escape)
    assert not tool.overlay.childItems()
    assert tool.origin is None or win.view.tool is win.default_tool
    render_png(win, "template_cancelled")  # the map is still drawn, the template gone


def test_c_cuts_the_burst_to_what_its_origin_sees(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    tool = TemplateTool(win.host, "burst")
    win.set_tool(tool)
    tool.size = 4
    move_to(qtbot, win.view, (9.0, 3.0))  # beside the office wall
    open_squares = tool.measured.overlay.squares()
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_C)
    expected = circle_template(
        win.controller.state, (9.0, 3.0), 4, inclusion=Inclusion.CENTRE, clip_to_walls=True
    )
    assert tool.measured.overlay.squares() == expected.squares
    assert expected.squares < open_squares, "the wall stops part of the burst"
    assert any("walls" in line for line in tool.lines)
    render_png(win, "template_burst_cut_to_walls")


def test_t_cycles_the_kinds_of_the_system_in_play(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("savage-worlds")
    tool = TemplateTool(win.host)
    win.set_tool(tool)
    seen = [tool.kind.key]
    for _ in range(4):
        qtbot.keyClick(win.view.viewport(), Qt.Key.Key_T)
        seen.append(tool.kind.key)
    assert seen == ["small_blast", "medium_blast", "large_blast", "cone_template", "small_blast"]
    move_to(qtbot, win.view, (9.0, 6.0))
    render_png(win, "template_small_blast")


def test_a_template_cut_to_walls_off_the_map_says_why_instead_of_failing(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    tool = TemplateTool(win.host, "burst")
    win.set_tool(tool)
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_C)
    move_to(qtbot, win.view, (5.0, 12.7))  # the origin snaps to (5, 13): off the map
    assert tool.origin == (5.0, 13.0)
    assert tool.measured is None
    assert "outside the map" in win.statusBar().currentMessage()
    render_png(win, "template_off_map")
