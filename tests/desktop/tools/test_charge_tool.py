"""The Charge tool: exactly the engine's legal targets highlighted, the others with reasons."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.scene.overlay_items import RouteItem
from desktop.scene.rule_overlays import AREA_BAD, GOOD, TokenRingItem
from desktop.tools.charge_tool import ChargeTool
from engine.routes import MovementGraph
from engine.routes.charge import charge_options
from tests.desktop.tools.conftest import TOOL_NOISE, click_at, move_to, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def rings(tool: ChargeTool) -> dict[tuple[int, int], TokenRingItem]:
    found = {}
    for item in tool.overlay.childItems():
        if isinstance(item, TokenRingItem):
            found[(round(item.pos().x()), round(item.pos().y()))] = item
    return found


def test_d20_charge_highlights_exactly_the_engines_legal_targets(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("d20-firearms")
    win.controller.select("marlow")
    tool = ChargeTool(win.host)
    win.set_tool(tool)
    state = win.controller.state
    report = charge_options(MovementGraph(state), "marlow")
    assert tool.legal_targets == {o.target_id for o in report.allowed} == {"boss"}
    assert tool.refused_targets == {o.target_id for o in report.refused} == {"thug-1"}
    shown = rings(tool)
    boss, thug = state.token("boss"), state.token("thug-1")
    assert shown[(int(boss.square.x * 64), int(boss.square.y * 64))].colour == GOOD
    refused = shown[(int(thug.square.x * 64), int(thug.square.y * 64))]
    assert refused.colour == AREA_BAD
    assert refused.toolTip() == "; ".join(report.option("thug-1").reasons)
    move_to(qtbot, win.view, (13.8, 6.8))  # hover the Boss: its Charge path is drawn
    assert any(isinstance(i, RouteItem) for i in tool.overlay.childItems())
    render_png(win, "charge_d20")


def test_escape_cancels_the_charge_tool(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("d20-firearms")
    win.controller.select("marlow")
    tool = ChargeTool(win.host)
    win.set_tool(tool)
    assert tool.overlay.childItems()
    qtbot.keyClick(win.view.viewport(), Qt.Key.Key_Escape)
    assert not tool.overlay.childItems()
    render_png(win, "charge_cancelled")


def test_cwn_charge_click_goes_through_the_session_as_one_undo_step(qtbot, window_for):  # type: ignore[no-untyped-def]
    from engine.rules.base import Command

    win = window_for("cities-without-number")
    win.controller.apply(Command("start_combat"))
    charger = win.controller.state.combat.active
    tool = ChargeTool(win.host, charger)
    win.set_tool(tool)
    report = charge_options(MovementGraph(win.controller.state), charger)
    assert tool.legal_targets == {o.target_id for o in report.allowed}
    assert "boss" in tool.legal_targets, "the seeded initiative gives Dex a clear Charge"
    before = win.controller.state
    route = report.option("boss").route
    assert route is not None
    click_at(qtbot, win.view, (13.5, 6.5))
    assert win.controller.state.token(charger).square == route.end
    render_png(win, "charge_cwn_applied")
    win.controller.undo()
    assert win.controller.state == before
