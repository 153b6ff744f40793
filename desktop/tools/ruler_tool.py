"""The ruler: drag to measure, add waypoints on the way, read each leg and the total.

As in Foundry VTT: press on a square and drag; Space drops a waypoint where the cursor
is; releasing ends the measurement, which stays on the map until the next one or Escape.
A click without a drag measures click by click instead: every click adds a waypoint, a
double-click or Enter ends it. Backspace takes back the last waypoint. The distances are the
engine's (engine.measure: the system's diagonal rule and its units).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsItem, QGraphicsPathItem

from desktop.scene import style
from desktop.scene.overlay_items import TagItem, centre
from desktop.tools.base import Tool, ToolHost, square_at
from engine.grid import Square
from engine.measure import Measurement, measure

RULER = QColor("#ffd23f")


class RulerTool(Tool):
    name = "Ruler: drag to measure, Space adds a waypoint, Backspace takes one back"

    def __init__(self, host: ToolHost) -> None:
        super().__init__(host)
        #: The fixed points of the route (the first is where the measurement started).
        self.waypoints: list[Square] = []
        #: Where the route ends now (the square under the cursor).
        self.end: Square | None = None
        #: True while a measurement follows the cursor.
        self.measuring = False
        self._dragging = False
        self._pressed_at: Square | None = None
        self.measurement: Measurement | None = None
        self.tags: list[TagItem] = []

    # ---- gestures

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if self.measuring:  # click-by-click: each click fixes a waypoint
            self.add_waypoint(square)
            return True
        self.start(square)
        self._dragging = True
        self._pressed_at = square
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if not self.measuring:
            return False
        square = square_at(scene_pos)
        if square != self.end:
            self.end = square
            self.redraw()
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or not self._dragging:
            return False
        self._dragging = False
        square = square_at(scene_pos)
        if square == self._pressed_at and len(self.waypoints) == 1:
            return True  # a click: keep measuring click by click
        self.end = square
        self.finish()
        return True

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.measuring:
            self.finish()
            return True
        return False

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key == Qt.Key.Key_Space and self.measuring:
            if not event.isAutoRepeat() and self.end is not None:
                self.add_waypoint(self.end)
            return True
        if key == Qt.Key.Key_Backspace and self.measuring:
            self.remove_waypoint()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.measuring:
            self.finish()
            return True
        return False

    # ---- the measurement

    def start(self, square: Square) -> None:
        self.waypoints = [square]
        self.end = square
        self.measuring = True
        self.redraw()

    def add_waypoint(self, square: Square) -> None:
        if self.waypoints and self.waypoints[-1] == square:
            return
        self.waypoints.append(square)
        self.end = square
        self.redraw()

    def remove_waypoint(self) -> None:
        if len(self.waypoints) > 1:
            self.waypoints.pop()
            self.redraw()

    def finish(self) -> None:
        """Stop following the cursor; the ruler stays drawn until the next one."""
        self.measuring = False
        self._dragging = False
        self.redraw()
        if self.measurement is not None:
            self.host.show_status(f"Measured: {self.measurement.total_words}")

    def deactivate(self) -> None:
        self.cancel()
        super().deactivate()

    def cancel(self) -> bool:
        had = bool(self.waypoints)
        self.waypoints = []
        self.end = None
        self.measuring = False
        self._dragging = False
        self.measurement = None
        self.tags = []
        self.clear_overlay()
        return had

    @property
    def route(self) -> list[Square]:
        route = list(self.waypoints)
        if self.end is not None and (not route or route[-1] != self.end):
            route.append(self.end)
        return route

    def redraw(self) -> None:
        self.clear_overlay()
        self.tags = []
        route = self.route
        if not route:
            self.measurement = None
            return
        self.measurement = measure(route, self.host.controller.state.scale)
        points = [centre(square) for square in route]
        path = QPainterPath(points[0])
        for point in points[1:]:
            path.lineTo(point)
        shadow = QGraphicsPathItem(path)
        shadow.setPen(QPen(QColor(0, 0, 0, 160), 9, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        line = QGraphicsPathItem(path)
        line.setPen(QPen(RULER, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        for item in (shadow, line):
            item.setZValue(style.Z_OVERLAY)
            self.add_overlay(item)
        for point in points:
            dot = QGraphicsEllipseItem(point.x() - 7, point.y() - 7, 14, 14)
            dot.setBrush(RULER)
            dot.setPen(QPen(QColor(0, 0, 0, 200), 2))
            dot.setZValue(style.Z_OVERLAY + 1)
            self.add_overlay(dot)
        measurement = self.measurement
        for index, leg in enumerate(measurement.legs):
            last = index == len(measurement.legs) - 1
            text = measurement.leg_words(index)
            if last and len(measurement.legs) > 1:
                text += f"\ntotal {measurement.total_words}"
            tag = TagItem(text, RULER, 12)
            # Readable at any zoom: the tag keeps its size on screen, beside the waypoint.
            tag.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
            tag.setPos(centre(leg.end))
            tag.setTransform(QTransform.fromTranslate(10, -tag.boundingRect().height() - 4))
            self.add_overlay(tag)
            self.tags.append(tag)
        status = f"Ruler: {measurement.total_words}"
        if len(measurement.legs) > 1:
            status += f" over {len(measurement.legs)} legs"
        self.host.show_status(status)
