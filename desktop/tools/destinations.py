"""A tool that shows where a move may end (the engine's squares) and the route to each.

Subclasses ask the engine for the destinations and for the route or the reasons to one
square; hovering a square draws that route (green) or the reasons (red); clicking a
legal square runs the session's action with the route's squares after the start.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent

from desktop.scene.overlay_items import RouteItem, SquaresItem
from desktop.scene.rule_overlays import AREA_BAD, GOOD, translucent
from desktop.scene.style import SQUARE
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.grid import Square
from engine.routes import Route, RouteError
from engine.rules.base import Command
from engine.tokens import Token


class DestinationTool(RuleTool):
    """Base: destinations tinted green, the hovered route drawn, a click confirms."""

    def __init__(self, host: ToolHost, actor_id: str | None = None) -> None:
        super().__init__(host, actor_id)
        self.destinations: frozenset[Square] = frozenset()
        self.hover: Square | None = None
        self.route: Route | None = None
        self.route_item = RouteItem()
        self.area_item = SquaresItem(translucent(GOOD, 60), translucent(GOOD, 140))
        #: The destinations are asked once per state and actor, not on every mouse move.
        self._found: tuple[object, str, tuple[frozenset[Square], list[str]]] | None = None

    # ---- what subclasses answer from the engine

    def find_destinations(self, actor: Token) -> tuple[frozenset[Square], list[str]]:
        """The squares the move may end on, and lines for the tag (reasons, notes)."""
        raise NotImplementedError

    def route_to(self, actor: Token, square: Square) -> tuple[Route | None, tuple[str, ...]]:
        """The route to one square, or the reasons it is not allowed."""
        raise NotImplementedError

    def draw_extras(self, actor: Token) -> None:
        """Anything more to draw from what ``find_destinations`` found (cheap)."""

    def command(self, actor: Token, route: Route) -> Command:
        assert self.action_key is not None
        return Command(self.action_key, actor.id, squares=route.squares[1:])

    # ---- gestures

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if square != self.hover:
            self.hover = square
            self.refresh()
        return False

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.hover = square_at(scene_pos)
        self.refresh()
        actor = self.actor()
        if actor is None or self.route is None:
            return True
        if self.action_key is not None and self.system_has(self.action_key):
            self.confirm(self.command(actor, self.route))
        return True

    def cancel(self) -> bool:
        had = self.hover is not None or bool(self.destinations)
        self.hover, self.route, self.destinations = None, None, frozenset()
        self.clear_overlay()
        return had

    # ---- drawing

    def refresh(self) -> None:
        self.clear_overlay()
        self.route = None
        actor = self.actor()
        if actor is None:
            return
        found = self._found
        if found is None or found[0] is not self.state or found[1] != actor.id:
            try:
                answer = self.find_destinations(actor)
            except RouteError as error:
                self.host.show_status(str(error))
                return
            self._found = found = (self.state, actor.id, answer)
            self.area_item.set_squares(answer[0])
        self.destinations, lines = found[2]
        self.add_overlay(self.area_item)
        self.draw_extras(actor)
        anchor = self.host.scene.token_items[actor.id].sceneBoundingRect()
        hover = self.hover
        colour = None
        if hover is not None and hover != actor.square and self.state.battlemap.in_bounds(hover):
            try:
                route, reasons = self.route_to(actor, hover)
            except (RouteError, ValueError) as error:
                route, reasons = None, (str(error),)
            self.route = route
            if route is not None:
                self.add_overlay(self.route_item)
                self.route_item.set_route(route.squares, True, (actor.size - 1) * SQUARE / 2)
                lines = [*lines, f"to {hover}: {route.cost}"]
            else:
                lines = [*lines, f"not to {hover}:", *reasons]
                colour = AREA_BAD
            anchor = QRectF(hover.x * SQUARE, hover.y * SQUARE, SQUARE, SQUARE)
        self.show_info(lines, anchor, colour)
