"""On the GM's map: the squares the GM revealed to the players or hid from them by hand.

Hidden squares are shaded and hatched, revealed ones outlined in dashes, so the GM sees at
a glance what the player view shows beyond (or keeps from) the party's sight.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.square_outline import squares_path
from engine.fog import ManualFog

HIDDEN_SHADE = QColor(10, 12, 20, 130)
HIDDEN_HATCH = QColor(200, 120, 255, 150)
REVEALED_EDGE = QColor(120, 230, 255, 220)


class FogMarksItem(QGraphicsItem):
    def __init__(self) -> None:
        super().__init__()
        self.setZValue(style.Z_FOG)
        self.fog = ManualFog()
        self._hidden = squares_path(set())
        self._revealed = squares_path(set())

    def set_fog(self, fog: ManualFog) -> None:
        if fog == self.fog:
            return
        self.prepareGeometryChange()
        self.fog = fog
        self._hidden = squares_path(fog.hidden)
        self._revealed = squares_path(fog.revealed)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._hidden.boundingRect().united(self._revealed.boundingRect()).adjusted(
            -3, -3, 3, 3
        )

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(HIDDEN_SHADE)
        painter.drawPath(self._hidden)
        painter.setBrush(QBrush(HIDDEN_HATCH, Qt.BrushStyle.BDiagPattern))
        painter.drawPath(self._hidden)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(REVEALED_EDGE, 3, Qt.PenStyle.DashLine))
        painter.drawPath(self._revealed)
