"""Overlay items for the rule tools: filled areas, numbered squares, token rings.

Everything here only draws what it is given (paths made by ``desktop.shapes`` from the
engine's geometry, squares and texts the engine chose); none of it decides a rule.
Fills are semi-transparent so the map and tokens stay readable under them.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.fit_text import FittedText, fit_text
from desktop.scene.style import SQUARE
from engine.grid import Square

# Colours of the rule overlays: one meaning each, the same in every tool.
AREA = QColor(255, 170, 40)  # a template or area being laid
AREA_BAD = QColor(255, 77, 79)  # the rules forbid this area or square
GOOD = QColor(61, 220, 132)  # allowed targets and destinations
INFO = QColor(110, 180, 255)  # neutral information (sight, bands)
PATH = QColor(255, 236, 120)


def translucent(colour: QColor, alpha: int) -> QColor:
    faded = QColor(colour)
    faded.setAlpha(alpha)
    return faded


class AreaItem(QGraphicsPathItem):
    """A filled outline (template, cone, band) with a bright edge and a soft fill."""

    def __init__(
        self, path: QPainterPath, colour: QColor, fill_alpha: int = 70, dashed: bool = False
    ) -> None:
        super().__init__(path)
        self.setBrush(QBrush(translucent(colour, fill_alpha)))
        pen = QPen(colour, 3, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        pen.setCosmetic(False)
        self.setPen(pen)
        self.setZValue(style.Z_OVERLAY)


#: Where a square mark's label goes (inside the square's border, clear of the halo), and
#: its largest and smallest pixel sizes: one number reads large, "+4 Defense" smaller.
MARK_TEXT_BOX = QRectF(6, 4, SQUARE - 12, SQUARE - 8)
MARK_TEXT_SIZES = (SQUARE * 0.4, SQUARE * 0.16)


@lru_cache(maxsize=512)
def fitted_mark_label(label: str) -> FittedText:
    """``label`` fitted to a square mark, measured once: a preview rebuilt on every hover
    repeats the same few labels ("+4 Defense"), and fitting one costs about 0.2 ms."""
    return fit_text(label, MARK_TEXT_BOX, *MARK_TEXT_SIZES)


class SquareMarkItem(QGraphicsItem):
    """One square tinted, with a short centred label and its own tooltip (a reason)."""

    def __init__(
        self, square: Square, colour: QColor, label: str = "", tooltip: str = "", alpha: int = 110
    ) -> None:
        super().__init__()
        self.square = square
        self.label = label
        self.colour = colour
        self._alpha = alpha
        self.setPos(square.x * SQUARE, square.y * SQUARE)
        self.setZValue(style.Z_OVERLAY)
        if tooltip:
            self.setToolTip(tooltip)
        #: The label's font and lines, measured to fit inside the square.
        self.fitted = fitted_mark_label(label) if label else None

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, SQUARE, SQUARE)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        inner = QRectF(2, 2, SQUARE - 4, SQUARE - 4)
        painter.setPen(QPen(self.colour, 3))
        painter.setBrush(translucent(self.colour, self._alpha))
        painter.drawRoundedRect(inner, 6, 6)
        if self.fitted is None:
            return
        painter.setFont(self.fitted.font)
        text = self.fitted.text
        # A dark halo behind the text keeps it readable over any map picture.
        painter.setPen(QPen(QColor(0, 0, 0, 220), 1))
        for dx, dy in ((-1.5, 0), (1.5, 0), (0, -1.5), (0, 1.5)):
            painter.drawText(MARK_TEXT_BOX.translated(dx, dy), Qt.AlignmentFlag.AlignCenter, text)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(MARK_TEXT_BOX, Qt.AlignmentFlag.AlignCenter, text)


class TokenRingItem(QGraphicsItem):
    """A thick ring round a token's footprint: a highlighted target (green) or refused (red)."""

    def __init__(
        self, square: Square, size: int, colour: QColor, tooltip: str = "", dashed: bool = False
    ) -> None:
        super().__init__()
        self.colour = colour
        self._size = size * SQUARE
        self._dashed = dashed
        self.setPos(square.x * SQUARE, square.y * SQUARE)
        self.setZValue(style.Z_OVERLAY)
        if tooltip:
            self.setToolTip(tooltip)

    def boundingRect(self) -> QRectF:
        return QRectF(-6, -6, self._size + 12, self._size + 12)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, self._size, self._size).adjusted(-2, -2, 2, 2)
        painter.setPen(QPen(QColor(0, 0, 0, 180), 8))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(rect)
        style_ = Qt.PenStyle.DashLine if self._dashed else Qt.PenStyle.SolidLine
        painter.setPen(QPen(self.colour, 5, style_))
        painter.drawEllipse(rect)


def token_centre(square: Square, size: int) -> QPointF:
    return QPointF((square.x + size / 2) * SQUARE, (square.y + size / 2) * SQUARE)
