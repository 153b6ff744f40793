"""The on-map button of a door, as a Foundry VTT GM clicks a door's icon.

A round badge at the door's middle, the same size on screen at any zoom, drawing its
state: a shut door, a door ajar, a padlock (locked). The select tool shows the buttons and
answers their clicks (``desktop.doors``); the player view never has them. Windows have
none (``MapScene`` makes buttons for doors only): the double click and menu work them.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.style import scene_point
from engine.battlemap import Portal, PortalState

#: Radius on screen, in pixels: big enough to hit at the zoom that fits a whole map.
RADIUS = 10.0

#: What a click does, by state (the right click's menu also locks and unlocks).
CLICK_WORDS = {
    PortalState.OPEN: "click to close",
    PortalState.CLOSED: "click to open",
    PortalState.LOCKED: "right-click to unlock",
}


def button_tip(portal: Portal) -> str:
    """'Door between (6,4) and (7,4): closed. Click to open; right-click to lock or more.'"""
    more = "right-click for Lock and more" if portal.state is not PortalState.LOCKED else ""
    words = "; ".join(w for w in (CLICK_WORDS[portal.state], more) if w)
    return f"{portal.label.capitalize()}: {portal.state.value}. {words.capitalize()}."


class DoorButtonItem(QGraphicsItem):
    """One door's button; ``portal`` is the engine value it was last drawn from."""

    def __init__(self, portal: Portal) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        # Over the tokens beside the doorway, under pings and tags.
        self.setZValue(style.Z_LABELS + 2)
        self.setAcceptHoverEvents(False)
        self.portal = portal
        self.set_portal(portal)

    def set_portal(self, portal: Portal) -> None:
        self.portal = portal
        a, b = scene_point(portal.start), scene_point(portal.end)
        self.setPos((a + b) / 2)
        self.setToolTip(button_tip(portal))
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(-RADIUS - 1, -RADIUS - 1, 2 * RADIUS + 2, 2 * RADIUS + 2)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), RADIUS, RADIUS)
        return path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        portal = self.portal
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        locked = portal.state is PortalState.LOCKED
        painter.setPen(QPen(QColor("#111111"), 1.5))
        painter.setBrush(style.DOOR_LOCKED if locked else QColor(245, 240, 228, 235))
        painter.drawEllipse(QPointF(0, 0), RADIUS, RADIUS)
        if locked:
            _padlock(painter)
        else:
            _door(painter, portal.state is PortalState.OPEN)


def _door(painter: QPainter, ajar: bool) -> None:
    """A door leaf in its frame; ajar, the leaf turns away and the frame shows dark."""
    frame = QRectF(-4.5, -6.5, 9, 13)
    painter.setPen(QPen(QColor("#3a2410"), 1.2))
    if not ajar:
        painter.setBrush(style.DOOR)
        painter.drawRect(frame)
        painter.setBrush(QColor("#f4d03f"))
        painter.drawEllipse(QPointF(2.2, 0.5), 1.1, 1.1)
        return
    painter.setBrush(QColor("#222222"))
    painter.drawRect(frame)
    leaf = QPolygonF([QPointF(-4.5, -6.5), QPointF(1.5, -4.5), QPointF(1.5, 8.5),
                      QPointF(-4.5, 6.5)])
    painter.setBrush(style.DOOR)
    painter.drawPolygon(leaf)


def _padlock(painter: QPainter) -> None:
    painter.setPen(QPen(QColor("#111111"), 1.4))
    painter.setBrush(QColor("#f4d03f"))
    painter.drawRoundedRect(QRectF(-5, -1.5, 10, 7.5), 1.5, 1.5)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawArc(QRectF(-3.5, -7, 7, 9), 0, 180 * 16)
