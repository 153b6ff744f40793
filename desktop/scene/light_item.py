"""A light on the GM's map: a small bulb at its place and a faint glow out to its reach.

The player view leaves lights out (they are a preparation detail, not part of the picture)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QRadialGradient
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.style import SQUARE, scene_point
from engine.battlemap import Light

BULB_RADIUS = 6.0


def light_colour(light: Light) -> QColor:
    """The light's colour: the model keeps CSS ``#rrggbbaa``, Qt reads alpha first."""
    text = light.colour
    colour = QColor(f"#{text[7:9]}{text[1:7]}" if len(text) == 9 else text)
    return colour if colour.isValid() else QColor("white")


class LightItem(QGraphicsItem):
    def __init__(self, light: Light) -> None:
        super().__init__()
        self.light = light
        self.setPos(scene_point(light.position))
        self.setZValue(style.Z_COVER)
        self.setToolTip(f"Light, reach {light.range:g} squares")
        self._reach = light.range * SQUARE

    def boundingRect(self) -> QRectF:
        r = max(self._reach, BULB_RADIUS) + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        colour = light_colour(self.light)
        glow = QRadialGradient(QPointF(0, 0), self._reach)
        inner = QColor(colour)
        inner.setAlpha(60)
        outer = QColor(colour)
        outer.setAlpha(0)
        glow.setColorAt(0, inner)
        glow.setColorAt(1, outer)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(glow)
        painter.drawEllipse(QPointF(0, 0), self._reach, self._reach)
        painter.setPen(QPen(QColor("#101215"), 2))
        painter.setBrush(QColor("#ffd54a"))
        painter.drawEllipse(QPointF(0, 0), BULB_RADIUS, BULB_RADIUS)
