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
from engine.overlay import Overlay, OverlayToken, Role, SquareMark, Tone
from engine.rules.base import Event, EventKind
from engine.rules.overlays import lasting_area
from engine.rules.spycraft import board
from engine.rules.spycraft.final_attack import final_attack
from engine.tokens import Token, are_opponents
from engine.turns.combat import PendingAction


def suppression_zones(state: EncounterState) -> list[PendingAction]:
    return [p for p in state.combat.pending if p.kind == "suppress"]


def zone_square(zone: PendingAction) -> Square:
    return Square(int(zone.data["x"]), int(zone.data["y"]))


def _crossing(mover: Token, square: Square, path: tuple[Square, ...]) -> Token | None:
    """The mover where its path first covers ``square`` (None: the path misses it)."""
    return next(
        (mover.moved_to(step) for step in path if square in mover.moved_to(step).squares),
        None,
    )


def zones_crossed(
    state: EncounterState, mover_id: str, path: tuple[Square, ...]
) -> list[tuple[Token, Square, str]]:
    """(shooter, square, weapon) of each opponent's zone the path runs through: each one
    suppresses the mover and gives the shooter a final attack."""
    mover = state.token(mover_id)
    found = []
    for zone in suppression_zones(state):
        try:
            shooter = state.token(zone.token_id)
        except KeyError:
            continue
        square = zone_square(zone)
        if are_opponents(shooter.side, mover.side) and _crossing(mover, square, path):
            found.append((shooter, square, str(zone.data["weapon"])))
    return found


def crossing_overlay(
    state: EncounterState, mover_id: str, path: tuple[Square, ...]
) -> tuple[Overlay, tuple[str, ...]]:
    """What a move through suppressed squares will draw, for its preview: the shooters as
    threats, the squares marked, and one note per final attack."""
    crossed = zones_crossed(state, mover_id, path)
    notes = tuple(
        f"crosses {shooter.name}'s Suppressive Fire at {square}: suppressed (-4) and a final "
        f"attack with the {weapon}"
        for shooter, square, weapon in crossed
    )
    overlay = Overlay(
        marks=tuple(SquareMark(square, "final attack", Tone.INFO) for _, square, _ in crossed),
        tokens=tuple(
            OverlayToken(shooter.id, Role.THREAT, note=f"final attack with the {weapon}")
            for shooter, _, weapon in crossed
        ),
    )
    return overlay, notes


def suppression_overlay(state: EncounterState) -> Overlay:
    """Every Suppressive Fire zone still in force, as an area on the map."""
    parts = []
    for zone in suppression_zones(state):
        try:
            shooter = state.token(zone.token_id).name
        except KeyError:
            continue
        label = (
            f"Suppressive Fire by {shooter} ({zone.data['weapon']}): an opponent crossing "
            "it is suppressed and draws a final attack"
        )
        parts.append(lasting_area(label, [zone_square(zone)]))
    return Overlay().plus(*parts)


def suppression_on_move(
    state: EncounterState, mover_id: str, path: tuple[Square, ...], dice: Dice
) -> tuple[EncounterState, list[Event]]:
    """Each opponent moving through a suppressed square: -4 to checks and a final attack."""
    events: list[Event] = []
    for zone in suppression_zones(state):
        square = zone_square(zone)
        shooter_id = zone.token_id
        mover = state.token(mover_id)
        try:
            shooter = state.token(shooter_id)
        except KeyError:
            continue
        if not are_opponents(shooter.side, mover.side):
            continue
        crossing = _crossing(mover, square, path)
        if crossing is None:
            continue
        expiry = board.until_next_turn(state, shooter_id)
        state, _ = board.add_condition(state, mover_id, board.SUPPRESSED, expiry, source=shooter_id)
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
