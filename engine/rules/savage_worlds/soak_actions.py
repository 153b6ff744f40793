"""Soak: a Wild Card spends a Benny right after a hit to shake off its Wounds.

The Special Actions text does not cover Bennies; this is the core rule as tables play it,
in our words: spend a Benny, roll Vigor; a success soaks one of the hit's Wounds and each
raise one more. Soaking every Wound of the hit also lifts the Shaken it caused, and a token
the hit took out is back in the fight once its Wounds are within its limit again, with its
Incapacitation roll taken back (Bleeding Out, or a death by that roll: in the book the Soak
comes before that roll; see ``incapacitation``). One killed otherwise cannot soak.

Board choices, where the rule leaves the table to remember: the hit's Wounds (and whether
it Shook the token) are kept on the combatant by ``attack_math.apply_damage`` until the next
hit, so a Soak is always against the last hit; a second Soak is a fresh roll against what is
left of it (tables that let the second Benny reroll the first roll, best one counting, get
the same Wounds or more soaked, never fewer). The Vigor roll takes the Wound penalty of the
Wounds the token had before that hit.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.base import Command, Outcome
from engine.rules.common import actor_of
from engine.rules.savage_worlds import board, incapacitation, trait_bonuses
from engine.rules.savage_worlds.attack_math import LAST_HIT_SHAKEN, LAST_HIT_WOUNDS
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.handlers import register, simple_describe
from engine.rules.savage_worlds.health import wound_limit
from engine.rules.savage_worlds.traits import outcome, trait_roll
from engine.words import counted


def hit_wounds(state: EncounterState, token_id: str) -> int:
    """The Wounds of the token's last hit not soaked yet."""
    return int(common.data(state, token_id, LAST_HIT_WOUNDS, 0))


def _soak_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reasons: list[str] = []
    if hit_wounds(state, actor.id) <= 0:
        reasons.append(f"{actor.name} has no Wounds from the last hit to soak")
    if board.stat_int(actor, "bennies") < 1:
        reasons.append(f"{actor.name} has no Benny to spend")
    if actor.has_condition(board.DEAD) and not incapacitation.killed_by_last_hit(state, actor.id):
        reasons.append(f"{actor.name} is dead")
    return reasons


def _soak_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    owed = hit_wounds(state, actor.id)
    before_hit = max(0, board.wounds(actor) - owed)
    bennies = board.stat_int(actor, "bennies") - 1
    state = common.set_stat(state, actor.id, bennies=bennies)
    die, untrained = board.trait_die(actor, "vigor")
    # The Wounds before the hit count, and the rest the token carries (Fatigue, Distracted).
    carried = sum(m.value for m in trait_bonuses.standing_modifiers(actor) if m.name != "Wounds")
    modifier = untrained - min(before_hit, board.MAX_WOUND_PENALTY) + carried
    roll = trait_roll(die, dice, modifier=modifier,
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} soaks (Vigor)")
    result = outcome(roll.total)
    soaked = min(owed, 1 + result.raises) if result.success else 0
    # The roll and what it does are two lines, as an attack's are: the dice dialog shows the
    # roll as its rows and the rest as what these faces would do.
    events = [Event(EventKind.ROLL, f"{actor.name} spends a Benny ({bennies} left) to soak: "
                    f"Vigor {roll}.", (actor.id,)),
              Event(EventKind.DAMAGE, f"{actor.name} soaks {soaked} of the hit's "
                    f"{counted(owed, 'Wound')}.", (actor.id,))]
    if not soaked:
        return state, tuple(events)
    wounds = board.wounds(actor) - soaked
    state = common.set_stat(state, actor.id, wounds=wounds)
    state = common.set_data(state, actor.id, **{LAST_HIT_WOUNDS: owed - soaked})
    if soaked == owed and common.data(state, actor.id, LAST_HIT_SHAKEN, False):
        state = common.remove_condition(state, actor.id, SWCondition.SHAKEN)
        events.append(Event(EventKind.CONDITION, f"{actor.name} is no longer Shaken.",
                            (actor.id,)))
    token = state.token(actor.id)
    if token.has_condition(board.INCAPACITATED) and wounds <= wound_limit(token):
        state, back = incapacitation.back_in_the_fight(state, actor.id, soaked=True)
        events.extend(back)
    return state, tuple(events)


register("soak", _soak_check, simple_describe("Soak"), _soak_resolve, out_of_turn=True)
