"""Spycraft Stand Off actions: calling or joining one, and how it ends for one participant
(surrender, or take the shot when cracked). The Stand Off itself, as state, is in
``stand_offs``.

A participant whose stress passes his threshold in the round's Resolve contest is
``cracked`` (source: the winner who cracked him) and must choose at once: Surrender, or
Take the Shot. Anyone in a Stand Off may also surrender on his own before a Resolve
check. A surrendered character leaves the Stand Off and is ``surrendered``: every action
of his is refused unless the command says ``permitted=True`` (the GM records the
permission or order). Taking the shot: the nearest opponent in the Stand Off hits
automatically, a special character drops to -1 wound points, a standard one dies; the
damage ends the Stand Off for everyone. A Stand Off with one side left is over.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.spycraft import board
from engine.rules.spycraft.attack_math import cqb_range_ft
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.rules.spycraft.stand_offs import (
    end_stand_offs_for,
    stand_off_members,
    stand_offs,
)
from engine.tokens import Token, are_opponents
from engine.turns.combat import PendingAction

SHOT_WOUNDS = -1


@handles("stand_off")
class StandOff(SpycraftHandler):
    """A special character attacked from melee or CQB range freezes the fight: target the
    attacker. ``join=True`` (a half action, on his own turn) enters a Stand Off in CQB
    range on the side of his friends. Each round starts with opposed Resolve (Wis) checks:
    the losers take 1d6 + the winner's Wis in stress. Damage to anyone in it ends it."""

    out_of_turn = True

    def cost(self, state: EncounterState, command: Command) -> int | None:
        return 1 if command.option("join", False) else 0

    def check(self, state: EncounterState, command: Command) -> list[str]:

        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        reasons = []
        engaged = {m for p in stand_offs(state) for m in stand_off_members(p)}
        if command.option("join", False):
            if target.id not in engaged:
                reasons.append(f"{target.name} is not in a Stand Off")
            if state.combat.active != actor.id:
                reasons.append("joining a Stand Off is a half action on his own turn")
        else:
            if not board.STATS.flag(actor, "special"):
                reasons.append("only a special character may call a Stand Off")
            if not are_opponents(actor.side, target.side):
                reasons.append(f"{target.name} is not an opponent")
            if target.id in engaged:
                reasons.append(f"{target.name} is already in a Stand Off")
        if actor.id in engaged:
            reasons.append(f"{actor.name} is already in a Stand Off")
        if board.feet_between(state, actor, target) > cqb_range_ft(actor):
            reasons.append(f"{target.name} is not within melee or CQB range")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        if command.option("join", False):
            pending = next(p for p in stand_offs(state) if target.id in stand_off_members(p))
            members = (*stand_off_members(pending), actor.id)
            joined = replace(pending, tokens=members)
            kept = tuple(joined if p is pending else p for p in state.combat.pending)
            state = replace(state, combat=replace(state.combat, pending=kept))
            return state, (
                Event(EventKind.ACTION, f"{actor.name} joins the Stand Off.", (actor.id,)),
            )
        pending = PendingAction(
            actor.id, "standoff", "", "stand_off", tokens=(actor.id, target.id)
        )
        state = replace(
            state, combat=replace(state.combat, pending=(*state.combat.pending, pending))
        )
        return state, (
            Event(
                EventKind.ACTION,
                f"{actor.name} and {target.name} freeze in a Stand Off: weapons levelled, "
                "nobody fires.",
                (actor.id, target.id),
            ),
        )


def stand_off_of(state: EncounterState, token_id: str) -> PendingAction | None:
    return next((p for p in stand_offs(state) if token_id in stand_off_members(p)), None)


#: What a surrendered or cracked character may do without his captors' leave.
UNCOMPELLED = ("surrender", "take_the_shot")


def needs_leave(actor: Token, action: str) -> bool:
    """Whether ``action`` by ``actor`` takes his captors' leave (``permitted``): he has
    surrendered, and it is not one of the actions surrender leaves free."""
    return action not in UNCOMPELLED and actor.has_condition(board.SURRENDERED)


