"""Brace, Aiming and Covering Fire cones from the acting token toward the mouse.

The cone points from the centre of the token's space at the square under the mouse (the
same direction the rule systems compute from the command's square), so what is drawn is
what a click applies. The engine gives the shape, the squares and the tokens with their
modifiers; a click runs the system's action (Spycraft ``brace``, d20 ``aim`` and
``covering_fire``) through the session, where the system has it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent

from desktop.scene.rule_overlays import AREA, AREA_BAD, INFO, AreaItem, TokenRingItem
from desktop.shapes import to_painter_path
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.encounter import EncounterState
from engine.geometry import TemplateResult, aiming_area, brace_area, covering_fire_area
from engine.grid import Square
from engine.rules.base import Command
from engine.tokens import Token


@dataclass(frozen=True)
class ConeRule:
    key: str  # the action key in the systems that have it
    label: str
    systems: frozenset[str]  # systems whose session has this action with a square
    area: Callable[[EncounterState, Token, float, str | None], TemplateResult]
    uses_weapon: bool


def _brace(state: EncounterState, token: Token, direction: float, _w: str | None) -> TemplateResult:
    return brace_area(state, token.id, direction)


def _aim(state: EncounterState, token: Token, direction: float, _w: str | None) -> TemplateResult:
    return aiming_area(state, token.id, direction)


def _covering(
    state: EncounterState, token: Token, direction: float, weapon: str | None
) -> TemplateResult:
    if weapon is None:
        raise ValueError(f"{token.name} has no weapon for Covering Fire")
    return covering_fire_area(state, token.id, direction, weapon)


CONES = {
    "brace": ConeRule("brace", "Brace", frozenset({"spycraft"}), _brace, False),
    "aim": ConeRule("aim", "Aiming", frozenset({"d20-firearms"}), _aim, True),
    "covering_fire": ConeRule(
        "covering_fire", "Covering Fire", frozenset({"d20-firearms"}), _covering, True
    ),
}


def direction_to(token: Token, square: Square) -> float:
    """Degrees clockwise from east, from the centre of the token's space to a square's centre."""
    cx, cy = token.square.x + token.size / 2, token.square.y + token.size / 2
    return math.degrees(math.atan2(square.y + 0.5 - cy, square.x + 0.5 - cx))


class ConeTool(RuleTool):
    name = "Cone"

    def __init__(
        self,
        host: ToolHost,
        rule: str = "brace",
        actor_id: str | None = None,
        weapon: str | None = None,
    ) -> None:
        super().__init__(host, actor_id, weapon)
        self.rule = CONES[rule]
        self.name = f"{self.rule.label} cone"
        self.toward: Square | None = None
        self.result: TemplateResult | None = None

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if square != self.toward:
            self.toward = square
            self.refresh()
        return False

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.toward = square_at(scene_pos)
        self.refresh()
        command = self.command()
        if command is None:
            return True
        if self.state.system not in self.rule.systems:
            self.host.show_status(f"{self.rule.label}: shown only; this system has no such action")
            return True
        self.confirm(command)
        return True

    def command(self) -> Command | None:
        actor = self.actor()
        if actor is None or self.toward is None:
            return None
        weapon = self.weapon(actor) if self.rule.uses_weapon else None
        return Command(
            self.rule.key, actor.id, squares=(self.toward,), weapon=weapon.name if weapon else None
        )

    def cancel(self) -> bool:
        had = self.toward is not None
        self.toward, self.result = None, None
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self.clear_overlay()
        self.result = None
        actor = self.actor()
        if actor is None or self.toward is None or self.toward in actor.squares:
            return
        weapon = self.weapon(actor)
        try:
            result = self.rule.area(
                self.state, actor, direction_to(actor, self.toward), weapon.name if weapon else None
            )
        except ValueError as error:
            self.host.show_status(str(error))
            return
        self.result = result
        colour = AREA if result.allowed else AREA_BAD
        path = to_painter_path(result.shape)
        self.add_overlay(AreaItem(path, colour, 55))
        state = self.state
        lines = [f"{self.rule.label} of {actor.name}" + (f" ({weapon.name})" if weapon else "")]
        for affected in result.tokens:
            token = state.token(affected.token_id)
            inside = bool(affected.squares)
            self.add_overlay(
                TokenRingItem(token.square, token.size, INFO if inside else QColor("#8a8f98"))
            )
            mods = "; ".join(str(m) for m in affected.modifiers)
            lines.append(f"{token.name}: {mods}")
        if not result.tokens:
            lines.append("nobody inside")
        lines += list(result.reasons)
        bounds = path.boundingRect()
        self.show_info(lines, bounds, None if result.allowed else AREA_BAD)
