"""Area templates: the ones the rule system in play offers (its blasts and cones, or the
standard cone, burst, square and line).

The template follows the mouse; the wheel turns it (5 degrees a notch, 15 with Shift);
``[`` and ``]`` shrink and grow it; T cycles the kinds; C cuts it to what its origin
sees (walls stop it); a click places it (it stays drawn with the tokens it touches
listed; the next click picks up a new one); Escape cancels. Where it starts, which squares
count and whom it touches are the engine's (``engine.rules.measuring.measure_template``,
with the system's templates and inclusion rule); this tool draws the overlay it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent

from desktop.gm_menu import GmMenu
from desktop.scene.overlay_items import SquaresItem
from desktop.scene.preview_overlay import draw_overlay, tone_colour
from desktop.scene.rule_overlays import AreaItem, translucent
from desktop.scene.style import SQUARE
from desktop.shapes import to_painter_path
from desktop.tools.base import ToolHost
from desktop.tools.rule_tool import RuleTool
from engine.grid import Point
from engine.overlay import Overlay
from engine.rules.measuring import (
    Measured,
    measure_template,
    system_template,
    template_label,
    template_origin,
)


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
        self.kind = system_template(system, kind) if kind else system.templates[0]
        self.size = self.kind.size
        self.direction = 0.0
        self.origin: Point | None = None
        self.placed = False
        #: Cut the template to what its origin sees (walls stop it); C toggles.
        self.clip = False
        #: What the engine measured for the template as it lies now.
        self.measured: Measured | None = None

    # ---- choosing

    def set_kind(self, key: str) -> None:
        self.kind = system_template(self.system, key)
        self.size = self.kind.size
        self._redraw()

    def cycle_kind(self) -> None:
        kinds = self.system.templates
        index = kinds.index(self.kind) if self.kind in kinds else -1
        self.set_kind(kinds[(index + 1) % len(kinds)].key)

    def snap(self, scene_pos: QPointF) -> Point:
        return template_origin(self.kind, (scene_pos.x() / SQUARE, scene_pos.y() / SQUARE))

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
        if self.measured is not None:
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

    def context_entries(self, scene_pos: QPointF) -> list[tuple[str, Callable[[], object]]]:
        """A placed template that touches tokens: the same damage to each, as a GM would
        after a grenade (Foundry VTT needs a module for it; the rules here have no area
        action for every system)."""
        touched = self.touched_ids()
        if not (self.placed and touched):
            return []
        gm = GmMenu(self.host.view.window(), self.host.controller, self.host.show_status)
        return [(
            f"Damage everyone it touches ({self.touched_text()})…",
            partial(gm.amount_to_all, touched, "gm_damage", "Damage"),
        )]

    def touched_ids(self) -> tuple[str, ...]:
        return () if self.measured is None else tuple(self.measured.overlay.token_ids())

    def cancel(self) -> bool:
        had = self.origin is not None
        self.origin, self.placed, self.measured = None, False, None
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self._redraw()

    # ---- drawing what the engine measured

    def describe(self) -> str:
        return template_label(self.state, self.kind, self.size)

    def touched_text(self) -> str:
        if self.measured is None:
            return ""
        state = self.state
        return ", ".join(state.token(t).name for t in self.touched_ids())

    def _redraw(self) -> None:
        self.clear_overlay()
        if self.origin is None:
            self.measured = None
            return
        try:
            measured = measure_template(
                self.state, self.system, self.kind, self.origin, self.direction, self.size,
                clip_to_walls=self.clip,
            )
        except ValueError as error:  # e.g. cut to walls from a point off the map
            self.measured = None
            self.host.show_status(str(error))
            return
        self.measured = measured
        overlay = measured.overlay
        for area in overlay.areas:  # the squares that count, one item: cheap to redraw
            colour = tone_colour(area.tone)
            covered = SquaresItem(translucent(colour, 45), translucent(colour, 150))
            covered.set_squares(area.squares)
            self.add_overlay(covered)
        bounds = None
        for shape in overlay.shapes:
            path = to_painter_path(shape.outline)
            self.add_overlay(AreaItem(path, tone_colour(shape.tone), 60, dashed=not self.placed))
            bounds = path.boundingRect() if bounds is None else bounds.united(path.boundingRect())
        for item in draw_overlay(Overlay(tokens=overlay.tokens), self.state).items:
            self.add_overlay(item)
        lines = list(measured.lines)
        if not self.placed:
            lines.append("wheel turns, [ ] size, T kind, C walls, click places")
        elif overlay.token_ids():
            lines.append("right-click: damage everyone it touches")
        self.show_info(lines, bounds if bounds is not None else QPointF(*self.origin) * SQUARE)
