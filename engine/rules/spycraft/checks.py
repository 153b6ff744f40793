"""Opposed checks and their four outcomes, as many Spycraft actions use them.

A threat (natural 20 on a check, or within the weapon's threat range on an attack)
becomes a critical success only when the acting side spends an Action Die: the command
option ``action_die=True``. An error (natural 1, widened by the action's error range)
becomes a critical failure only when the GM spends a die: ``activate_error=True``. The dice
come out of the pools (``action_dice``) only when they are used; the log always names
threats and errors so the table can decide.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, Roll
from engine.encounter import EncounterState
from engine.rules.base import Command, Event, EventKind
from engine.rules.spycraft import action_dice
from engine.rules.spycraft.board import (
    FLAT_FOOTED,
    add_condition,
    add_fluid,
    grant_edge,
    set_data,
    stat_int,
    until_next_turn,
)
from engine.tokens import Token


@dataclass(frozen=True, slots=True)
class Opposed:
    actor_roll: Roll
    other_roll: Roll
    actor_wins: bool
    #: The acting character's win is a critical success, or the opponent erred critically.
    actor_critical: bool
    #: The opponent's win is a critical success, or the acting character erred critically.
    other_critical: bool
    margin: int
    events: tuple[Event, ...]


def _threat(roll: Roll) -> bool:
    return roll.natural == 20


def _error(roll: Roll, error_range: int) -> bool:
    return roll.natural is not None and roll.natural <= 1 + error_range


def opposed(
    dice: Dice,
    command: Command,
    actor: Token,
    actor_bonus: int,
    other: Token,
    other_bonus: int,
    what: str,
    error_range: int = 0,
) -> Opposed:
    """Roll an opposed check; ties go to the opponent (the one resisting)."""
    a = dice.roll(f"1d20{actor_bonus:+d}", f"{actor.name} {what}")
    b = dice.roll(f"1d20{other_bonus:+d}", f"{other.name} resists ({what})")
    wins = a.total > b.total
    spend = bool(command.option("action_die", False))
    activate = bool(command.option("activate_error", False))
    actor_critical = wins and ((_threat(a) and spend) or (_error(b, 0) and activate))
    other_critical = (not wins) and ((_error(a, error_range) and activate) or _threat(b))
    verdict = f"{actor.name} wins" if wins else f"{other.name} wins"
    if actor_critical:
        verdict += " critically"
    if other_critical:
        verdict += " critically"
    events: tuple[Event, ...] = (
        Event(
            EventKind.ROLL,
            f"{actor.name} {what}: {a.total} against {other.name}'s {b.total}; {verdict}.",
            (actor.id, other.id),
            a,
        ),
    )
    if actor_critical and _threat(a) and spend:
        events += (action_dice.spent(actor, f"critical success ({what})"),)
    elif actor_critical:
        events += (action_dice.gm_spent(other, f"critical failure ({what})"),)
    if other_critical and _error(a, error_range) and activate:
        events += (action_dice.gm_spent(actor, f"critical failure ({what})"),)
    return Opposed(a, b, wins, actor_critical, other_critical, a.total - b.total, events)


def straight(
    dice: Dice, command: Command, actor: Token, bonus: int, dc: int, what: str, error_range: int = 0
) -> tuple[bool, bool, bool, Roll, tuple[Event, ...]]:
    """A check against a DC: (success, critical success, critical failure, roll, events)."""
    roll = dice.roll(f"1d20{bonus:+d}", f"{actor.name} {what}")
    success = roll.total >= dc
    critical = success and _threat(roll) and bool(command.option("action_die", False))
    fumble = (
        (not success)
        and _error(roll, error_range)
        and bool(command.option("activate_error", False))
    )
    word = "succeeds" if success else "fails"
    event = Event(
        EventKind.ROLL,
        f"{actor.name} {what}: {roll.total} against DC {dc}, {word}.",
        (actor.id,),
        roll,
    )
    spends: tuple[Event, ...] = (
        (action_dice.spent(actor, f"critical success ({what})"),) if critical else ())
    if fumble:
        spends += (action_dice.gm_spent(actor, f"critical failure ({what})"),)
    return success, critical, fumble, roll, (event, *spends)


def save(
    dice: Dice, token: Token, kind: str, dc: int, modifier: int = 0
) -> tuple[bool, Roll, Event]:
    """A saving throw (``fortitude``, ``reflex`` or ``will`` stat) against a DC."""

    bonus = stat_int(token, kind) + modifier
    roll = dice.roll(f"1d20{bonus:+d}", f"{token.name} {kind.capitalize()} save")
    ok = roll.total >= dc
    word = "makes it" if ok else "fails"
    return (
        ok,
        roll,
        Event(
            EventKind.ROLL,
            f"{token.name} {kind.capitalize()} save: {roll.total} against DC {dc}, {word}.",
            (token.id,),
            roll,
        ),
    )


def failed_save_fluid(state: EncounterState, token_id: str, ok: bool) -> EncounterState:
    """Table: Fluid Initiative Modifiers: a failed saving throw costs 2."""

    return state if ok else add_fluid(state, token_id, -2)


def check_roll(dice: Dice, bonus: int, purpose: str) -> Roll:
    """A plain d20 check (an attack's, whose threat and error the caller reads)."""
    return dice.roll(f"1d20{bonus:+d}", purpose)


# ---- a lost check


def note_failed_check(state: EncounterState, token_id: str) -> EncounterState:
    """Remember a failed attack or skill check (it breaks a Joint Action)."""
    if not state.combat.has(token_id):
        return state
    return set_data(state, token_id, failed_check=True)


def flat_footed_after_failure(state: EncounterState, loser: str) -> tuple[EncounterState, Event]:
    """A lost contest: note the failed check; the loser is flat-footed until his next turn."""
    state = note_failed_check(state, loser)
    return add_condition(state, loser, FLAT_FOOTED, until_next_turn(state, loser))


def lose_opposed_check(
    state: EncounterState, loser: str, winner: str, winner_critical: bool
) -> tuple[EncounterState, list[Event]]:
    """A lost contest where the winner's critical earns him +2 on his next attack at the loser
    (until the winner's next turn)."""
    state, flat = flat_footed_after_failure(state, loser)
    events = [flat]
    if winner_critical:
        state, edge = grant_edge(state, winner, loser, 2, until_next_turn(state, winner))
        events.append(edge)
    return state, events
