"""Withdraw (Spycraft): where a Withdraw may end, and the route to the hovered square.

The engine's ``withdraw`` answers the destinations within twice Speed whose first step
(two when the token stands between two opponents) leaves every opponent's side; a click
on one runs the session's ``withdraw`` along the engine's route.
"""

from __future__ import annotations

from desktop.tools.destinations import DestinationTool
from engine.grid import Square
from engine.routes import Route
from engine.routes.withdraw import Withdrawal, withdraw
from engine.tokens import Token


class WithdrawTool(DestinationTool):
    name = "Withdraw"
    action_key = "withdraw"
    withdrawal: Withdrawal | None = None

    def find_destinations(self, actor: Token) -> tuple[frozenset[Square], list[str]]:
        self.withdrawal = withdraw(self.movement(), actor.id)
        answer = self.withdrawal
        lines = [f"Withdraw of {actor.name}: {len(answer.reach.squares)} squares"]
        if answer.between is not None:
            names = " and ".join(self.state.token(t).name for t in answer.between)
            lines.append(f"between {names}: the first 10 ft must leave them")
        lines += list(answer.reasons)
        squares = answer.reach.squares if answer.allowed else frozenset()
        return squares, lines

    def route_to(self, actor: Token, square: Square) -> tuple[Route | None, tuple[str, ...]]:
        answer = self.withdrawal
        if answer is None or square not in answer.reach:
            reasons = answer.reasons if answer is not None and answer.reasons else ()
            return None, reasons or ("a Withdraw cannot end there",)
        return answer.reach.route_to(square), ()
