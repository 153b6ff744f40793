"""The ruler: drag to measure, add waypoints on the way, read each leg and the total.

As in Foundry VTT: press on a square and drag; Space drops a waypoint where the cursor
is; releasing ends the measurement, which stays on the map until the next one or Escape.
A click without a drag measures click by click instead: every click adds a waypoint, a
double-click or Enter ends it. Backspace takes back the last waypoint. The distances, the line
and its tags are the engine's (engine.measure: the system's diagonal rule and its units, and
the measurement's overlay), drawn by the shared overlay painter.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from desktop.scene.overlay_items import TagItem
from desktop.scene.preview_overlay import DrawnPreview, draw_overlay
from desktop.tools.base import Tool, ToolHost, square_at
from engine.grid import Square
from engine.measure import Measurement, measure


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
        #: What the painter made of the measurement's overlay.
        self.drawn = DrawnPreview()

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
        self.clear_overlay()
        return had

    @property
    def route(self) -> list[Square]:
        route = list(self.waypoints)
        if self.end is not None and (not route or route[-1] != self.end):
            route.append(self.end)
        return route

    @property
    def tags(self) -> list[TagItem]:
        """The distance tags drawn (one per leg, the last with the total)."""
        return [item for item in self.drawn.items if isinstance(item, TagItem)]

    def clear_overlay(self) -> None:
        self.drawn = DrawnPreview()
        super().clear_overlay()  # the tags too (add_label)

    def redraw(self) -> None:
        """Draw the engine's measurement (its overlay) through the shared painter."""
        self.clear_overlay()
        route = self.route
        if not route:
            self.measurement = None
            return
        state = self.host.controller.state
        self.measurement = measurement = measure(route, state.scale)
        self.drawn = draw_overlay(measurement.overlay, state)
        for item in self.drawn.items:
            # A distance is read over a crowd: tags above the tokens' name plates.
            (self.add_label if isinstance(item, TagItem) else self.add_overlay)(item)
        status = f"Ruler: {measurement.total_words}"
        if len(measurement.legs) > 1:
            status += f" over {len(measurement.legs)} legs"
        self.host.show_status(status)
