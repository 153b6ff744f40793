"""Graphics items for the static parts of the map: background, grid, terrain, cover, walls, doors.

Each item draws one engine value; none of them decides a rule. Tokens live in ``token_item``.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPixmapItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from desktop.scene import style
from desktop.scene.style import SQUARE, scene_point
from engine.battlemap import (
    BattleMap,
    CoverObject,
    Portal,
    PortalKind,
    PortalState,
    TerrainKind,
    TerrainPatch,
    Wall,
)
from engine.grid import Square


class FloorItem(QGraphicsItem):
    """A plain floor colour under maps that have no picture."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self._rect = QRectF(0, 0, width * SQUARE, height * SQUARE)
        self.setZValue(style.Z_BACKGROUND - 1)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.fillRect(self._rect, style.FLOOR)


def background_item(image: QImage, width: int, height: int) -> QGraphicsPixmapItem:
    """The map picture stretched over the map bounds."""
    item = QGraphicsPixmapItem(QPixmap.fromImage(image))
    item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
    sx = width * SQUARE / max(1, image.width())
    sy = height * SQUARE / max(1, image.height())
    item.setTransform(QTransform.fromScale(sx, sy))
    item.setZValue(style.Z_BACKGROUND)
    item.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
    return item


class GridItem(QGraphicsItem):
    """Grid lines, drawn only where the view is exposed (cheap on a 200x200 map)."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self._width = width
        self._height = height
        self._rect = QRectF(0, 0, width * SQUARE, height * SQUARE)
        self.setZValue(style.Z_GRID)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        exposed = option.exposedRect.intersected(self._rect)  # type: ignore[attr-defined]
        if exposed.isEmpty():
            return
        x0 = max(0, math.floor(exposed.left() / SQUARE))
        x1 = min(self._width, math.ceil(exposed.right() / SQUARE))
        y0 = max(0, math.floor(exposed.top() / SQUARE))
        y1 = min(self._height, math.ceil(exposed.bottom() / SQUARE))
        minor = [
            QLineF(x * SQUARE, y0 * SQUARE, x * SQUARE, y1 * SQUARE)
            for x in range(x0, x1 + 1)
            if x % 5
        ] + [
            QLineF(x0 * SQUARE, y * SQUARE, x1 * SQUARE, y * SQUARE)
            for y in range(y0, y1 + 1)
            if y % 5
        ]
        major = [
            QLineF(x * SQUARE, y0 * SQUARE, x * SQUARE, y1 * SQUARE)
            for x in range(x0, x1 + 1)
            if x % 5 == 0
        ] + [
            QLineF(x0 * SQUARE, y * SQUARE, x1 * SQUARE, y * SQUARE)
            for y in range(y0, y1 + 1)
            if y % 5 == 0
        ]
        pen = QPen(style.GRID_LINE, 0)  # cosmetic: one device pixel at any zoom
        painter.setPen(pen)
        painter.drawLines(minor)
        pen = QPen(style.GRID_LINE_MAJOR, 0)
        painter.setPen(pen)
        painter.drawLines(major)


def squares_path(squares: frozenset[Square] | set[Square]) -> QPainterPath:
    """The outline of a set of squares, merged into one path."""
    path = QPainterPath()
    for square in squares:
        path.addRect(QRectF(square.x * SQUARE, square.y * SQUARE, SQUARE, SQUARE))
    return path.simplified()


class TerrainItem(QGraphicsPathItem):
    """A terrain patch: amber hatching for difficult ground, red cross-hatch for impassable."""

    def __init__(self, patch: TerrainPatch) -> None:
        super().__init__(squares_path(patch.squares))
        self.patch = patch
        fill = style.TERRAIN_FILL[patch.kind]
        self.setBrush(fill)
        edge = QColor(fill)
        edge.setAlpha(200)
        self.setPen(QPen(edge, 2, Qt.PenStyle.DashLine))
        self.setZValue(style.Z_TERRAIN)
        self.setToolTip(f"{patch.name}: {patch.kind.value} terrain")

    def _caption(self) -> tuple[QRectF, str]:
        first = min(self.patch.squares, key=lambda sq: (sq.y, sq.x))
        caption = f"{self.patch.name} · {self.patch.kind.value}"
        width = QFontMetricsF(style.label_font(10)).horizontalAdvance(caption) + 8
        return QRectF(first.x * SQUARE + 3, first.y * SQUARE + 3, width, 15), caption

    def boundingRect(self) -> QRectF:
        if not self.patch.squares:
            return super().boundingRect()
        return super().boundingRect().united(self._caption()[0])

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        super().paint(painter, option, widget)
        if not self.patch.squares:
            return
        hatch = QColor(self.brush().color())
        hatch.setAlpha(150)
        pattern = (
            Qt.BrushStyle.DiagCrossPattern
            if self.patch.kind is TerrainKind.IMPASSABLE
            else Qt.BrushStyle.BDiagPattern
        )
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(hatch, pattern))
        painter.drawPath(self.path())
        # Caption in the patch's top-left square, so the GM knows what the hatching means.
        rect, caption = self._caption()
        painter.setFont(style.label_font(10))
        painter.setBrush(QColor(15, 17, 20, 190))
        painter.drawRoundedRect(rect, 3, 3)
        text = QColor(self.brush().color())
        text.setAlpha(255)
        painter.setPen(text.lighter(140))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, caption)


class CoverItem(QGraphicsPathItem):
    """A cover object (crate, car, low wall) tinted by its cover grade, with a grade badge."""

    def __init__(self, cover: CoverObject) -> None:
        polygon = QPolygonF([scene_point(p) for p in cover.outline])
        path = QPainterPath()
        path.addPolygon(polygon)
        path.closeSubpath()
        super().__init__(path)
        self.cover = cover
        self.setBrush(style.COVER_FILL[cover.grade])
        edge = QColor(style.COVER_FILL[cover.grade])
        edge.setAlpha(255)
        self.setPen(QPen(edge.darker(130), 4 if cover.blocks_sight else 2))
        self.setZValue(style.Z_COVER)
        sight = "blocks sight" if cover.blocks_sight else "does not block sight"
        self.setToolTip(
            f"{cover.name}: {cover.grade.value.replace('_', ' ')} cover, "
            f"{cover.height_ft:g} ft high, {sight}"
        )

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        super().paint(painter, option, widget)
        rect = self.path().boundingRect()
        radius = min(14.0, rect.width() / 2.5, rect.height() / 2.5)
        if radius < 6:
            return
        centre = rect.center()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor(0, 0, 0, 200), 1.5))
        painter.setBrush(QColor(255, 255, 255, 215))
        painter.drawEllipse(centre, radius, radius)
        painter.setFont(style.label_font(radius * 1.3))
        painter.setPen(QColor("#202020"))
        painter.drawText(
            QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius),
            Qt.AlignmentFlag.AlignCenter,
            style.COVER_LABEL[self.cover.grade],
        )


class WallsItem(QGraphicsItem):
    """Every wall of the map in one item: a pale edge under a dark core, styled by what blocks."""

    def __init__(self, walls: tuple[Wall, ...]) -> None:
        super().__init__()
        self._solid = QPainterPath()
        self._sight_only = QPainterPath()
        self._move_only = QPainterPath()
        for wall in walls:
            if wall.blocks_sight and wall.blocks_movement:
                target = self._solid
            elif wall.blocks_sight:
                target = self._sight_only
            else:
                target = self._move_only
            target.moveTo(scene_point(wall.start))
            target.lineTo(scene_point(wall.end))
        self._rect = (
            self._solid.boundingRect()
            .united(self._sight_only.boundingRect())
            .united(self._move_only.boundingRect())
            .adjusted(-8, -8, 8, 8)
        )
        self.setZValue(style.Z_WALLS)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        stroker = QPainterPathStroker()
        stroker.setWidth(10)
        return stroker.createStroke(self._solid)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        cap = Qt.PenCapStyle.RoundCap
        join = Qt.PenJoinStyle.RoundJoin
        painter.setPen(QPen(style.WALL_EDGE, 11, Qt.PenStyle.SolidLine, cap, join))
        painter.drawPath(self._solid)
        painter.setPen(QPen(style.WALL, 7, Qt.PenStyle.SolidLine, cap, join))
        painter.drawPath(self._solid)
        painter.setPen(QPen(style.WALL_SIGHT_ONLY, 6, Qt.PenStyle.DashLine, cap, join))
        painter.drawPath(self._sight_only)
        painter.setPen(QPen(style.WALL_MOVE_ONLY, 5, Qt.PenStyle.DotLine, cap, join))
        painter.drawPath(self._move_only)


class PortalItem(QGraphicsItem):
    """A door or window, drawn by kind and state so the GM reads it at a glance.

    Closed door: a wooden bar. Locked door: a red bar with a lock. Open door: the leaf swung
    open from its hinge (the start point) and a dashed gap. Window: a pale blue pane; open
    windows are dashed.
    """

    def __init__(self, portal: Portal) -> None:
        super().__init__()
        self.setZValue(style.Z_PORTALS)
        self.portal = portal
        self.set_portal(portal)

    def set_portal(self, portal: Portal) -> None:
        self.prepareGeometryChange()
        self.portal = portal
        a, b = scene_point(portal.start), scene_point(portal.end)
        length = math.hypot(b.x() - a.x(), b.y() - a.y())
        self._rect = (
            QRectF(a, b).normalized().adjusted(-length - 10, -length - 10, length + 10, length + 10)
        )
        self.setToolTip(f"{portal.kind.value} {portal.id}: {portal.state.value}")
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        path = QPainterPath(scene_point(self.portal.start))
        path.lineTo(scene_point(self.portal.end))
        stroker = QPainterPathStroker()
        stroker.setWidth(14)
        return stroker.createStroke(path)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        portal = self.portal
        a, b = scene_point(portal.start), scene_point(portal.end)
        line = QLineF(a, b)
        colour = style.portal_colour(portal.kind, portal.state)
        flat = Qt.PenCapStyle.FlatCap
        if portal.kind is PortalKind.WINDOW:
            if portal.state is PortalState.OPEN:
                painter.setPen(QPen(colour, 5, Qt.PenStyle.DashLine, flat))
                painter.drawLine(line)
                return
            painter.setPen(QPen(style.WALL, 11, Qt.PenStyle.SolidLine, flat))
            painter.drawLine(line)
            painter.setPen(QPen(colour, 6, Qt.PenStyle.SolidLine, flat))
            painter.drawLine(line)
            painter.setPen(QPen(QColor(255, 255, 255, 230), 1.5))
            painter.drawLine(line)
            if portal.state is PortalState.LOCKED:
                self._lock(painter, line.center(), style.DOOR_LOCKED)
            return
        if portal.state is PortalState.OPEN:
            painter.setPen(QPen(QColor(255, 255, 255, 150), 2, Qt.PenStyle.DashLine, flat))
            painter.drawLine(line)
            # The leaf swings 90 degrees from the hinge at the start point.
            leaf = QLineF(line)
            leaf.setAngle(line.angle() + 90)
            painter.setPen(QPen(style.WALL, 9, Qt.PenStyle.SolidLine, flat))
            painter.drawLine(leaf)
            painter.setPen(QPen(colour, 5, Qt.PenStyle.SolidLine, flat))
            painter.drawLine(leaf)
            return
        painter.setPen(QPen(style.WALL, 13, Qt.PenStyle.SolidLine, flat))
        painter.drawLine(line)
        painter.setPen(QPen(colour, 8, Qt.PenStyle.SolidLine, flat))
        painter.drawLine(line)
        if portal.state is PortalState.LOCKED:
            self._lock(painter, line.center(), colour)

    @staticmethod
    def _lock(painter: QPainter, centre: QPointF, colour: QColor) -> None:
        painter.setPen(QPen(QColor("#111111"), 2))
        painter.setBrush(QColor("#f4d03f"))
        body = QRectF(centre.x() - 7, centre.y() - 4, 14, 11)
        painter.drawRoundedRect(body, 2, 2)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawArc(QRectF(centre.x() - 5, centre.y() - 11, 10, 12), 0, 180 * 16)


def static_items(battlemap: BattleMap) -> list[QGraphicsItem]:
    """Grid, terrain, cover, walls and portals of a map (the background is added separately)."""
    items: list[QGraphicsItem] = [FloorItem(battlemap.width, battlemap.height)]
    items += [TerrainItem(patch) for patch in battlemap.terrain]
    items.append(GridItem(battlemap.width, battlemap.height))
    items += [CoverItem(cover) for cover in battlemap.cover]
    items.append(WallsItem(battlemap.walls))
    items += [PortalItem(portal) for portal in battlemap.portals]
    return items
