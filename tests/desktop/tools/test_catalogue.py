"""The Tools menu and the action palette start the rule tools."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.tools.catalogue import TOOLS
from desktop.tools.charge_tool import ChargeTool
from desktop.tools.strafe_tool import StrafeTool
from engine.tokens import Weapon
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import TOOL_NOISE, make_window, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_every_tools_menu_entry_starts_its_tool_and_escape_returns_to_select(spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    for key, _label, _shortcut, _factory in TOOLS:
        win.actions[f"tool_{key}"].trigger()
        assert win.view.tool is not win.default_tool, key
        render_png(win, f"menu_{key}")
        win.cancel_tool()
        assert win.view.tool is win.default_tool


def test_palette_strafe_starts_the_strafe_tool_for_the_actor(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    from engine.rules.base import Command

    state = sample_state()
    carbine = Weapon("Carbine", "2d8", 70, ammo=30, capacity=30, modes=("single", "auto"))
    state = state.with_token(replace(state.token("kara"), weapons=(carbine,)))
    win = make_window(qtbot, tmp_path, state)
    win.controller.apply(Command("start_combat"))
    actor = win.controller.state.combat.active
    spec = win.controller.system.action("strafe")
    win.palette.action_requested.emit(actor, spec)
    assert isinstance(win.view.tool, StrafeTool)
    assert win.view.tool.actor().id == actor
    render_png(win, "palette_strafe_started")


def test_palette_charge_in_d20_starts_the_charge_tool(window_for):  # type: ignore[no-untyped-def]
    win = window_for("d20-firearms")
    spec = win.controller.system.action("charge")
    win.palette.action_requested.emit("marlow", spec)
    assert isinstance(win.view.tool, ChargeTool)
    assert win.view.tool.legal_targets == {"boss"}
    render_png(win, "palette_charge_started")
