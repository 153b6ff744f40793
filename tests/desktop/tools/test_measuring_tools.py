"""The measuring tools draw the engine's payload (engine.rules.measuring) and nothing of
their own: the template's squares and shape, the sight rings and lines, the range bands."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt

from desktop.scene.overlay_items import RouteItem, SquaresItem
from desktop.scene.preview_overlay import HINT, ROLE_COLOURS, ROUTE_COLOURS, draw_overlay
from desktop.scene.rule_overlays import (
    AREA_BAD,
    AreaItem,
    SquareMarkItem,
    TokenRingItem,
)
from desktop.scene.style import SQUARE
from desktop.shapes import to_painter_path
from desktop.tools.deviation_tool import DeviationTool
from desktop.tools.range_tool import RangeTool, band_colour
from desktop.tools.sight_tool import SightTool
from desktop.tools.template_tool import TemplateTool
from engine.grid import Square
from engine.overlay import Role, Tone
from engine.rules.measuring import (
    deviation_diagram,
    measure_range,
    measure_template,
    sight_rings,
    sight_to,
)
from tests.desktop.tools.conftest import TOOL_NOISE, move_to, painted, render_png, wheel_at

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def centre(square) -> QPointF:  # type: ignore[no-untyped-def]
    return QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE)


def rings_by_square(items) -> dict[tuple[int, int], TokenRingItem]:  # type: ignore[no-untyped-def]
    """The token rings among ``items``, by the square of their top-left corner."""
    return {
        (int(r.pos().x() // SQUARE), int(r.pos().y() // SQUARE)): r
        for r in items
        if isinstance(r, TokenRingItem)
    }


def test_the_template_tool_draws_the_engines_squares_shape_and_touched_tokens(
    qtbot, spy_window
) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    tool = TemplateTool(win.host, "cone")
    win.set_tool(tool)
    tool.size = 6
    move_to(qtbot, win.view, (9.1, 4.2))
    wheel_at(win.view, (9.1, 4.2), 6)  # 30 degrees
    state, system = win.controller.state, win.controller.system
    expected = measure_template(state, system, tool.kind, (9.0, 4.0), 30.0, 6)
    assert tool.measured == expected
    assert tool.lines[: len(expected.lines)] == list(expected.lines)
    items = tool.overlay.childItems()
    (covered,) = [i for i in items if isinstance(i, SquaresItem)]
    squares = expected.overlay.squares()
    assert covered.path().elementCount() == 5 * len(squares)  # one closed square each
    assert all(covered.path().contains(centre(s)) for s in squares)
    (shape,) = [i for i in items if isinstance(i, AreaItem)]
    assert shape.path() == to_painter_path(expected.overlay.shapes[0].outline)
    touched = expected.overlay.token_ids(Role.AFFECTED)
    assert touched, "the cone should touch somebody"
    rings = [i for i in items if isinstance(i, TokenRingItem)]
    ringed = {state.token_at(Square(int(r.pos().x() // SQUARE), int(r.pos().y() // SQUARE))).id
              for r in rings}
    assert ringed == set(touched)
    render_png(win, "measuring-template-cone")


def test_the_sight_tool_draws_the_engines_rings_and_lines(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    tool = SightTool(win.host)
    win.set_tool(tool)
    state, system = win.controller.state, win.controller.system
    assert tool.rings == sight_rings(state, "kara")
    rings = rings_by_square(tool.overlay.childItems())
    for touched in tool.rings.overlay.tokens:
        token = state.token(touched.token_id)
        ring = rings[(token.square.x, token.square.y)]
        if touched.role is Role.ACTOR:
            assert ring.colour == ROLE_COLOURS["actor"]
        elif touched.tone is Tone.REFUSED:
            assert ring.colour == AREA_BAD and ring._dashed, token.name
        else:
            assert ring.colour == ROLE_COLOURS["target"], token.name
    boss = next(t for t in state.tokens if t.name == "The Boss")
    move_to(qtbot, win.view, (boss.square.x + 0.5, boss.square.y + 0.5))
    expected = sight_to(state, system, "kara", boss.square)
    assert tool.hovered == expected
    lines = [i for i in tool._hover_drawn.items if isinstance(i, AreaItem)]
    shapes = expected.overlay.shapes
    assert [i.path() for i in lines] == [to_painter_path(s.outline) for s in shapes]
    assert [i.pen().style() == Qt.PenStyle.DashLine for i in lines] == [
        s.tone is Tone.REFUSED for s in expected.overlay.shapes
    ]
    assert expected.lines[0] in tool.lines
    qtbot.keyPress(win.view.viewport(), Qt.Key.Key_V)
    assert tool.fog is not None and tool.fog_squares
    render_png(win, "measuring-sight")
    qtbot.keyRelease(win.view.viewport(), Qt.Key.Key_V)


def test_the_range_tool_draws_the_engines_bands_and_rings(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("marlow")
    tool = RangeTool(win.host)
    win.set_tool(tool)
    state, system = win.controller.state, win.controller.system
    expected = measure_range(state, system, "marlow", "SMG")
    assert tool.measured == expected
    items = tool.overlay.childItems()
    bands = [i for i in items if isinstance(i, AreaItem)]
    assert [b.path() for b in bands] == [to_painter_path(a.outline) for a in expected.overlay.areas]
    labels = [a.label for a in expected.overlay.areas]
    rings = rings_by_square(items)
    for touched in expected.overlay.tokens:
        if touched.role is Role.ACTOR:
            continue
        token = state.token(touched.token_id)
        ring = rings[(token.square.x, token.square.y)]
        far = touched.tone is Tone.REFUSED
        assert ring.colour == (AREA_BAD if far else band_colour(labels.index(touched.note)))
    render_png(win, "measuring-range")


def test_the_deviation_tool_draws_the_engines_marks_and_flights(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    tool = DeviationTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (5.5, 10.5))
    state, system = win.controller.state, win.controller.system
    expected = deviation_diagram(state, system, tool.movement(), Square(5, 10))
    assert expected is not None
    items = tool.overlay.childItems()
    marks = [i for i in items if isinstance(i, SquareMarkItem)]
    routes = [i for i in items if isinstance(i, RouteItem)]
    assert len(marks) == len(expected.measured.overlay.marks) > 0
    assert len(routes) == len(expected.measured.overlay.routes)
    assert tool.lines == list(expected.measured.lines)
    assert tool.landings == dict(expected.landings)
    assert painted(items) == painted(draw_overlay(expected.measured.overlay, state).items)


def test_the_deviation_flights_are_drawn_softer_than_the_marks(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    """The engine gives the flights the hint tone: thin, see-through, without the dark edge
    a route has, so the numbered squares read first."""
    win = spy_window
    tool = DeviationTool(win.host)
    win.set_tool(tool)
    for point in ((4.5, 5.5), (5.5, 5.5)):  # two moves: the cursor may already be on the last
        move_to(qtbot, win.view, point)
    assert tool.origin == Square(5, 5)
    items = tool.overlay.childItems()
    flights = [i for i in items if isinstance(i, RouteItem)]
    assert flights and all(f.faint and f.pen().color() == HINT for f in flights)
    assert all(f.pen().widthF() < 6 and f.pen().color().alpha() < 255 for f in flights)
    marks = [i for i in items if isinstance(i, SquareMarkItem)]
    assert marks and all(m.colour.alpha() == 255 for m in marks)
    assert ROUTE_COLOURS["hint"] == HINT != ROUTE_COLOURS["info"]
    render_png(win, "deviation-soft-flights")
