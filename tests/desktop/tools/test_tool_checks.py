"""The Select tool and the checked tool entry: what Foundry VTT and MapTool users look for."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from desktop.tools.action_tool import ActionTool
from desktop.tools.ruler_tool import RulerTool
from desktop.tools.sight_tool import SightTool
from desktop.tools.template_tool import TemplateTool
from tests.desktop.tools.conftest import TOOL_NOISE, render_png, view_point

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def _checked(win) -> str | None:  # type: ignore[no-untyped-def]
    action = win.tool_checks.checked
    return None if action is None else action.iconText()


def test_select_is_the_first_tool_on_the_toolbar_and_checked_at_start(spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    select = win.menu_actions["tool_select"]
    assert win.tool_checks.toolbar.actions()[0] is select
    assert select.shortcut().toString() == "S"
    assert select.isChecked() and win.view.tool is win.default_tool
    shown = [a.iconText() for a in win.tool_checks.toolbar.actions() if not a.isSeparator()]
    assert shown[:5] == ["Select", "Sight", "Template", "Ruler", "Range"]
    assert "Draw walls" in shown


def test_the_tool_in_use_is_checked_and_escape_or_s_returns_to_select(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    win.menu_actions["tool_ruler"].trigger()
    assert isinstance(win.view.tool, RulerTool)
    assert _checked(win) == "Ruler" and not win.menu_actions["tool_select"].isChecked()
    render_png(win, "tool_checks_ruler")
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.view.tool is win.default_tool and _checked(win) == "Select"
    win.menu_actions["map_walls"].trigger()
    assert _checked(win) == "Draw walls"
    qtbot.keyClick(win.view, Qt.Key.Key_S)
    assert win.view.tool is win.default_tool and _checked(win) == "Select"
    win.menu_actions["tool_sight"].trigger()
    win.menu_actions["tool_select"].trigger()  # the toolbar button
    assert win.view.tool is win.default_tool and _checked(win) == "Select"


def test_a_template_kind_checks_the_template_entry_and_an_aimed_action_none(spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    kinds = win.menu_actions["template_kind"].menu()
    kinds.aboutToShow.emit()
    kinds.actions()[-1].trigger()
    assert isinstance(win.view.tool, TemplateTool) and _checked(win) == "Template"
    win.controller.select("kara")
    spec = next(s for s in win.controller.system.catalogue if s.key == "standard_attack")
    win.start_action("kara", spec)
    assert isinstance(win.view.tool, ActionTool) and _checked(win) is None


def test_measuring_tools_stay_on_after_a_use(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    win.menu_actions["tool_template"].trigger()
    tool = win.view.tool
    viewport = win.view.viewport()
    qtbot.mouseMove(viewport, view_point(win.view, (4.5, 4.5)))
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=view_point(win.view, (4.5, 4.5)))
    assert isinstance(tool, TemplateTool) and tool.placed
    assert win.view.tool is tool and _checked(win) == "Template"


def test_s_typed_in_a_dock_is_text_and_held_v_still_fogs(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    win.menu_actions["tool_sight"].trigger()
    tool = win.view.tool
    assert isinstance(tool, SightTool)
    qtbot.keyPress(win.view.viewport(), Qt.Key.Key_V)
    assert tool.fog is not None and win.view.tool is tool
    qtbot.keyRelease(win.view.viewport(), Qt.Key.Key_V)
    assert tool.fog is None
    search = win.action_palette.filter
    search.setFocus()
    qtbot.keyClicks(search, "sh")
    assert search.text() == "sh" and win.view.tool is tool


def test_a_tool_picked_from_the_toolbar_takes_the_keys_at_once(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    """Playtest: the GM clicked End turn, then Template on the toolbar, and pressed T for a
    burst: the key went to the End turn button (it kept the focus) and nothing changed until
    the GM clicked the map, which placed a cone where it was not wanted."""
    win = spy_window
    button = next(b for b in win.findChildren(QPushButton) if b.isVisible())
    button.setFocus()
    assert win.focusWidget() is button
    win.menu_actions["tool_template"].trigger()
    tool = win.view.tool
    assert isinstance(tool, TemplateTool)
    assert win.focusWidget() is win.view
    before = tool.kind
    qtbot.keyClick(win.focusWidget(), Qt.Key.Key_T)  # where the keyboard goes
    assert tool.kind != before
    win.menu_actions["tool_select"].trigger()  # Select too: Delete, S and the rest reach it
    assert win.focusWidget() is win.view
