"""Graphics items for the map objects the GM points at: cover objects, doors and windows.

Each item draws one engine value; none of them decides a rule. Tokens live in ``token_item``.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from desktop.scene import style
from desktop.scene.detail import shows_details
from desktop.scene.light_item import LightItem
from desktop.scene.style import scene_point
from engine.battlemap import (
    BattleMap,
    CoverObject,
    Portal,
    PortalKind,
    PortalState,
)


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
        self.setToolTip(f"{portal.label.capitalize()}: {portal.state.value}")
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
        portal = self.portal
        a, b = scene_point(portal.start), scene_point(portal.end)
        line = QLineF(a, b)
        colour = style.portal_colour(portal.kind, portal.state)
        if not shows_details(painter):
            self._paint_simple(painter, line, colour)
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
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

    def _paint_simple(self, painter: QPainter, line: QLineF, colour: QColor) -> None:
        """Zoomed far out: one thin line in the state's colour, no lock (it would be a speck).

        An open door is its swung leaf, an open window a dashed line, as in the full drawing.
        """
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        portal = self.portal
        dashes = Qt.PenStyle.SolidLine
        if portal.state is PortalState.OPEN:
            if portal.kind is PortalKind.WINDOW:
                dashes = Qt.PenStyle.DashLine
            else:
                line = QLineF(line)
                line.setAngle(line.angle() + 90)
        pen = QPen(colour, 2, dashes)
        pen.setCosmetic(True)  # two device pixels at any zoom
        painter.setPen(pen)
        painter.drawLine(line)

    @staticmethod
    def _lock(painter: QPainter, centre: QPointF, colour: QColor) -> None:
        painter.setPen(QPen(QColor("#111111"), 2))
        painter.setBrush(QColor("#f4d03f"))
        body = QRectF(centre.x() - 7, centre.y() - 4, 14, 11)
        painter.drawRoundedRect(body, 2, 2)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawArc(QRectF(centre.x() - 5, centre.y() - 11, 10, 12), 0, 180 * 16)


def map_items(battlemap: BattleMap) -> list[QGraphicsItem]:
    """The items of a map that the GM points at: cover objects, doors, windows and lights.

    Floor, picture, terrain, grid and walls never change during play; they are painted
    by ``desktop.scene.background`` into the view's cached background instead.
    """
    items: list[QGraphicsItem] = [CoverItem(cover) for cover in battlemap.cover]
    items += [PortalItem(portal) for portal in battlemap.portals]
    items += [LightItem(light) for light in battlemap.lights]
    return items
