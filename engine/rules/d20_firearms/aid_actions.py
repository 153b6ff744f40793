"""d20 first aid: Treat Injury to stabilise a dying soldier (d20 Modern's core rule; the
texts we hold have no dying rules, see ``health``).

An attack action by a conscious soldier beside the dying one: 1d20 + Treat Injury bonus
against DC 15, at -4 without a medical kit. Success makes it stable (no hit points come
back); failure changes nothing, and it may be tried again.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of, error_reasons
from engine.rules.d20_firearms import board, health
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.handlers import register, target_of
from engine.rules.overlays import target_overlay
from engine.tokens import Token

TREAT_INJURY = "treat_injury"
#: What the check's modifiers apply to, in the preview's words.
CHECK = "Treat Injury check"


def treat_modifiers(actor: Token) -> tuple[Modifier, ...]:
    """The check's named parts: the skill, and the penalty for working without a kit."""
    mods = [Modifier("Treat Injury", board.stat_int(actor, "treat_injury"), CHECK)]
    if not board.STATS.flag(actor, "medical_kit"):
        mods.append(Modifier("No medical kit", special.NO_MEDICAL_KIT_PENALTY, CHECK))
    return tuple(m for m in mods if m.value)


def _treat_check(state: EncounterState, command: Command) -> list[str]:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return error_reasons(error)
    if board.health(target) is not board.Health.DYING:
        return [f"{target.name} is not dying ({_state(target)}): only a dying soldier is "
                "stabilised"]
    if not common.adjacent(actor, target):
        return [f"{target.name} is not beside {actor.name}"]
    return []


def _state(token: Token) -> str:
    return str(board.health(token))


def _treat_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return Preview(command, False, summary=f"Treat Injury: {error}")
    mods = treat_modifiers(actor)
    bonus = sum(m.value for m in mods)
    return Preview(command, True, summary=f"Treat Injury: {actor.name} tends {target.name}, "
                   f"1d20{bonus:+d} against DC {special.TREAT_INJURY_DC}; success stabilises.",
                   targets=(target.id,), modifiers=mods,
                   overlay=target_overlay(actor.id, (target.id,), mods),
                   rolls=(f"Treat Injury 1d20{bonus:+d}",))


def _treat_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    bonus = sum(m.value for m in treat_modifiers(actor))
    roll = dice.roll(f"1d20{bonus:+d}", f"{actor.name} Treat Injury on {target.name}")
    if roll.total < special.TREAT_INJURY_DC:
        return state, (Event(EventKind.ROLL, f"{actor.name} tends {target.name}: {roll.total} "
                             f"against DC {special.TREAT_INJURY_DC}, not stabilised.",
                             (actor.id, target.id), roll),)
    said = Event(EventKind.ROLL, f"{actor.name} tends {target.name}: {roll.total} against DC "
                 f"{special.TREAT_INJURY_DC}, stabilised.", (actor.id, target.id), roll)
    state, marked = health.mark(state, target.id, board.STABLE)
    return state, (said, marked)


register(TREAT_INJURY, _treat_check, _treat_describe, _treat_resolve)
