"""A tiny rule system for desktop tests: a path move limited by speed, and one plain action.

The desktop must work with whatever system the engine provides; this stand-in keeps the
GUI tests independent of the real systems' rules. Its legality is test data, not a rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from engine.rules.base import (
    FIVE_FOOT,
    ActionEconomy,
    ActionSpec,
    Combatant,
    Command,
    Dice,
    EncounterState,
    Event,
    EventKind,
    InitiativeScheme,
    Need,
    Outcome,
    Preview,
    RuleSystem,
    StatSpec,
    path_cost_squares,
)


def _spend(state: EncounterState, token_id: str) -> EncounterState:
    order = tuple(
        replace(c, budget={**c.budget, "move": c.budget.get("move", 0) - 1})
        if c.token_id == token_id
        else c
        for c in state.combat.order
    )
    return replace(state, combat=replace(state.combat, order=order))


class StubSystem(RuleSystem):
    name = "desktop-stub"
    title = "Desktop test stub"
    scale = FIVE_FOOT
    economy = ActionEconomy({"move": 1}, "one move a turn")
    initiative_scheme = InitiativeScheme("count", "1d20", "init", "d20, high first")
    stats = (StatSpec("init", int, 0, -10, 30, label="Init"),)
    catalogue = (
        ActionSpec("move", "Move", "move", "move", "Walk up to your speed.", needs=(Need.PATH,)),
        ActionSpec("shout", "Shout", "misc", "free", "Say something loud."),
    )

    def _combatant(self, state: EncounterState, token_id: str) -> Combatant | None:
        return next((c for c in state.combat.order if c.token_id == token_id), None)

    def legal_actions(self, state: EncounterState, token_id: str) -> tuple[ActionSpec, ...]:
        can_move = not self._turn_blockers(state, token_id)
        return tuple(s for s in self.catalogue if s.key == "shout" or can_move)

    def _turn_blockers(self, state: EncounterState, token_id: str) -> list[str]:
        token = state.token(token_id)
        combatant = self._combatant(state, token.id)
        if combatant is None or state.combat.active != token.id:
            return [f"it is not {token.name}'s turn"]
        if combatant.budget.get("move", 0) < 1:
            return [f"{token.name} has already moved this turn"]
        return []

    def example_commands(self, state: EncounterState, token_id: str) -> Iterator[Command]:
        yield Command("shout", token_id)

    def check_action(self, state: EncounterState, command: Command) -> list[str]:
        if command.action == "shout":
            return []
        assert command.actor is not None
        token = state.token(command.actor)
        blockers = self._turn_blockers(state, token.id)
        if blockers:
            return blockers
        if not command.squares:
            return ["a move needs a path"]
        path = (token.square, *command.squares)
        cost = path_cost_squares(path, state.scale.diagonal)
        if cost > state.scale.squares(token.speed):
            return [f"{state.scale.describe(cost)} is beyond {token.name}'s speed"]
        return []

    def describe_action(self, state: EncounterState, command: Command) -> Preview:
        if command.action == "move" and command.actor is not None:
            token = state.token(command.actor)
            cost = path_cost_squares((token.square, *command.squares), state.scale.diagonal)
            return Preview(
                command,
                True,
                summary="move",
                cost=state.scale.describe(cost),
                squares=command.squares,
            )
        return Preview(command, True, summary="shout")

    def resolve_action(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        assert command.actor is not None
        token = state.token(command.actor)
        if command.action == "move":
            moved = _spend(state.with_token(token.moved_to(command.squares[-1])), token.id)
            return moved, (Event(EventKind.MOVE, f"{token.name} moves.", (token.id,)),)
        return state, (Event(EventKind.NOTE, f"{token.name} shouts.", (token.id,)),)
