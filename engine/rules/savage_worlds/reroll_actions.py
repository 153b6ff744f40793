"""Reroll: a token spends a Benny to roll again a Trait roll it just made, keeping the better
(what is kept and for how long: ``rerolls``).

What the better roll changes, by the roll: a missed attack that now hits rolls its damage
(a d6 more on a raise) against the target as the first roll would have; a Vigor roll
against Incapacitation that now succeeds leaves the token stable; one while Bleeding Out
is read again (a success keeps it alive, a raise stabilises it, and a death by the first
roll is taken back); a Healing roll that now succeeds stops the patient's bleeding.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.base import Command, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.savage_worlds import attack_math, board, incapacitation, rerolls
from engine.rules.savage_worlds.combat_state import RerollableRoll
from engine.rules.savage_worlds.handlers import register
from engine.rules.savage_worlds.rerolls import ROLL_WORDS, RollKind
from engine.rules.savage_worlds.traits import outcome, trait_roll

Effect = Callable[[EncounterState, RerollableRoll, int, Dice], tuple[EncounterState, list[Event]]]


def _check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    kept = rerolls.last_roll(state, actor.id)
    if kept is None:
        return [f"{actor.name} has no roll to reroll (a Benny rerolls a missed attack or a "
                "failed Vigor or Healing roll, right after it)"]
    reasons = []
    if kept.critical_failure:
        reasons.append(f"{actor.name}'s roll was a critical failure: no Benny rerolls it")
    if board.stat_int(actor, "bennies") < 1:
        reasons.append(f"{actor.name} has no Benny to spend")
    return reasons


def _describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    kept = rerolls.last_roll(state, actor.id)
    if kept is None:
        return Preview(command, False, summary="Reroll (rule: Bennies): no roll to reroll.")
    summary = (f"Reroll (rule: Bennies): {actor.name} spends a Benny "
               f"({board.stat_int(actor, 'bennies') - 1} left) to roll "
               f"{ROLL_WORDS[RollKind(kept.kind)]} again, {kept.trait.title()} d{kept.die} "
               f"{kept.modifier:+d} against {kept.target_number}; the better roll ({kept.best} "
               "so far) counts.")
    return Preview(command, True, summary=summary, rolls=(f"{kept.trait} d{kept.die}",),
                   cost="free")


def _resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    kept = rerolls.last_roll(state, actor.id)
    assert kept is not None  # checked first
    bennies = board.stat_int(actor, "bennies") - 1
    state = common.set_stat(state, actor.id, bennies=bennies)
    roll = trait_roll(kept.die, dice, modifier=kept.modifier,
                      wild_card=board.is_wild_card(actor),
                      purpose=f"{actor.name} rerolls {kept.trait.title()}")
    # A critical failure on the reroll is only a bad roll: the first one still counts.
    best = kept.best if roll.critical_failure else max(kept.best, roll.total)
    events = [Event(EventKind.ROLL, f"{actor.name} spends a Benny ({bennies} left) to reroll "
                    f"{ROLL_WORDS[RollKind(kept.kind)]}: {kept.trait.title()} {roll}; "
                    f"{best} counts.", (actor.id,))]
    state, more = _EFFECTS[RollKind(kept.kind)](state, kept, best, dice)
    return state, (*events, *more)


def _attack(state: EncounterState, kept: RerollableRoll, best: int,
            dice: Dice) -> tuple[EncounterState, list[Event]]:
    attacker = state.token(kept.roller)
    target = state.token(kept.other)
    result = outcome(best, kept.target_number)
    if not result.success:
        return rerolls.improved(state, kept.roller, best), [Event(
            EventKind.ATTACK, f"{attacker.name} still misses {target.name}.",
            (attacker.id, target.id))]
    state = rerolls.forget(state, kept.roller)
    said = "hits with a raise" if result.raises else "hits"
    events = [Event(EventKind.ATTACK, f"{attacker.name} {said} {target.name} after all.",
                    (attacker.id, target.id))]
    weapon = attack_math.weapon_named(attacker, kept.weapon)
    state, _, damage = attack_math.hit_with(state, attacker, target, weapon, result.raises,
                                            kept.damage_bonus, kept.armor_piercing, dice)
    return state, [*events, *damage]


def _stop_bleeding(state: EncounterState, kept: RerollableRoll, best: int, patient_id: str,
                  words: str) -> tuple[EncounterState, list[Event]]:
    """A roll whose success stops the patient's bleeding (his own Vigor against
    Incapacitation, a healer's Healing)."""
    patient = state.token(patient_id)
    if not outcome(best).success:
        return rerolls.improved(state, kept.roller, best), [Event(
            EventKind.CONDITION, f"{patient.name} is still Bleeding Out.", (patient.id,))]
    if incapacitation.bleeding_out(patient):
        state = incapacitation.stabilised(state, patient.id)
    return rerolls.forget(state, kept.roller), [Event(
        EventKind.CONDITION, f"{patient.name} {words}.", (patient.id,))]


def _incapacitation(state: EncounterState, kept: RerollableRoll, best: int,
                    dice: Dice) -> tuple[EncounterState, list[Event]]:
    return _stop_bleeding(state, kept, best, kept.roller, "is stable after all: no longer "
                          "Bleeding Out, still Incapacitated")


def _bleeding(state: EncounterState, kept: RerollableRoll, best: int,
              dice: Dice) -> tuple[EncounterState, list[Event]]:
    token = state.token(kept.roller)
    was_dead = token.has_condition(board.DEAD)
    fate = incapacitation.bleeding_fate_of(best)
    state = incapacitation.refate(state, token.id, fate)
    words = {incapacitation.Fate.DEAD: "still dies",
             incapacitation.Fate.BLEEDING: ("does not die after all: " if was_dead else "")
             + "still Bleeding Out",
             incapacitation.Fate.STABLE: ("does not die after all: " if was_dead else "")
             + "stabilises, still Incapacitated"}[fate]
    if fate is incapacitation.Fate.STABLE:
        state = rerolls.forget(state, kept.roller)
    else:
        state = rerolls.improved(state, kept.roller, best)
    return state, [Event(EventKind.CONDITION, f"{token.name} {words}.", (token.id,))]


def _stabilise(state: EncounterState, kept: RerollableRoll, best: int,
               dice: Dice) -> tuple[EncounterState, list[Event]]:
    return _stop_bleeding(state, kept, best, kept.other,
                          "stops bleeding (stable, still Incapacitated)")


_EFFECTS: dict[RollKind, Effect] = {
    RollKind.ATTACK: _attack,
    RollKind.INCAPACITATION: _incapacitation,
    RollKind.BLEEDING: _bleeding,
    RollKind.STABILISE: _stabilise,
}

register("reroll", _check, _describe, _resolve, out_of_turn=True)