def surrender_reasons(state: EncounterState, actor: Token, command: Command) -> list[str]:
    """What a surrendered (or cracked) character may not do: the one compulsion check."""
    if command.action in UNCOMPELLED:
        return []
    if actor.has_condition(board.CRACKED):
        return [f"{actor.name} has cracked: he must Surrender or Take the Shot first"]
    for surrendered in board.conditions_named(actor, board.SURRENDERED):
        if not command.option("permitted", False):
            whom = state.token(surrendered.source).name if surrendered.source else "his captors"
            return [
                f"{actor.name} has surrendered: he acts only with {whom}'s permission or order "
                "(permitted=True)"
            ]
    return []


def _nearest_opponent(state: EncounterState, actor: Token, pending: PendingAction) -> Token | None:
    foes = [
        state.token(m)
        for m in stand_off_members(pending)
        if m != actor.id and are_opponents(actor.side, state.token(m).side)
    ]
    return min(foes, key=lambda t: board.squares_between(state, actor, t), default=None)


def _leave(
    state: EncounterState, pending: PendingAction, token_id: str
) -> tuple[EncounterState, list[Event]]:
    """Take him out of the Stand Off; end it when only one side is left."""
    members = [m for m in stand_off_members(pending) if m != token_id]
    sides = {state.token(m).side for m in members}
    if len(sides) < 2:
        kept = tuple(p for p in state.combat.pending if p is not pending)
        state = replace(state, combat=replace(state.combat, pending=kept))
        return state, [
            Event(EventKind.NOTE, "Only one side stands: the Stand Off is over.", tuple(members))
        ]
    left = replace(pending, tokens=tuple(members))
    kept = tuple(left if p is pending else p for p in state.combat.pending)
    return replace(state, combat=replace(state.combat, pending=kept)), []


def _own_preview(state: EncounterState, command: Command, what: str) -> Preview:
    actor = state.token(str(command.actor))
    return Preview(command, True, summary=f"{actor.name} {what}.")


@handles("surrender")
class Surrender(SpycraftHandler):
    out_of_turn = True

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if stand_off_of(state, actor.id) is None:
            return [f"{actor.name} is not in a Stand Off"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        return _own_preview(state, command, "surrenders: no action without his captors' leave")

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        cracked = board.conditions_named(actor, board.CRACKED)
        captor = cracked[0].source if cracked else None
        pending = stand_off_of(state, actor.id)
        assert pending is not None
        state = board.remove_condition(state, actor.id, board.CRACKED)
        state, event = board.add_condition(state, actor.id, board.SURRENDERED, source=captor)
        state, over = _leave(state, pending, actor.id)
        return state, (event, *over)


@handles("take_the_shot")
class TakeTheShot(SpycraftHandler):
    out_of_turn = True

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if not actor.has_condition(board.CRACKED):
            return [f"{actor.name} has not cracked in a Stand Off"]
        pending = stand_off_of(state, actor.id)
        if pending is None or _nearest_opponent(state, actor, pending) is None:
            return [f"nobody in {actor.name}'s Stand Off is left to shoot him"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        fate = "dies" if not board.STATS.flag(actor, "special") else "drops to -1 wound points"
        return _own_preview(
            state, command, f"refuses to yield: the nearest foe hits him and he {fate}"
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        pending = stand_off_of(state, actor.id)
        assert pending is not None
        shooter = _nearest_opponent(state, actor, pending)
        assert shooter is not None
        state = board.remove_condition(state, actor.id, board.CRACKED)
        events = [
            Event(
                EventKind.ATTACK,
                f"{shooter.name} fires on {actor.name}, who would not yield: an automatic hit.",
                (shooter.id, actor.id),
            )
        ]
        if board.STATS.flag(actor, "special"):
            state = state.with_token(board.with_stats(state.token(actor.id), wounds=SHOT_WOUNDS))
            events.append(
                Event(
                    EventKind.DAMAGE,
                    f"{actor.name} drops to {SHOT_WOUNDS} wound points.",
                    (actor.id,),
                )
            )
            state, down = board.add_condition(state, actor.id, board.UNCONSCIOUS)
            events.append(down)
        else:
            state, dead = board.add_condition(state, actor.id, board.DEAD)
            events.append(dead)
        state, ended = end_stand_offs_for(state, actor.id)
        return state, (*events, *ended)
