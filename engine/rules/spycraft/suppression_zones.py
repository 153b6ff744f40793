"""Spycraft Suppressive Fire zones as state: where they are, what crossing one does, and
when one lapses.

A zone is a pending action of kind ``suppress`` holding its square, weapon and round. An
opponent moving through it is suppressed (-4 to attacks and skills) and draws a final
attack; the zone ends at the start of the shooter's next turn. The action that lays one
down is Suppressive Fire in ``fire_actions``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Event, EventKind
from engine.rules.spycraft import model
from engine.rules.spycraft.final_attack import final_attack
from engine.tokens import are_opponents
from engine.turns.combat import PendingAction


def suppression_zones(state: EncounterState) -> list[PendingAction]:
    return [p for p in state.combat.pending if p.kind == "suppress"]


def suppression_on_move(
    state: EncounterState, mover_id: str, path: tuple[Square, ...], dice: Dice
) -> tuple[EncounterState, list[Event]]:
    """Each opponent moving through a suppressed square: -4 to checks and a final attack."""
    events: list[Event] = []
    for zone in suppression_zones(state):
        square = Square(int(zone.data["x"]), int(zone.data["y"]))
        shooter_id = zone.token_id
        mover = state.token(mover_id)
        try:
            shooter = state.token(shooter_id)
        except KeyError:
            continue
        if not are_opponents(shooter.side, mover.side):
            continue
        crossing = next(
            (mover.moved_to(step) for step in path if square in mover.moved_to(step).squares),
            None,
        )
        if crossing is None:
            continue
        expiry = model.until_next_turn(state, shooter_id)
        state, _ = model.add_condition(state, mover_id, model.SUPPRESSED, expiry, source=shooter_id)
        events.append(
            Event(
                EventKind.CONDITION,
                f"{mover.name} runs through suppressed {square}: -4 to attacks and skills.",
                (mover_id,),
            )
        )
        try:
            weapon = shooter.weapon(str(zone.data["weapon"]))
        except KeyError:
            continue
        if weapon.ammo < 1:
            events.append(
                Event(
                    EventKind.NOTE,
                    f"{shooter.name} is out of ammunition: no final attack.",
                    (shooter_id,),
                )
            )
            continue
        # The shot meets him in the suppressed square: his cover is judged there.
        state, more = final_attack(state, dice, shooter, crossing, weapon, "Suppressive Fire")
        events.extend(more)
    return state, events


def expire_suppression(state: EncounterState, token_id: str) -> EncounterState:
    """A suppression lasts 1 full round: it ends at the start of the shooter's next turn."""
    kept = tuple(
        p
        for p in state.combat.pending
        if not (
            p.kind == "suppress"
            and p.token_id == token_id
            and int(p.data["round"]) < state.combat.round
        )
    )
    return replace(state, combat=replace(state.combat, pending=kept))
