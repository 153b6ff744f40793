"""The Tools menu: inspection tools, and the acting token's map actions of the system."""

from __future__ import annotations

import pytest

from desktop.tools.action_tool import ActionTool
from desktop.tools.catalogue import TOOLS, map_actions
from engine.rules import get_system, system_names
from tests.desktop.tools.conftest import TOOL_NOISE, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_every_tools_menu_entry_starts_its_tool_and_escape_returns_to_select(spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    for key, _label, _shortcut, _factory in TOOLS:
        win.menu_actions[f"tool_{key}"].trigger()
        assert win.view.tool is not win.default_tool, key
        render_png(win, f"menu_{key}")
        win.cancel_tool()
        assert win.view.tool is win.default_tool


@pytest.mark.parametrize("name", system_names())
def test_act_on_the_map_lists_only_the_systems_own_map_actions(window_for, name):  # type: ignore[no-untyped-def]
    win = window_for(name)
    win.controller.select("kara")
    menu = win.menu_actions["act_on_map"].menu()
    menu.aboutToShow.emit()
    listed = [a.text() for a in menu.actions()]
    expected = [spec.name for spec in map_actions(get_system(name).catalogue)]
    assert listed == expected and expected
    menu.actions()[0].trigger()
    assert isinstance(win.view.tool, ActionTool)
    assert win.view.tool.spec.name == expected[0] and win.view.tool.actor_id == "kara"
    win.cancel_tool()
    assert win.view.tool is win.default_tool
