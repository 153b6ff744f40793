"""Reads and writes over the encounter state that the Cities Without Number actions share.

Token stats read here (all optional): ``dex_mod``, ``str_mod`` (attribute modifiers, 0),
``attack_bonus`` (0), skill levels ``shoot``, ``stab``, ``punch``, ``exert`` and any other
skill by name (a missing skill is -1, untrained), ``ac_melee`` and ``ac_ranged`` (10),
``hp`` (10), ``disciplined`` (NPCs able to Snap Attack), ``cyber_armor`` (integral armour
that lets a screen block gunfire).
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Event, EventKind
from engine.rules.cities_without_number.catalogue import ACTIONS
from engine.rules.cities_without_number.schema import STATS as STATS  # read as board.STATS
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token, are_opponents
from engine.words import condition_given

PRONE = "Prone"
TOTAL_DEFENSE = "Total Defense"
CHARGING = "Charging"
SCREENING = "Screening"
SCREENED = "Screened"
HOLDING = "Holding an Action"
DOWN = "Mortally Wounded"
UNTRAINED = -1
COMBAT_SKILLS = ("shoot", "stab", "punch")


#: A whole-number stat through the schema (its default when the token has none).
stat_int = STATS.number

#: Distance in this system's unit, nearest square to nearest square.
metres_between = common.distance_between


def skill(token: Token, name: str) -> int:
    return stat_int(token, name)  # the schema's default: untrained


def combat_skill(token: Token) -> int:
    """The best of Shoot, Stab and Punch."""
    return max(skill(token, s) for s in COMBAT_SKILLS)


def is_pc(token: Token) -> bool:
    return token.side is Side.PARTY


def out_of_fight(token: Token) -> bool:
    return token.has_condition(DOWN)


def opponents(state: EncounterState, token: Token) -> list[Token]:
    return [t for t in state.tokens if are_opponents(token.side, t.side) and not out_of_fight(t)]


def enemy_in_melee(state: EncounterState, token: Token) -> bool:
    """An enemy attacker in melee range: an adjacent foe still in the fight."""
    return any(common.adjacent(token, foe) for foe in opponents(state, token))


# --- writing --------------------------------------------------------------------------------


def add_condition(
    state: EncounterState, token_id: str, name: str, expires: Expiry | None = None, *,
    source: str | None = None, value: int = 0,
) -> tuple[EncounterState, Event]:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if not (c.name == name and c.source == source))
    new = Condition(name, expires, source, value)
    state = common.put(state, replace(token, conditions=(*kept, new)))
    line = condition_given(token.name, name, (a.name for a in ACTIONS))  # "takes Total Defense"
    return state, Event(EventKind.CONDITION, line, (token_id,))


def end_of_round(state: EncounterState) -> Expiry:
    return Expiry(state.combat.round, ExpiryPoint.END_OF_ROUND)
