"""The Deviation Diagram around the square under the mouse, and where a weapon can fly.

Each of the eight neighbours shows its d8 number (the system's ``deviation`` part: its
Deviation Diagram): green when the engine's ``deviate`` would land there on that roll, red
when it would roll again (taken, off the map, impassable or across a wall). Faint lines show
how far a weapon sent flying goes in each direction at the rule's longest flight
(``weapon_flight``), with where it would land. A system with no Deviation Diagram gets a
note saying so. An inspection overlay: nothing is rolled.
"""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QMouseEvent

from desktop.scene.overlay_items import RouteItem
from desktop.scene.rule_overlays import AREA_BAD, GOOD, SquareMarkItem
from desktop.scene.style import SQUARE
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.grid import Square
from engine.routes.deviation import Roll, deviate, weapon_flight


class _Rerolled(Exception):
    """The engine asked for another d8: the number tried does not land."""


def _fixed(*values: int) -> Roll:
    given: Iterator[int] = iter(values)

    def roll(expression: str) -> int:
        try:
            return next(given)
        except StopIteration:
            raise _Rerolled(expression) from None

    return roll


class DeviationTool(RuleTool):
    name = "Deviation Diagram"
    needs_actor = False

    def __init__(self, host: ToolHost) -> None:
        super().__init__(host)
        self.origin: Square | None = None
        #: d8 number -> where the engine lands on it (None: it rolls again).
        self.landings: dict[int, Square | None] = {}
        #: d8 number -> the squares a weapon sent flying crosses at the rule's longest flight.
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
        rule = self.system.deviation
        if rule is None:
            here = QRectF(origin.x * SQUARE, origin.y * SQUARE, SQUARE, SQUARE)
            self.show_info([f"{self.system.title} has no Deviation Diagram"], here)
            return
        movement = self.movement()
        token = self.state.token_at(origin)
        anchor = token.square if token is not None else origin
        size = token.size if token is not None else 1
        ignore = (token.id,) if token is not None else ()
        for number in rule.diagram:
            try:
                deviation = deviate(
                    movement,
                    anchor,
                    _fixed(number),
                    size=size,
                    ignore=ignore,
                    diagram=rule.diagram,
                )
                self.landings[number] = deviation.square
            except _Rerolled:
                self.landings[number] = None
            flight = weapon_flight(movement, origin, _fixed(number, rule.longest_flight), rule)
            self.flights[number] = flight.path
            if len(flight.path) > 1:
                line = RouteItem()
                line.setOpacity(0.45)
                self.add_overlay(line)
                line.set_route(flight.path, True)
        lines = [f"Deviation Diagram from {anchor}"]
        for number, (dx, dy) in rule.diagram.items():
            square = Square(anchor.x + dx, anchor.y + dy)
            if not self.state.battlemap.in_bounds(square):
                continue
            landed = self.landings[number]
            tip = f"d8 {number}: " + (f"lands on {landed}" if landed else "taken: roll again")
            self.add_overlay(
                SquareMarkItem(square, GOOD if landed else AREA_BAD, str(number), tip, 80)
            )
        free = [n for n, s in self.landings.items() if s is not None]
        lines.append(f"lands on {', '.join(map(str, free))}" if free else "no free square")
        lines.append(f"faint lines: a weapon's longest flight ({rule.longest_flight} squares)")
        rect = QRectF((anchor.x - 1) * SQUARE, (anchor.y - 1) * SQUARE, 3 * SQUARE, 3 * SQUARE)
        self.show_info(lines, rect)
