"""The Strafe tool: a chain picked by clicks, numbered with the engine's Defense bonuses."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from desktop.scene.rule_overlays import AREA_BAD, SquareMarkItem
from desktop.tools.strafe_tool import StrafeTool
from engine.geometry import check_strafe
from engine.grid import Square
from engine.tokens import Weapon
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import TOOL_NOISE, click_at, make_window, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]

CARBINE = Weapon("Carbine", "2d8", 70, ammo=30, capacity=30, modes=("single", "burst", "full auto"))


@pytest.fixture
def strafe_window(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    state = sample_state()
    kara = replace(state.token("kara"), weapons=(CARBINE,))
    win = make_window(qtbot, tmp_path, state.with_token(kara))
    win.controller.select("kara")
    return win


def marks(tool: StrafeTool) -> dict[Square, SquareMarkItem]:
    return {m.square: m for m in tool.overlay.childItems() if isinstance(m, SquareMarkItem)}


def test_strafe_chain_by_clicks_numbers_bonuses_and_marks_the_square_behind(  # type: ignore[no-untyped-def]
    qtbot, strafe_window
):
    win = strafe_window
    tool = StrafeTool(win.host)
    win.set_tool(tool)
    chain = [Square(13, 5), Square(13, 6), Square(13, 7), Square(14, 7)]
    for square in chain:
        click_at(qtbot, win.view, (square.x + 0.5, square.y + 0.5))
    assert tool.chain == chain
    expected = check_strafe(win.controller.state, "kara", chain, "Carbine")
    shown = marks(tool)
    # Strafe: each occupied square is a target, +2 Defense per target in chain order.
    for target in expected.targets:
        assert shown[target.square].label.endswith(f"+{target.defense_bonus}")
    assert [t.defense_bonus for t in expected.targets] == [2, 4, 6]  # the Boss fills three of them
    # The square straight behind another as the shooter sees it is red, with the reason.
    assert not expected.legal
    assert shown[Square(14, 7)].colour == AREA_BAD
    assert "behind" in shown[Square(14, 7)].toolTip()
    assert shown[Square(13, 5)].colour != AREA_BAD
    assert f"{expected.shots} shots" in tool.lines[0]
    render_png(win, "strafe_chain_illegal")


def test_strafe_fires_through_the_session_as_one_undo_step(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    from engine.rules.base import Command

    state = sample_state()
    for token in state.tokens:  # everyone carries a full-auto carbine
        state = state.with_token(replace(token, weapons=(CARBINE,)))
    win = make_window(qtbot, tmp_path, state)
    win.controller.apply(Command("start_combat"))
    shooter = win.controller.state.combat.active
    tool = StrafeTool(win.host, shooter)
    win.set_tool(tool)
    for square in (Square(11, 7), Square(12, 7), Square(13, 7)):
        click_at(qtbot, win.view, (square.x + 0.5, square.y + 0.5))
    before = win.controller.state
    preview = win.controller.preview(tool.command())
    assert preview.legal, preview.reasons  # the seeded initiative gives the Clerk the turn
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Return)
    assert win.controller.state.token(shooter).weapon("Carbine").ammo == 30 - 9
    assert tool.chain == []
    render_png(win, "strafe_fired")
    win.controller.undo()
    assert win.controller.state == before


def test_strafe_chain_by_dragging_and_dragging_back(qtbot, strafe_window):  # type: ignore[no-untyped-def]
    from tests.desktop.tools.conftest import view_point

    win = strafe_window
    tool = StrafeTool(win.host)
    win.set_tool(tool)
    viewport = win.view.viewport()
    points = [view_point(win.view, (13.5, y + 0.5)) for y in (3, 4, 5, 6)]
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=points[0])
    for point in points[1:]:
        qtbot.mouseMove(viewport, point)
    qtbot.mouseMove(viewport, points[2])  # back one square: the last one is dropped
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=points[2])
    assert tool.chain == [Square(13, 3), Square(13, 4), Square(13, 5)]
    render_png(win, "strafe_dragged")
    qtbot.keyClick(viewport, Qt.Key.Key_Escape)
    assert not tool.overlay.childItems()
    assert not tool.chain or win.view.tool is win.default_tool
