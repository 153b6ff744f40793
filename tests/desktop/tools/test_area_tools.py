"""Cones (Brace, Aiming, Covering Fire), range bands and Suppressive Fire on the map."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.tools.cone_tool import ConeTool, direction_to
from desktop.tools.range_tool import RangeTool
from desktop.tools.suppression_tool import SuppressionTool
from engine.geometry import (
    brace_area,
    covering_fire_area,
    d20_suppressive_fire,
    range_bands,
    savage_suppressive_fire,
    spycraft_suppressive_fire,
)
from engine.grid import Square
from tests.desktop.tools.conftest import TOOL_NOISE, click_at, move_to, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_brace_cone_follows_the_mouse_and_braces_through_the_session(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    tool = ConeTool(win.host, "brace")
    win.set_tool(tool)
    move_to(qtbot, win.view, (13.5, 6.5))
    kara = win.controller.state.token("kara")
    expected = brace_area(win.controller.state, "kara", direction_to(kara, Square(13, 6)))
    assert tool.result is not None and tool.result.squares == expected.squares
    assert tool.result.token_ids() == expected.token_ids()
    assert "boss" in expected.token_ids()
    render_png(win, "cone_brace")
    # Spycraft Brace needs combat; the session decides, the tool only reports.
    before = win.controller.state
    click_at(qtbot, win.view, (13.5, 6.5))
    preview = win.controller.preview(tool.command())
    assert (win.controller.state is before) == (not preview.legal)


def test_covering_fire_cone_in_d20(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("d20-firearms")
    win.controller.select("kara")
    tool = ConeTool(win.host, "covering_fire")
    win.set_tool(tool)
    move_to(qtbot, win.view, (12.5, 7.5))
    kara = win.controller.state.token("kara")
    expected = covering_fire_area(
        win.controller.state, "kara", direction_to(kara, Square(12, 7)), "Assault rifle"
    )
    assert tool.result is not None and tool.result.squares == expected.squares
    render_png(win, "cone_covering_fire")


def test_range_bands_ring_every_token_by_the_engines_band(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("marlow")
    tool = RangeTool(win.host)
    win.set_tool(tool)
    expected = range_bands(win.controller.state, "marlow", "SMG")
    assert tool.bands == expected
    for affected in expected.tokens:
        name = win.controller.state.token(affected.token_id).name
        assert f"{name}: {affected.modifiers[0].rule}" in "\n".join(tool.lines)
    render_png(win, "range_bands")


@pytest.mark.parametrize(
    ("system", "square"),
    [("spycraft", Square(9, 6)), ("d20-firearms", Square(12, 6)), ("savage-worlds", Square(13, 7))],
)
def test_suppressive_fire_area_of_each_system(qtbot, window_for, system, square):  # type: ignore[no-untyped-def]
    win = window_for(system)
    state = win.controller.state
    kara = state.token("kara")
    big_magazine = replace(kara.weapons[0], ammo=30, rate_of_fire=3)
    win.controller.replace_state(state.with_token(replace(kara, weapons=(big_magazine,))))
    win.controller.select("kara")
    tool = SuppressionTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (square.x + 0.5, square.y + 0.5))
    state = win.controller.state
    build = {
        "spycraft": lambda: spycraft_suppressive_fire(state, "kara", square, "Assault rifle"),
        "d20-firearms": lambda: d20_suppressive_fire(state, "kara", square, "Assault rifle"),
        "savage-worlds": lambda: savage_suppressive_fire(
            state, "kara", square.centre, "Assault rifle"
        ),
    }[system]
    expected = build()
    assert tool.area == expected
    inside = [t.token_id for t in expected.tokens]
    assert set(inside) <= set(tool.affected)
    if system == "spycraft":  # the shooter's opponents would draw final attacks
        assert set(tool.affected) == {"thug-1", "boss"}
    else:
        assert "boss" in inside
    render_png(win, f"suppression_{system}")
