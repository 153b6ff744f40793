"""The player view: a second window for the table's TV, without GM-only information.

It shows the map and the tokens the party can see; squares no party token sees are
fogged. Enemy ammunition, tooltips and hidden tokens stay on the GM's screen.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QCloseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QMainWindow, QWidget

from desktop.controller import EncounterController
from desktop.scene import style
from desktop.scene.map_scene import MapScene
from desktop.scene.style import SQUARE
from desktop.sight import party_sees
from desktop.view import MapView
from engine.encounter import EncounterState
from engine.grid import Square
from engine.tokens import Side


class FogItem(QGraphicsPathItem):
    """Darkness over every square the party does not see."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(style.Z_FOG)
        self.setBrush(style.FOG)
        self.setPen(QPen(Qt.PenStyle.NoPen))

    def set_visible_squares(self, width: int, height: int, seen: frozenset[Square]) -> None:
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        path.addRect(QRectF(0, 0, width * SQUARE, height * SQUARE))
        lit = QPainterPath()
        for square in seen:
            lit.addRect(QRectF(square.x * SQUARE, square.y * SQUARE, SQUARE, SQUARE))
        path.addPath(lit.simplified())
        self.setPath(path)


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
        super().__init__(without_hidden(state), images, player=True)
        self.addItem(self.fog)
        self._update_fog()

    def set_state(self, state: EncounterState, images: object = None) -> None:
        super().set_state(without_hidden(state), images)  # type: ignore[arg-type]
        self._update_fog()

    def _update_fog(self) -> None:
        state = self.state
        self.seen = party_sees(state)
        bm = state.battlemap
        self.fog.setVisible(self.seen is not None)
        if self.seen is not None:
            self.fog.set_visible_squares(bm.width, bm.height, self.seen)
        for item in self.token_items.values():
            token = item.token
            hidden = (
                self.seen is not None
                and token.side is not Side.PARTY
                and not any(square in self.seen for square in token.squares)
            )
            item.setVisible(not hidden)
            item.label.setVisible(not hidden)


class PlayerWindow(QMainWindow):
    """Follows the controller; never writes back."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Killbox — player view")
        self.controller = controller
        self.scene = PlayerScene(controller.state, dict(controller.images))
        self.view = MapView(self.scene)
        self.setCentralWidget(self.view)
        self.resize(1024, 768)
        controller.state_changed.connect(self._state_changed)

    def _state_changed(self, state: EncounterState) -> None:
        if state.battlemap.background != self.scene.state.battlemap.background:
            self.scene.set_state(state, dict(self.controller.images))
        else:
            self.scene.set_state(state)

    def reload(self) -> None:
        """A new document was opened: rebuild the scene."""
        self.scene = PlayerScene(self.controller.state, dict(self.controller.images))
        self.view.set_scene(self.scene)
        self.view.fit_map()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.controller.state_changed.disconnect(self._state_changed)
        super().closeEvent(event)
