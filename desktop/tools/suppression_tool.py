"""Suppressive Fire for the system in play, aimed at the square under the mouse.

* Spycraft: the one target square; the opponents of the shooter are listed as those who
  would draw a final attack by moving through it (the engine's ``suppression_against``).
* d20 firearms: the 10 ft by 10 ft area whose top-left square is under the mouse, and
  the tokens inside with the effects the engine lists.
* Savage Worlds: a Medium Blast Template centred on the square, the tokens beneath it
  with their modifiers (their own cover) and how many at most can be hit.

A click runs the session's ``suppressive_fire`` with that square (one undo step).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from desktop.scene.rule_overlays import AREA, AREA_BAD, AreaItem, TokenRingItem
from desktop.shapes import to_painter_path
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.encounter import EncounterState
from engine.geometry import (
    SuppressionArea,
    d20_suppressive_fire,
    savage_suppressive_fire,
    spycraft_suppressive_fire,
    suppression_against,
)
from engine.grid import Square
from engine.rules.base import Command
from engine.tokens import Token, are_opponents


def suppression_at(
    state: EncounterState, system: str, shooter: Token, square: Square, weapon: str
) -> SuppressionArea:
    """The engine's Suppressive Fire of ``system`` aimed at ``square``."""
    if system == "savage-worlds":
        return savage_suppressive_fire(state, shooter.id, square.centre, weapon)
    if system == "d20-firearms":
        return d20_suppressive_fire(state, shooter.id, square, weapon)
    return spycraft_suppressive_fire(state, shooter.id, square, weapon)


class SuppressionTool(RuleTool):
    name = "Suppressive Fire"
    action_key = "suppressive_fire"

    def __init__(
        self, host: ToolHost, actor_id: str | None = None, weapon: str | None = None
    ) -> None:
        super().__init__(host, actor_id, weapon)
        self.square: Square | None = None
        self.area: SuppressionArea | None = None
        #: Tokens the area concerns: inside it, or drawing final attacks when they cross it.
        self.affected: tuple[str, ...] = ()

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if square != self.square:
            self.square = square
            self.refresh()
        return False

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.square = square_at(scene_pos)
        self.refresh()
        command = self.command()
        if command is not None and self.system_has("suppressive_fire"):
            self.confirm(command)
        return True

    def command(self) -> Command | None:
        actor = self.actor()
        if actor is None or self.square is None or self.area is None:
            return None
        return Command(
            "suppressive_fire", actor.id, squares=(self.square,), weapon=self.area.weapon
        )

    def cancel(self) -> bool:
        had = self.square is not None
        self.square, self.area, self.affected = None, None, ()
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self.clear_overlay()
        self.area, self.affected = None, ()
        actor = self.actor()
        if actor is None or self.square is None:
            return
        weapon = self.weapon(actor)
        if weapon is None:
            self.host.show_status(f"{actor.name} has no weapon")
            return
        state = self.state
        try:
            area = suppression_at(state, state.system, actor, self.square, weapon.name)
        except ValueError as error:
            self.host.show_status(str(error))
            return
        self.area = area
        colour = AREA if area.allowed else AREA_BAD
        path = to_painter_path(area.shape)
        self.add_overlay(AreaItem(path, colour, 70))
        lines = [f"Suppressive Fire, {actor.name} ({weapon.name}): {area.shots} shots"]
        lines += [str(m) for m in area.attack]
        affected: list[str] = []
        same_as_movers: list[str] = []
        for token in area.tokens:
            other = state.token(token.token_id)
            affected.append(other.id)
            self.add_overlay(TokenRingItem(other.square, other.size, colour))
            if area.movers and token.modifiers == area.movers:
                same_as_movers.append(other.name)
            else:
                lines.append(f"{other.name}: " + "; ".join(str(m) for m in token.modifiers))
        if same_as_movers:
            lines.append("inside: " + ", ".join(same_as_movers))
        if area.max_casualties is not None:
            lines.append(f"at most {area.max_casualties} can be hit")
        if area.movers:
            crossing = [
                other
                for other in state.others(actor.id)
                if other.id not in affected
                and are_opponents(actor.side, other.side)
                and suppression_against(state, [area], other.id, self.square)
            ]
            for other in crossing:
                affected.append(other.id)
                self.add_overlay(TokenRingItem(other.square, other.size, AREA, dashed=True))
            names = ", ".join(o.name for o in crossing) or "nobody"
            # Spycraft's area punishes movers with a final attack; others with their effects.
            if area.system == "spycraft":
                lines.append(f"a final attack on any of them crossing it: {names}")
            else:
                lines.append(f"the same effects on any of them entering it: {names}")
            lines += [str(m) for m in area.movers]
        lines += list(area.reasons)
        self.affected = tuple(affected)
        self.show_info(lines, path.boundingRect(), None if area.allowed else AREA_BAD)
