"""Fog by hand and GM-hidden tokens, as the player view shows them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu

from desktop.table import add_hide_entry
from desktop.tools.fog_tool import FogTool
from engine.grid import Square
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.tools.conftest import PICTURES, TOOL_NOISE, render_png, view_point

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE, *OFFSCREEN_NOISE)]


def drag(qtbot, win, start, end, modifier=Qt.KeyboardModifier.NoModifier) -> None:  # type: ignore[no-untyped-def]
    viewport = win.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, modifier, view_point(win.view, start))
    qtbot.mouseMove(viewport, view_point(win.view, end))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, modifier, view_point(win.view, end))


def _fog_tool(win) -> FogTool:  # type: ignore[no-untyped-def]
    win.menu_actions["tool_fog"].trigger()
    assert isinstance(win.view.tool, FogTool)
    return win.view.tool


def test_reveal_hide_and_give_back_over_the_partys_sight(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    player = win.show_player_view()
    qtbot.waitExposed(player)
    office = Square(12, 2)  # Thug 1 waits behind the closed office door
    assert office not in player.scene.seen
    assert not player.scene.token_items["thug-1"].isVisible()
    _fog_tool(win)
    drag(qtbot, win, (11.5, 1.5), (13.5, 3.5))  # reveal the office to the players
    assert office in player.scene.seen
    assert player.scene.token_items["thug-1"].isVisible()
    assert win.scene.fog_marks.fog.revealed >= {office}
    kara_square = Square(4, 6)
    assert kara_square in player.scene.seen
    drag(qtbot, win, (4.5, 6.5), (5.5, 7.5), Qt.KeyboardModifier.ShiftModifier)  # hide
    assert kara_square not in player.scene.seen
    render_png(win, "fog_by_hand_gm")
    player.grab().toImage().save(str(PICTURES / "fog_by_hand_player.png"))
    drag(qtbot, win, (4.5, 6.5), (4.5, 6.5), Qt.KeyboardModifier.ControlModifier)  # to sight
    assert kara_square in player.scene.seen
    win.undo()  # one drag, one undo step
    assert kara_square not in player.scene.seen
    win.menu_actions["clear_fog"].trigger()
    assert win.controller.state.fog.empty
    assert office not in player.scene.seen


def test_a_token_the_gm_hides_is_gone_from_the_player_view_and_sees_nothing_there(
    qtbot, spy_window
) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    # Kara alone in the office sees it; once the GM hides her, her sight no longer counts.
    win.controller.apply(Command.build("place", actor="kara", squares=[(11, 3)]))
    player = win.show_player_view()
    qtbot.waitExposed(player)
    assert Square(13, 1) in player.scene.seen
    menu = QMenu()
    add_hide_entry(win, menu, "kara")
    entry = menu.actions()[-1]
    assert entry.text() == "Hide Kara Voss from the players"
    entry.trigger()
    assert win.controller.state.token("kara").hidden
    assert "kara" not in player.scene.token_items
    assert Square(13, 1) not in player.scene.seen
    again = QMenu()
    add_hide_entry(win, again, "kara")
    assert again.actions()[-1].text() == "Show Kara Voss to the players"
