"""The Deviation Diagram around the square under the mouse, and where a weapon can fly.

Each of the eight neighbours shows its d8 number (the system's ``deviation`` part: its
Deviation Diagram): marked when the engine's ``deviate`` would land there on that roll,
refused when it would roll again (taken, off the map, impassable or across a wall). Lines
show how far a weapon sent flying goes in each direction at the rule's longest flight. The engine
(``engine.rules.measuring.deviation_diagram``) works all of it out; this tool only draws it.
A system with no Deviation Diagram gets a note saying so. Nothing is rolled.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QMouseEvent

from desktop.scene.preview_overlay import draw_overlay
from desktop.scene.style import SQUARE
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.grid import Square
from engine.rules.measuring import deviation_diagram


class DeviationTool(RuleTool):
    name = "Deviation Diagram"
    needs_actor = False

    def __init__(self, host: ToolHost) -> None:
        super().__init__(host)
        self.origin: Square | None = None
        self.landings: dict[int, Square | None] = {}
        self.flights: dict[int, tuple[Square, ...]] = {}

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if square != self.origin:
            self.origin = square
            self.refresh()
        return False

    def cancel(self) -> bool:
        had = self.origin is not None
        self.origin, self.landings, self.flights = None, {}, {}
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self.clear_overlay()
        self.landings, self.flights = {}, {}
        origin = self.origin
        if origin is None or not self.state.battlemap.in_bounds(origin):
            return
        found = deviation_diagram(self.state, self.system, self.movement(), origin)
        if found is None:
            here = QRectF(origin.x * SQUARE, origin.y * SQUARE, SQUARE, SQUARE)
            self.show_info([f"{self.system.title} has no Deviation Diagram"], here)
            return
        self.landings, self.flights = dict(found.landings), dict(found.flights)
        for item in draw_overlay(found.measured.overlay, self.state).items:
            self.add_overlay(item)
        token = self.state.token_at(origin)
        anchor = token.square if token is not None else origin
        rect = QRectF((anchor.x - 1) * SQUARE, (anchor.y - 1) * SQUARE, 3 * SQUARE, 3 * SQUARE)
        self.show_info(list(found.measured.lines), rect)
