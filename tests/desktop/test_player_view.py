"""The player view at the table: turn banner, pings, full screen, its remembered screen,
and the GM's toggle for enemies' health."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QApplication, QMenu

from desktop.fight import start_combat
from desktop.player_view import PlayerWindow
from desktop.scene.ping_item import PING_MS
from desktop.scene.style import SQUARE
from engine.grid import Square
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.tools.conftest import PICTURES, TOOL_NOISE

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE, *OFFSCREEN_NOISE)]


def _player(qtbot, window) -> PlayerWindow:  # type: ignore[no-untyped-def]
    player = window.show_player_view()  # deleted when closed; the main window closes it
    qtbot.waitExposed(player)
    return player


def test_the_banner_says_the_round_and_whose_turn(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    player = _player(qtbot, window)
    assert player.banner.text() == "Getting ready"
    start_combat(window, window.controller)  # a fresh dice seed: any token may act first
    said: set[str] = set()
    for _ in range(len(window.controller.state.combat.order)):
        state = window.controller.state
        active = state.token(str(state.combat.active))
        heading = f"Round {state.combat.round} · "
        if player.scene.token_items[active.id].isVisible():
            assert player.banner.text() == f"{heading}{active.name}'s turn"
            said.add("named")
        else:  # Thug 1 waits unseen in the office
            assert player.banner.text() == f"{heading}an unseen enemy acts", active.name
            said.add("unseen")
        window.controller.apply(Command("end_turn"))
    assert said == {"named", "unseen"}
    window.controller.apply(Command("end_combat"))
    assert player.banner.text() == "The fight is over"


def test_p_pings_the_square_under_the_cursor_on_both_views(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    player = _player(qtbot, window)
    pinged: list[Square] = []
    window.controller.pinged.connect(pinged.append)
    viewport = window.view.viewport()
    point = window.view.mapFromScene(QPointF(5.5 * SQUARE, 4.5 * SQUARE))
    QCursor.setPos(viewport.mapToGlobal(point))
    if viewport.mapFromGlobal(QCursor.pos()) != point:
        pytest.skip("this platform cannot move the pointer")
    qtbot.keyClick(viewport, Qt.Key.Key_P)
    assert pinged == [Square(5, 4)]
    assert [p.square for p in window.scene.pings()] == [Square(5, 4)]
    assert [p.square for p in player.scene.pings()] == [Square(5, 4)]


def test_a_ping_from_the_menu_shows_on_both_and_fades(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    player = _player(qtbot, window)
    menu = QMenu()
    from desktop.table import add_ping_entry

    add_ping_entry(window, menu, QPointF(7.5 * SQUARE, 10.5 * SQUARE))
    entry = menu.actions()[-1]
    assert entry.text().startswith("Ping this square (7,10)")
    entry.trigger()
    assert [p.square for p in window.scene.pings()] == [Square(7, 10)]
    assert [p.square for p in player.scene.pings()] == [Square(7, 10)]
    PICTURES.mkdir(exist_ok=True)
    player.grab().toImage().save(str(PICTURES / "player_ping.png"))
    qtbot.waitUntil(lambda: not window.scene.pings() and not player.scene.pings(),
                    timeout=PING_MS + 2000)
    window.controller.ping(Square(99, 99))  # off the map: nothing
    assert not window.scene.pings()


def test_f11_toggles_full_screen_and_the_place_is_remembered(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    player = _player(qtbot, window)
    player.full_screen_action.trigger()
    assert player.isFullScreen()
    assert window.settings.value("player_view/full_screen") in (True, "true")
    assert window.settings.value("player_view/screen") == player.screen().name()
    player.full_screen_action.trigger()
    assert not player.isFullScreen()
    player.resize(700, 500)
    QApplication.processEvents()
    player.close()
    QApplication.processEvents()
    again = _player(qtbot, window)
    assert again is not player
    assert (again.width(), again.height()) == (700, 500)
    assert not again.isFullScreen()
    window.menu_actions["player_full_screen"].trigger()  # Shift+F11 from the GM's window
    assert again.isFullScreen()
    again.close()
    QApplication.processEvents()
    third = _player(qtbot, window)
    assert third.isFullScreen()  # it comes back full screen on the same screen


def test_the_gm_shows_enemy_health_to_the_players(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    player = _player(qtbot, window)
    toggle = window.menu_actions["enemy_health"]
    assert not toggle.isChecked()
    thug = player.scene.token_items["thug-1"]
    kara = player.scene.token_items["kara"]
    assert not thug.show_gauges and kara.show_gauges
    toggle.trigger()
    assert thug.show_gauges
    player.close()
    QApplication.processEvents()
    again = _player(qtbot, window)  # the choice holds for the next player view
    assert again.scene.token_items["thug-1"].show_gauges
    toggle.trigger()
    assert not again.scene.token_items["thug-1"].show_gauges
