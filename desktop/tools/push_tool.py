"""Bull Rush and Push: the approach, the shove's route and where both tokens end.

Hover an opponent. Spycraft and the d20 family (Bull Rush): the engine's approach line,
then the push for a won check with the margin the GM sets with ``+`` and ``-`` (the
preview assumes every obstacle and bystander holds, as the engine's preview does), the
target's path and both end squares, and the events on the way. Savage Worlds (Push):
where a success and a raise would send the foe. A click runs the session's ``bull_rush``
or ``push`` at that target.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent

from desktop.scene.overlay_items import RouteItem
from desktop.scene.rule_overlays import AREA, AREA_BAD, GOOD, SquareMarkItem
from desktop.tools.base import ToolHost
from desktop.tools.rule_tool import RuleTool
from engine.grid import Square
from engine.routes import RouteError
from engine.routes.push import BullRushCheck, BullRushResult, bull_rush, savage_push
from engine.rules.base import Command
from engine.tokens import Token, are_opponents

SAVAGE = "savage-worlds"


def _no_deviation(expression: str) -> int:
    # The preview resolvers hold, so no bystander is ever displaced and nothing is rolled.
    raise RouteError("a Bull Rush preview rolls no dice")


class PushTool(RuleTool):
    name = "Bull Rush / Push"

    def __init__(self, host: ToolHost, actor_id: str | None = None) -> None:
        super().__init__(host, actor_id)
        self.target_id: str | None = None
        self.margin = 0
        self.result: BullRushResult | None = None
        #: End squares shown: (what, token id, square).
        self.ends: list[tuple[str, str, Square]] = []
        self.approach = RouteItem()
        self.shove = RouteItem()

    @property
    def action_key(self) -> str:  # type: ignore[override]
        return "push" if self.state.system == SAVAGE else "bull_rush"

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        item = self.host.scene.token_item_at(scene_pos)
        target = item.token_id if item is not None else None
        if target != self.target_id:
            self.target_id = target
            self.refresh()
        return False

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        item = self.host.scene.token_item_at(scene_pos)
        actor = self.actor()
        if item is None or actor is None or item.token_id == actor.id:
            return True
        self.target_id = item.token_id
        self.refresh()
        if not self.system_has(self.action_key):
            return True
        squares: tuple[Square, ...] = ()
        if self.result is not None and self.result.approach is not None:
            squares = self.result.approach.squares[1:]
        self.confirm(Command(self.action_key, actor.id, (item.token_id,), squares=squares))
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal, Qt.Key.Key_Minus):
            step = -1 if event.key() == Qt.Key.Key_Minus else 1
            self.margin = max(0, self.margin + step)
            self.refresh()
            return True
        return super().key_press(event)

    def cancel(self) -> bool:
        had = self.target_id is not None
        self.target_id, self.result, self.ends = None, None, []
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self.clear_overlay()
        self.result, self.ends = None, []
        actor = self.actor()
        if actor is None:
            return
        state = self.state
        target = state.token(self.target_id) if self.target_id else None
        if target is None or target.id == actor.id or not are_opponents(actor.side, target.side):
            self.show_info(
                [f"{self.name} by {actor.name}: hover an opponent"],
                self.host.scene.token_items[actor.id].sceneBoundingRect(),
            )
            return
        try:
            if state.system == SAVAGE:
                lines = self._savage(actor, target)
            else:
                lines = self._bull_rush(actor, target)
        except RouteError as error:
            lines = [str(error)]
        colour = None if self.ends else AREA_BAD
        self.show_info(lines, self.host.scene.token_items[target.id].sceneBoundingRect(), colour)

    def _end(self, what: str, token: Token, square: Square, colour: QColor) -> None:
        self.ends.append((what, token.id, square))
        self.add_overlay(SquareMarkItem(square, colour, what, f"{token.name} ends here", 90))

    def _bull_rush(self, actor: Token, target: Token) -> list[str]:
        check = BullRushCheck(won=True, margin=self.margin)
        result = bull_rush(self.movement(), actor.id, target.id, check, _no_deviation)
        self.result = result
        lines = [f"Bull Rush: {actor.name} on {target.name}, won by {self.margin} (+/-)"]
        if not result.allowed:
            return [*lines, *result.reasons]
        if result.approach is not None and len(result.approach.squares) > 1:
            self.add_overlay(self.approach)
            self.approach.set_route(result.approach.squares, True)
            lines.append(f"approach: {result.approach.cost}")
        if len(result.target_path) > 1:
            self.shove.setZValue(self.shove.zValue() - 1)  # under the end marks
            self.add_overlay(self.shove)
            self.shove.set_route(result.target_path, True)
        if result.pushed is not None:
            lines.append(f"pushed {result.pushed}")
        if result.target_end is not None:
            self._end("end", target, result.target_end, AREA)
        if result.pusher_end is not None:
            self._end("you", actor, result.pusher_end, GOOD)
        lines += [event.text for event in result.events]
        return lines

    def _savage(self, actor: Token, target: Token) -> list[str]:
        movement = self.movement()
        lines = [f"Push: {actor.name} on {target.name}"]
        for raise_, what, colour in ((False, "push", AREA), (True, "raise", GOOD)):
            push = savage_push(movement, actor.id, target.id, raise_=raise_)
            if not push.allowed:
                return [*lines, *push.reasons]
            end = push.target_end
            if end is not None and end != target.square:
                route = RouteItem()
                route.setZValue(route.zValue() - 1)  # under the end marks
                self.add_overlay(route)
                route.set_route(push.path, True)
                self._end(what, target, end, colour)
            stop = f", stopped by {push.stopped_by}" if push.stopped_by else ""
            label = "with a raise" if raise_ else "on a success"
            lines.append(f"{label}: pushed {push.pushed}{stop}")
        return lines
