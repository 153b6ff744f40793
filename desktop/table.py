"""At the table: pings, the player view's full screen and what it shows of the enemies.

``install_table`` adds to a main window: P over the map (or "Ping this square" on a right
click) pings the square on the GM's map and the player view; View > Full screen (F11),
View > Player view full screen (Shift+F11) and View > Show enemies' health to the players
(a toggle the player view follows, opened or not), none of which changes the encounter;
View > Clear the hand-set fog, and a token's "Hide from the players", which are commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from desktop.tools.base import square_at
from engine.fog import FogMode
from engine.grid import Square
from engine.rules.base import Command, CommandError

if TYPE_CHECKING:
    from desktop.main_window import MainWindow

#: The settings key of the enemy-health toggle.
ENEMY_HEALTH_KEY = "player_view/show_enemy_health"


def install_table(window: MainWindow) -> None:
    window.controller.pinged.connect(lambda square: window.scene.ping(square))
    window.view.ping_requested.connect(lambda pos: window.controller.ping(square_at(pos)))
    view_menu = window.menus["View"]
    view_menu.addSeparator()
    entries = (
        ("full_screen", "&Full screen", "F11", lambda: toggle_full_screen(window)),
        ("player_full_screen", "Player view full scr&een", "Shift+F11",
         lambda: player_full_screen(window)),
    )
    for key, text, shortcut, slot in entries:
        action = QAction(text, window)
        action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False, s=slot: s())
        view_menu.addAction(action)
        window.menu_actions[key] = action
    health = QAction("Show enemies' &health to the players", window)
    health.setCheckable(True)
    health.setChecked(str(window.settings.value(ENEMY_HEALTH_KEY, False)).lower() == "true")
    health.toggled.connect(lambda shown: show_enemy_health(window, shown))
    view_menu.addAction(health)
    window.menu_actions["enemy_health"] = health
    clear = QAction("Clear the hand-set &fog", window)
    clear.triggered.connect(lambda _checked=False: clear_fog(window))
    view_menu.addAction(clear)
    window.menu_actions["clear_fog"] = clear


def toggle_full_screen(window: MainWindow) -> None:
    if window.isFullScreen():
        window.showNormal()
    else:
        window.showFullScreen()


def player_full_screen(window: MainWindow) -> None:
    player = window.player_window or window.show_player_view()
    player.toggle_full_screen()


def show_enemy_health(window: MainWindow, shown: bool) -> None:
    window.settings.setValue(ENEMY_HEALTH_KEY, shown)
    if window.player_window is not None:
        window.player_window.set_show_enemy_health(shown)
    window.statusBar().showMessage(
        "The players see enemies' health" if shown else "Enemies' health is the GM's only", 4000
    )


def enemy_health_shown(window: MainWindow) -> bool:
    return bool(window.menu_actions["enemy_health"].isChecked())


def clear_fog(window: MainWindow) -> None:
    """Every square the GM revealed or hid goes back to the party's sight (one undo step)."""
    send(window, Command.build("set_fog", mode=FogMode.AUTOMATIC.value, all=True))


def add_hide_entry(window: MainWindow, menu: QMenu, token_id: str) -> None:
    """Hide a token from the players (GM only) or show it again: the engine's edit_token."""
    token = window.controller.state.token(token_id)
    text = f"Show {token.name} to the players" if token.hidden else (
        f"Hide {token.name} from the players"
    )
    command = Command.build("edit_token", targets=[token_id], hidden=not token.hidden)
    menu.addAction(text, lambda: send(window, command))


def send(window: MainWindow, command: Command) -> None:
    try:
        events = window.controller.apply(command)
    except CommandError as error:
        window.statusBar().showMessage(str(error), 6000)
        return
    if events:
        window.statusBar().showMessage(events[-1].text, 4000)


def add_ping_entry(window: MainWindow, menu: QMenu, scene_pos: QPointF) -> None:
    square: Square = square_at(scene_pos)
    menu.addAction(f"Ping this square {square} (P)", lambda: window.controller.ping(square))
