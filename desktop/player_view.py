"""The player view: a second window for the table's TV, without GM-only information.

It shows the map and the tokens the party can see; squares no party token sees are
fogged. Enemy ammunition, tooltips and hidden tokens stay on the GM's screen. A banner
says the round and whose turn it is; pings show here as on the GM's map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QGuiApplication,
    QKeySequence,
    QMoveEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import QLabel, QMainWindow, QVBoxLayout, QWidget

from desktop.controller import EncounterController
from desktop.scene.map_scene import MapScene
from desktop.scene.party_fog import FogItem
from desktop.sight import PartySight
from desktop.tools.base import square_at
from desktop.view import MapView
from engine.encounter import EncounterState
from engine.grid import Square
from engine.tokens import Side
from engine.turns.combat import Phase

#: Where the player view keeps its place in the settings.
SETTINGS_GROUP = "player_view"
FULL_SCREEN_KEY = "F11"


def without_hidden(state: EncounterState) -> EncounterState:
    """The state with the GM-only tokens left out: the player scene never holds them."""
    if not any(token.hidden for token in state.tokens):
        return state
    return replace(state, tokens=tuple(t for t in state.tokens if not t.hidden))


class PlayerScene(MapScene):
    """A MapScene that hides what the players should not see."""

    def __init__(self, state: EncounterState, images: dict[str, bytes]) -> None:
        self.fog = FogItem()
        self.seen: frozenset[Square] | None = None
        self.sight = PartySight()
        super().__init__(without_hidden(state), images, player=True)
        self.addItem(self.fog)
        self._update_fog()

    def set_state(self, state: EncounterState, images: Mapping[str, bytes] | None = None) -> None:
        super().set_state(without_hidden(state), images)
        self._update_fog()

    def _update_fog(self) -> None:
        state = self.state
        view = self.sight.update(state)
        bm = state.battlemap
        if view is None and state.fog.empty:
            self.seen = None  # the engine cannot say, and the GM set nothing: no fog
        else:
            sight = view.squares if view is not None else frozenset(bm.squares())
            self.seen = state.fog.over(sight)
        self.fog.setVisible(self.seen is not None)
        if self.seen is not None:
            views = view.views if view is not None else None
            self.fog.set_lit(bm.width, bm.height, views, state.fog)
        for item in self.token_items.values():
            token = item.token
            hidden = (
                self.seen is not None
                and token.side is not Side.PARTY
                and not any(square in self.seen for square in token.squares)
            )
            item.setVisible(not hidden)
            item.label.setVisible(not hidden)


def turn_words(state: EncounterState, shown: dict[str, bool]) -> str:
    """What the banner says: the round and whose turn, as the players may know it.

    ``shown`` says, per token id in the player scene, whether the players see it now: a
    token they do not see (or one the GM hides) acts as "an unseen enemy"/"someone".
    """
    combat = state.combat
    if combat.phase is Phase.SETUP:
        return "Getting ready"
    if combat.phase is Phase.OVER:
        return "The fight is over"
    heading = ("Surprise round" if combat.phase is Phase.SURPRISE else "Round") + f" {combat.round}"
    active = combat.active
    if active is None:
        return heading
    if shown.get(active, False):
        return f"{heading} · {state.token(active).name}'s turn"
    token = next((t for t in state.tokens if t.id == active), None)
    if token is not None and token.side is Side.ENEMY and not token.hidden:
        return f"{heading} · an unseen enemy acts"
    return f"{heading} · someone else acts"


class PlayerWindow(QMainWindow):
    """Follows the controller; never writes back (but for pings, which write nothing).

    F11 toggles full screen. Where it was (screen, geometry, full screen) is kept in the
    ``settings`` the main window passes, so the next player view opens on the same TV.
    """

    def __init__(
        self,
        controller: EncounterController,
        parent: QWidget | None = None,
        settings: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Killbox — player view")
        self.controller = controller
        self.settings = settings
        self.show_enemy_health = False
        self.scene = PlayerScene(controller.state, dict(controller.images))
        self.view = MapView(self.scene)
        self.banner = QLabel()
        self.banner.setObjectName("playerTurnBanner")
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setStyleSheet(
            "QLabel#playerTurnBanner { background: #101216; color: #f2f2f2; "
            "font-size: 22pt; font-weight: 600; padding: 6px; }"
        )
        middle = QWidget()
        layout = QVBoxLayout(middle)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.view)
        self.setCentralWidget(middle)
        self.resize(1024, 768)
        self.full_screen_action = QAction("Full screen", self)
        self.full_screen_action.setShortcut(QKeySequence(FULL_SCREEN_KEY))
        self.full_screen_action.triggered.connect(self.toggle_full_screen)
        self.addAction(self.full_screen_action)
        controller.state_changed.connect(self._state_changed)
        controller.pinged.connect(self._pinged)
        self.view.ping_requested.connect(lambda pos: controller.ping(square_at(pos)))
        self._update_banner()

    # ---- following the encounter

    def _state_changed(self, state: EncounterState) -> None:
        if state.battlemap.background != self.scene.state.battlemap.background:
            self.scene.set_state(state, dict(self.controller.images))
        else:
            self.scene.set_state(state)
        self._update_banner()

    def _pinged(self, square: Square) -> None:
        self.scene.ping(square)

    def _update_banner(self) -> None:
        shown = {tid: item.isVisible() for tid, item in self.scene.token_items.items()}
        self.banner.setText(turn_words(self.controller.state, shown))

    def set_show_enemy_health(self, shown: bool) -> None:
        """The GM's choice: the players see enemies' health bars too (kept over reloads)."""
        self.show_enemy_health = shown
        self.scene.set_show_enemy_health(shown)

    def reload(self) -> None:
        """A new document was opened: rebuild the scene."""
        self.scene = PlayerScene(self.controller.state, dict(self.controller.images))
        self.scene.set_show_enemy_health(self.show_enemy_health)
        self.view.set_scene(self.scene)
        self.view.fit_map()
        self._update_banner()

    # ---- the screen it shows on

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()
        self.remember_place()

    def remember_place(self) -> None:
        if self.settings is None:
            return
        self.settings.setValue(f"{SETTINGS_GROUP}/geometry", self.saveGeometry())
        self.settings.setValue(f"{SETTINGS_GROUP}/full_screen", self.isFullScreen())
        self.settings.setValue(f"{SETTINGS_GROUP}/screen", self.screen().name())

    def show_in_place(self) -> None:
        """Show where the last player view was: its screen (if still there), its size, and
        full screen if it was."""
        settings = self.settings
        if settings is None:
            self.show()
            return
        geometry = settings.value(f"{SETTINGS_GROUP}/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        name = str(settings.value(f"{SETTINGS_GROUP}/screen", "") or "")
        screen = next((s for s in QGuiApplication.screens() if s.name() == name), None)
        if screen is not None and screen is not self.screen():
            self.setScreen(screen)
            self.move(screen.availableGeometry().topLeft())
        if str(settings.value(f"{SETTINGS_GROUP}/full_screen", False)).lower() == "true":
            self.showFullScreen()
        else:
            self.show()

    def moveEvent(self, event: QMoveEvent) -> None:
        super().moveEvent(event)
        if self.isVisible():
            self.remember_place()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.isVisible():
            self.remember_place()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.remember_place()
        self.controller.state_changed.disconnect(self._state_changed)
        self.controller.pinged.disconnect(self._pinged)
        super().closeEvent(event)
