"""Area templates: the ones the rule system in play offers (its blasts and cones, or the
standard cone, burst, square and line).

The template follows the mouse; the wheel turns it (5 degrees a notch, 15 with Shift);
``[`` and ``]`` shrink and grow it; T cycles the kinds; C cuts it to what its origin
sees (walls stop it); a click places it (it stays drawn with the tokens it touches
listed; the next click picks up a new one); Escape cancels. Which squares count is the
inclusion rule the system hands over (``RuleSystem.template_inclusion``).

Where the origin sits (rules-silent, MapTool-like) is the template's own: cones, lines,
bursts and teardrops start on the nearest grid intersection; a square area and a blast
centre on the square under the cursor.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent

from desktop.scene.overlay_items import SquaresItem
from desktop.scene.rule_overlays import AREA, AREA_BAD, AreaItem, translucent
from desktop.scene.style import SQUARE
from desktop.shapes import to_painter_path
from desktop.tools.base import ToolHost
from desktop.tools.rule_tool import RuleTool
from engine.geometry import Inclusion, TemplateResult, TemplateSpec, lay_template
from engine.grid import Point
from engine.rules.base import RuleSystem

#: How the engine's inclusion rule of the system in play reads on the tag.
INCLUSION_TEXT = {
    Inclusion.CENTRE: "a square counts when its centre is inside",
    Inclusion.PARTIAL: "a square counts when any part of it is beneath",
}


def kind_named(system: RuleSystem, key: str) -> TemplateSpec:
    """The system's template with this key."""
    for kind in system.templates:
        if kind.key == key:
            return kind
    known = ", ".join(kind.key for kind in system.templates)
    raise KeyError(f"{system.title} has no template {key!r} (it has {known})")


def wheel_steps(event: QWheelEvent) -> float:
    """Wheel notches (Shift may turn a vertical wheel into a horizontal one)."""
    delta = event.angleDelta()
    return (delta.y() or delta.x()) / 120


class TemplateTool(RuleTool):
    name = "Template"
    needs_actor = False

    def __init__(self, host: ToolHost, kind: str | None = None) -> None:
        super().__init__(host)
        system = host.controller.system
        self.kind = kind_named(system, kind) if kind else system.templates[0]
        self.size = self.kind.size
        self.direction = 0.0
        self.origin: Point | None = None
        self.placed = False
        #: Cut the template to what its origin sees (walls stop it); C toggles.
        self.clip = False
        self.result: TemplateResult | None = None

    # ---- choosing

    def set_kind(self, key: str) -> None:
        self.kind = kind_named(self.system, key)
        self.size = self.kind.size
        self._redraw()

    def cycle_kind(self) -> None:
        kinds = self.system.templates
        index = kinds.index(self.kind) if self.kind in kinds else -1
        self.set_kind(kinds[(index + 1) % len(kinds)].key)

    def snap(self, scene_pos: QPointF) -> Point:
        x, y = scene_pos.x() / SQUARE, scene_pos.y() / SQUARE
        if self.kind.on_corner:
            return (float(round(x)), float(round(y)))
        return (math.floor(x) + 0.5, math.floor(y) + 0.5)

    # ---- gestures

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.placed:
            return False
        origin = self.snap(scene_pos)
        if origin != self.origin:
            self.origin = origin
            self._redraw()
        return True

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if self.placed:  # pick up a fresh template
            self.placed = False
            self.origin = self.snap(scene_pos)
            self._redraw()
            return True
        self.origin = self.snap(scene_pos)
        self.placed = True
        self._redraw()
        if self.result is not None:
            self.host.show_status(f"{self.describe()} placed: " + (self.touched_text() or "nobody"))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return event.button() == Qt.MouseButton.LeftButton

    def wheel(self, event: QWheelEvent, scene_pos: QPointF) -> bool:
        if self.placed or not self.kind.turns:
            return False
        step = 15.0 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 5.0
        self.direction = (self.direction + step * wheel_steps(event)) % 360
        self._redraw()
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key == Qt.Key.Key_C:
            self.clip = not self.clip
            self._redraw()
            return True
        if key == Qt.Key.Key_T:
            self.cycle_kind()
            return True
        if key in (Qt.Key.Key_BracketLeft, Qt.Key.Key_BracketRight) and self.kind.sized:
            self.size = max(1.0, self.size + (1 if key == Qt.Key.Key_BracketRight else -1))
            self._redraw()
            return True
        return super().key_press(event)

    def cancel(self) -> bool:
        had = self.origin is not None
        self.origin, self.placed, self.result = None, False, None
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self._redraw()

    # ---- drawing

    def describe(self) -> str:
        scale = self.state.scale
        if not self.kind.sized:
            return self.kind.label
        return f"{self.kind.label} {scale.describe(self.size)}"

    def touched_text(self) -> str:
        if self.result is None:
            return ""
        state = self.state
        return ", ".join(state.token(t).name for t in self.result.token_ids())

    def _redraw(self) -> None:
        self.clear_overlay()
        if self.origin is None:
            self.result = None
            return
        try:
            self.result = lay_template(
                self.state,
                self.kind,
                self.origin,
                self.direction,
                self.size,
                inclusion=self.system.template_inclusion,
                clip_to_walls=self.clip,
            )
        except ValueError as error:  # e.g. cut to walls from a point off the map
            self.result = None
            self.host.show_status(str(error))
            return
        colour = AREA if self.result.allowed else AREA_BAD
        covered = SquaresItem(translucent(colour, 45), translucent(colour, 150))
        covered.set_squares(self.result.squares)  # one item for all squares: cheap to redraw
        self.add_overlay(covered)
        self.add_overlay(
            AreaItem(to_painter_path(self.result.shape), colour, 60, dashed=not self.placed)
        )
        lines = [self.describe() + ("" if not self.kind.turns else f", {self.direction:g}°")]
        touched = self.touched_text()
        lines.append(f"touches: {touched}" if touched else "touches nobody")
        lines.append(INCLUSION_TEXT[self.system.template_inclusion])
        lines += list(self.result.reasons)
        if not self.placed:
            lines.append("wheel turns, [ ] size, T kind, C walls, click places")
        bounds = to_painter_path(self.result.shape).boundingRect()
        self.show_info(lines, bounds)
