"""Run lines: where a straight Run may end, and the line (or why not) to the hovered square.

Spycraft and the d20 family: the engine's ``run_destinations`` and ``run_line`` (up to four
times Speed in a straight line). Cities Without Number: a Run is a normal move, so the
destinations are the engine's ``cwn_run`` reach, and the adjacent armed enemies who get
a free attack as the runner leaves are ringed and listed. A click runs the session's
``run`` along the route. Savage Worlds has no Run line (running is an option of a move),
so the tool only says so there.
"""

from __future__ import annotations

from desktop.scene.rule_overlays import AREA_BAD, TokenRingItem
from desktop.tools.destinations import DestinationTool
from engine.grid import Square
from engine.routes import Route
from engine.routes.run import run_destinations, run_line
from engine.routes.withdraw import CwnRun, cwn_run
from engine.tokens import Token

CWN = "cities-without-number"
SAVAGE = "savage-worlds"


class RunTool(DestinationTool):
    name = "Run"
    action_key = "run"
    cwn: CwnRun | None = None

    def find_destinations(self, actor: Token) -> tuple[frozenset[Square], list[str]]:
        movement = self.movement()
        if self.state.system == CWN:
            self.cwn = cwn_run(movement, actor.id)
            lines = [f"Run of {actor.name}: a normal move"]
            for attack in self.cwn.free_attacks:
                enemy = self.state.token(attack.attacker_id)
                lines.append(f"{enemy.name}: free attack with the {attack.weapon}")
            lines += list(self.cwn.notes)
            return self.cwn.reach.squares, lines
        if self.state.system == SAVAGE:
            return frozenset(), [
                "Savage Worlds has no Run line: Running is a move option (the drag tool)"
            ]
        found = run_destinations(movement, actor.id)
        return frozenset(found), [f"Run of {actor.name}: straight lines only"]

    def draw_extras(self, actor: Token) -> None:
        if self.state.system != CWN or self.cwn is None:
            return
        for attack in self.cwn.free_attacks:
            enemy = self.state.token(attack.attacker_id)
            tip = f"free attack with the {attack.weapon} as {actor.name} leaves"
            self.add_overlay(TokenRingItem(enemy.square, enemy.size, AREA_BAD, tip))

    def route_to(self, actor: Token, square: Square) -> tuple[Route | None, tuple[str, ...]]:
        if self.state.system == SAVAGE:
            return None, ("Savage Worlds has no Run line",)
        if self.state.system == CWN:
            if self.cwn is None or square not in self.cwn.reach:
                return None, ("beyond a normal move",)
            return self.cwn.reach.route_to(square), ()
        answer = run_line(self.movement(), actor.id, square)
        return answer.route, answer.reasons
