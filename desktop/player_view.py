"""The player view: a second window for the table's TV, without GM-only information.

It shows the map and the tokens the party can see; squares no party token sees are
fogged. Enemy ammunition, tooltips and hidden tokens stay on the GM's screen. A banner
says the round and whose turn it is; pings show here as on the GM's map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QByteArray, QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QGuiApplication,
    QImage,
    QKeySequence,
    QMoveEvent,
    QPainter,
    QPainterPath,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import QGraphicsItem, QLabel, QMainWindow, QVBoxLayout, QWidget

from desktop.controller import EncounterController
from desktop.scene import style
from desktop.scene.map_scene import MapScene
from desktop.scene.style import SQUARE
from desktop.sight import PartySight
from desktop.tools.base import square_at
from desktop.view import MapView
from engine.encounter import EncounterState
from engine.fog import ManualFog
from engine.grid import Square
from engine.tokens import Side
from engine.turns.combat import Phase

#: Where the player view keeps its place in the settings.
SETTINGS_GROUP = "player_view"
FULL_SCREEN_KEY = "F11"

#: Longest side of the fog picture, in pixels (a 200x200 map gets 4 pixels a square).
FOG_PICTURE_SIDE = 800


class FogItem(QGraphicsItem):
    """Darkness over the map except where the party sees.

    The lit regions are the engine's visibility polygons (one per sight corner of each
    party token), filled out of a fog picture of the map: Qt's scan converter unites them
    as it fills, so no polygon union is worked out, and each token's polygons are made
    once per answer (a token that did not move keeps them). The picture is drawn scaled
    and smoothed over the map, so the fog's edge is soft.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(style.Z_FOG)
        self._image = QImage()
        self._rect = QRectF()
        self._rings: dict[int, tuple[object, QPainterPath]] = {}
        self._drawn: tuple[object, ...] = ()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: object, widget: object = None) -> None:
        if self._image.isNull():
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(self._rect, self._image)

    def set_lit(
        self, width: int, height: int, views: tuple[Any, ...] | None, by_hand: ManualFog
    ) -> None:
        """Fog the width x height map except the regions ``views`` (the party tokens'
        ``VisibleSquares``; None: the whole map) see, then the GM's hand-set fog over it
        (squares revealed cleared, squares hidden fogged)."""
        key = (width, height, None if views is None else tuple(map(id, views)), by_hand)
        if key == self._drawn and all(id(view) in self._rings for view in views or ()):
            return  # nobody in the party moved, the map and the hand fog are the same
        self._drawn = key
        scale = FOG_PICTURE_SIDE / max(width, height, 1)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        if self._image.size().toTuple() != size:
            self._image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
        self._image.fill(style.FOG if views is not None else Qt.GlobalColor.transparent)
        rings: dict[int, tuple[object, QPainterPath]] = {}
        lit = QPainterPath()
        lit.setFillRule(Qt.FillRule.WindingFill)
        for view in views or ():
            known = self._rings.get(id(view))
            path = known[1] if known is not None and known[0] is view else _outline_path(view)
            rings[id(view)] = (view, path)
            lit.addPath(path)
        self._rings = rings
        painter = QPainter(self._image)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationOut)
        painter.scale(size[0] / max(width, 1), size[1] / max(height, 1))
        # Every ring winds the same way round its origin (points in angle order), so the
        # winding fill of all of them at once is their union.
        painter.fillPath(lit, Qt.GlobalColor.black)
        for square in by_hand.revealed:
            painter.fillRect(QRectF(square.x, square.y, 1, 1), Qt.GlobalColor.black)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        for square in by_hand.hidden:
            painter.fillRect(QRectF(square.x, square.y, 1, 1), style.FOG)
        painter.end()
        rect = QRectF(0, 0, width * SQUARE, height * SQUARE)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
        self.update()

    def fogged(self, point: QPointF) -> bool:
        """Whether the fog hides the scene point (more than half dark)."""
        if self._image.isNull() or not self._rect.contains(point):
            return False
        x = int(point.x() / self._rect.width() * self._image.width())
        y = int(point.y() / self._rect.height() * self._image.height())
        return self._image.pixelColor(x, y).alpha() > style.FOG.alpha() // 2


def _outline_path(view: Any) -> QPainterPath:
    """A token's visibility regions (map squares), one closed ring per sight corner."""
    xs, ys, counts = view.outlines
    points = [QPointF(x, y) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    start = 0
    for count in counts.tolist():
        path.addPolygon(QPolygonF(points[start : start + count]))
        path.closeSubpath()
        start += count
    return path


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

    def set_state(
        self, state: EncounterState, images: Mapping[str, bytes] | None = None
    ) -> None:
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
