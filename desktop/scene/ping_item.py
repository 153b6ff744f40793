"""A ping: rings that spread from a square for a moment, so everyone at the table looks there."""

from __future__ import annotations

from PySide6.QtCore import QObject, QRectF, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.style import SQUARE
from engine.grid import Square

PING = QColor("#ff3df2")
#: How long a ping shows, in milliseconds.
PING_MS = 2400
#: The rings spread to this many squares around the pinged one.
REACH = 3.0
RINGS = 3


class PingItem(QGraphicsItem):
    """Rings spreading from the square's centre; the item removes itself when done."""

    def __init__(self, square: Square, owner: QObject) -> None:
        """``owner`` (the scene) owns the animation, so closing the window stops it."""
        super().__init__()
        self.square = square
        self.setZValue(style.Z_LABELS + 5)  # above fog, tokens and labels
        self.setPos((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE)
        self.progress = 0.0
        self.animation = QVariantAnimation(owner)
        self.animation.setStartValue(0.0)
        self.animation.setEndValue(1.0)
        self.animation.setDuration(PING_MS)
        self.animation.valueChanged.connect(self._advance)
        self.animation.finished.connect(self._done)

    def start(self) -> None:
        self.animation.start()

    def _advance(self, value: float) -> None:
        """The animation's value, from 0.0 to 1.0 (its start and end values are floats)."""
        self.progress = value
        self.update()

    def _done(self) -> None:
        self.animation.deleteLater()
        scene = self.scene()
        if scene is not None:
            scene.removeItem(self)

    def boundingRect(self) -> QRectF:
        radius = (REACH + 0.2) * SQUARE
        return QRectF(-radius, -radius, 2 * radius, 2 * radius)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        half = SQUARE / 2
        painter.setPen(QPen(PING, 4))
        painter.drawRect(QRectF(-half, -half, SQUARE, SQUARE))  # the square itself
        for ring in range(RINGS):
            phase = (self.progress * 2 + ring / RINGS) % 1.0
            radius = half + phase * (REACH - 0.5) * SQUARE
            colour = QColor(PING)
            colour.setAlphaF(max(0.0, 1.0 - phase) * (1.0 - self.progress * 0.5))
            painter.setPen(QPen(colour, 7))
            painter.drawEllipse(QRectF(-radius, -radius, 2 * radius, 2 * radius))
