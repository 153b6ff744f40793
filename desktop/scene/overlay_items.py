"""Items tools draw on top of the map: layers, routes, text tags, square highlights, shapes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.style import SQUARE
from engine.grid import Square


class LayerItem(QGraphicsItem):
    """An invisible parent that groups overlay items so they can be cleared together."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        pass


def detach(item: QGraphicsItem) -> None:
    """Take an item off its parent and out of its scene (its children go with it)."""
    scene = item.scene()
    # Qt takes a null parent to make an item top-level; PySide6's stub types the argument
    # as a QGraphicsItem only, though the binding accepts None.
    item.setParentItem(None)  # type: ignore[arg-type]
    if scene is not None:
        scene.removeItem(item)


def centre(square: Square) -> QPointF:
    return QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE)


class RouteItem(QGraphicsPathItem):
    """A path through square centres, with a dot on every square it enters; a faint one
    (background, such as where a weapon could fly) is thin, with no shadow and small dots."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(style.Z_OVERLAY)
        self._dots: list[QPointF] = []
        self._colour = style.ROUTE_OK
        self.faint = False

    def set_route(
        self, squares: Sequence[Square], colour: QColor, offset: float = 0.0, faint: bool = False
    ) -> None:
        """``offset`` shifts the line so big tokens route by their centre, not their corner."""
        path = QPainterPath()
        points = [centre(s) + QPointF(offset, offset) for s in squares]
        if points:
            path.moveTo(points[0])
            for point in points[1:]:
                path.lineTo(point)
        self._dots = points[1:]
        self._colour = colour
        self.faint = faint
        self.setPath(path)
        pen = QPen(self._colour, 3 if faint else 6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self.setPen(pen)

    def boundingRect(self) -> QRectF:
        return super().boundingRect().adjusted(-10, -10, 10, 10)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if not self.faint:  # a dark edge lifts a route off any map picture; a hint stays soft
            shadow = QPen(QColor(0, 0, 0, 150), 10, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            shadow.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(shadow)
            painter.drawPath(self.path())
        painter.setPen(self.pen())
        painter.drawPath(self.path())
        painter.setPen(QPen(QColor(0, 0, 0, 80 if self.faint else 200), 1.5))
        painter.setBrush(self._colour)
        radius = 3 if self.faint else 6
        for point in self._dots:
            painter.drawEllipse(point, radius, radius)


class TagItem(QGraphicsItem):
    """A short text on a dark rounded plate (cost, reasons, names); lines split on newlines."""

    #: How the lines sit on the plate (long wrapped reasons read better flush left).
    alignment = Qt.AlignmentFlag.AlignCenter

    def __init__(self, text: str = "", colour: QColor | None = None, size: float = 13) -> None:
        super().__init__()
        self.setZValue(style.Z_LABELS + 1)
        self._colour = colour or QColor("#ffffff")
        self._font = style.label_font(size)
        self._text = ""
        self._rect = QRectF()
        self.set_text(text)

    def set_text(self, text: str, colour: QColor | None = None) -> None:
        self.prepareGeometryChange()
        self._text = text
        if colour is not None:
            self._colour = colour
        metrics = QFontMetricsF(self._font)
        lines = text.split("\n") if text else [""]
        width = max(metrics.horizontalAdvance(line) for line in lines) + 14
        height = metrics.height() * len(lines) + 8
        self._rect = QRectF(0, 0, width, height)
        self.update()

    @property
    def text(self) -> str:
        return self._text

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self._colour, 1.5))
        painter.setBrush(QBrush(QColor(12, 14, 18, 225)))
        painter.drawRoundedRect(self._rect, 6, 6)
        painter.setFont(self._font)
        painter.setPen(self._colour)
        painter.drawText(self._rect.adjusted(7, 0, -7, 0), self.alignment, self._text)


class SquaresItem(QGraphicsPathItem):
    """A set of squares tinted in one colour (reach, areas, visible squares)."""

    def __init__(self, colour: QColor, outline: QColor | None = None) -> None:
        super().__init__()
        self.setBrush(colour)
        self.setPen(QPen(outline, 2) if outline is not None else QPen(Qt.PenStyle.NoPen))
        self.setZValue(style.Z_OVERLAY_BELOW_TOKENS)

    def set_squares(self, squares: Sequence[Square] | frozenset[Square]) -> None:
        path = QPainterPath()
        for square in squares:
            path.addRect(QRectF(square.x * SQUARE, square.y * SQUARE, SQUARE, SQUARE))
        self.setPath(path)


class SightLinesItem(QGraphicsItem):
    """Lines from one point to the centres of the tokens it sees (one item, many lines)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(style.Z_OVERLAY_BELOW_TOKENS + 1)
        self._origin = QPointF()
        self._targets: list[QPointF] = []
        self._rect = QRectF()

    def set_lines(self, origin: QPointF, targets: Sequence[QPointF]) -> None:
        self.prepareGeometryChange()
        self._origin = origin
        self._targets = list(targets)
        # Not QRectF.united: it skips zero-size rectangles, so a union of points is just
        # the last point, and lines drawn outside their bounds leave stale trails.
        xs = [origin.x(), *(t.x() for t in self._targets)]
        ys = [origin.y(), *(t.y() for t in self._targets)]
        left, top = min(xs), min(ys)
        rect = QRectF(left, top, max(xs) - left, max(ys) - top)
        self._rect = rect.adjusted(-4, -4, 4, 4)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(255, 236, 120, 210), 2.5, Qt.PenStyle.DashLine))
        for target in self._targets:
            painter.drawLine(self._origin, target)
