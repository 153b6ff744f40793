"""Withdraw destinations, Run lines, Bull Rush and Push ends: what the engine answers, drawn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.scene.overlay_items import RouteItem, SquaresItem
from desktop.tools.push_tool import PushTool
from desktop.tools.run_tool import RunTool
from desktop.tools.withdraw_tool import WithdrawTool
from engine.grid import Square
from engine.routes import MovementGraph, RouteError
from engine.routes.push import savage_push
from engine.routes.run import run_destinations, run_line
from engine.routes.withdraw import withdraw
from engine.rules.base import Command
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import TOOL_NOISE, click_at, make_window, move_to, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def routes(tool) -> list[RouteItem]:  # type: ignore[no-untyped-def]
    return [i for i in tool.overlay.childItems() if isinstance(i, RouteItem)]


def test_withdraw_shows_the_engines_destinations_and_routes(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    state = sample_state()
    thug = replace(state.token("thug-1"), square=Square(3, 6))  # next to Kara
    win = make_window(qtbot, tmp_path, state.with_token(thug))
    win.controller.select("kara")
    tool = WithdrawTool(win.host)
    win.set_tool(tool)
    answer = withdraw(MovementGraph(win.controller.state), "kara")
    assert answer.allowed
    assert tool.destinations == answer.reach.squares
    assert any(isinstance(i, SquaresItem) for i in tool.overlay.childItems())
    goal = max(answer.reach.squares, key=lambda s: (s.x - 2) ** 2 + (s.y - 6) ** 2)
    move_to(qtbot, win.view, (goal.x + 0.5, goal.y + 0.5))
    assert tool.route == answer.reach.route_to(goal)
    assert routes(tool)
    render_png(win, "withdraw")


def test_run_lines_and_a_run_through_the_session_is_one_undo_step(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.apply(Command("start_combat"))
    actor = win.controller.state.combat.active
    assert actor is not None
    win.controller.select(actor)
    tool = RunTool(win.host)
    win.set_tool(tool)
    state = win.controller.state
    found = run_destinations(MovementGraph(state), actor)
    assert tool.destinations == frozenset(found)
    token = state.token(actor)
    goal = max(found, key=lambda s: abs(s.x - token.square.x) + abs(s.y - token.square.y))
    move_to(qtbot, win.view, (goal.x + 0.5, goal.y + 0.5))
    assert tool.route == found[goal] == run_line(MovementGraph(state), actor, goal).route
    render_png(win, "run_line")
    before = win.controller.state
    preview = win.controller.preview(Command("run", actor, squares=found[goal].squares[1:]))
    click_at(qtbot, win.view, (goal.x + 0.5, goal.y + 0.5))
    if preview.legal:
        assert win.controller.state.token(actor).square == goal
        win.controller.undo()
        assert win.controller.state == before
    else:  # the turn engine refuses (not this token's action now): nothing changes
        assert win.controller.state is before


def test_savage_push_marks_where_a_success_and_a_raise_send_the_foe(qtbot, window_for):  # type: ignore[no-untyped-def]
    win = window_for("savage-worlds")
    state = win.controller.state
    kara = replace(state.token("kara"), square=Square(11, 2))  # beside Thug 1, in the office
    win.controller.replace_state(state.with_token(kara))
    win.controller.select("kara")
    tool = PushTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (12.5, 2.5))
    assert tool.target_id == "thug-1"
    movement = MovementGraph(win.controller.state)
    success = savage_push(movement, "kara", "thug-1")
    raised = savage_push(movement, "kara", "thug-1", raise_=True)
    shown = {what: square for what, _, square in tool.ends}
    assert shown == {"push": success.target_end, "raise": raised.target_end}
    assert shown["push"] != shown["raise"], "a raise pushes further"
    render_png(win, "push_savage")


def test_bull_rush_approach_and_ends(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("marlow")
    tool = PushTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (13.5, 6.5))
    assert tool.result is not None
    if tool.result.allowed:
        assert tool.result.approach is not None
        assert {what for what, _, _ in tool.ends} == {"end", "you"}
        assert routes(tool)
    else:
        assert all(reason in tool.lines for reason in tool.result.reasons)
    render_png(win, "bull_rush")


def test_deviation_diagram_numbers_match_where_the_engine_lands(qtbot, spy_window):  # type: ignore[no-untyped-def]
    from desktop.tools.deviation_tool import DeviationTool
    from engine.routes.deviation import DEVIATION_DIAGRAM, deviate

    win = spy_window
    tool = DeviationTool(win.host)
    win.set_tool(tool)
    move_to(qtbot, win.view, (9.5, 4.5))  # beside the office wall: some numbers roll again
    movement = MovementGraph(win.controller.state)
    assert tool.origin == Square(9, 4)
    for number, (dx, dy) in DEVIATION_DIAGRAM.items():
        rolls = iter([number, 0])  # a second roll (0) would be out of range: a reroll
        try:
            landed = deviate(movement, Square(9, 4), lambda _e, r=rolls: next(r)).square
        except RouteError:  # the engine wanted another d8
            landed = None
        assert tool.landings[number] == landed
        if landed is not None:
            assert landed == Square(9 + dx, 4 + dy)
    assert None in tool.landings.values() and any(tool.landings.values())
    render_png(win, "deviation")


def test_cwn_run_rings_the_enemies_who_get_a_free_attack(qtbot, window_for):  # type: ignore[no-untyped-def]
    from engine.routes.withdraw import cwn_run
    from engine.tokens import Weapon

    win = window_for("cities-without-number")
    state = win.controller.state
    knife = Weapon("Knife", "1d4", 0, melee=True)
    thug = replace(state.token("thug-1"), square=Square(3, 6), weapons=(knife,))
    win.controller.replace_state(state.with_token(thug))
    win.controller.select("kara")
    tool = RunTool(win.host)
    win.set_tool(tool)
    answer = cwn_run(MovementGraph(win.controller.state), "kara")
    assert [a.attacker_id for a in answer.free_attacks] == ["thug-1"]
    assert tool.destinations == answer.reach.squares
    assert any("Thug 1: free attack with the Knife" in line for line in tool.lines)
    render_png(win, "run_cwn_free_attack")
