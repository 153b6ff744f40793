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
from engine.grid import distance_squares
from engine.rules.base import Event, EventKind
from engine.tokens import Condition, Expiry, ExpiryPoint, Side, Token, are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import DataValue

PRONE = "Prone"
TOTAL_DEFENSE = "Total Defense"
CHARGING = "Charging"
SCREENING = "Screening"
SCREENED = "Screened"
HOLDING = "Holding an Action"
DOWN = "Mortally Wounded"
UNTRAINED = -1
COMBAT_SKILLS = ("shoot", "stab", "punch")


def stat_int(token: Token, name: str, default: int = 0) -> int:
    value = token.stat(name, default)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return int(value)
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{token.name}: stat {name!r} must be a number, not {value!r}") from None


def skill(token: Token, name: str) -> int:
    return stat_int(token, name, UNTRAINED)


def combat_skill(token: Token) -> int:
    """The best of Shoot, Stab and Punch."""
    return max(skill(token, s) for s in COMBAT_SKILLS)


def is_pc(token: Token) -> bool:
    return token.side is Side.PARTY


def out_of_fight(token: Token) -> bool:
    return token.has_condition(DOWN)


def adjacent(a: Token, b: Token) -> bool:
    return any(max(abs(p.x - q.x), abs(p.y - q.y)) <= 1 for p in a.squares for q in b.squares)


def metres_between(state: EncounterState, a: Token, b: Token) -> float:
    squares = min(
        distance_squares(p, q, state.scale.diagonal) for p in a.squares for q in b.squares
    )
    return state.scale.distance(squares)


def opponents(state: EncounterState, token: Token) -> list[Token]:
    return [t for t in state.tokens if are_opponents(token.side, t.side) and not out_of_fight(t)]


def enemy_in_melee(state: EncounterState, token: Token) -> bool:
    """An enemy attacker in melee range: an adjacent foe still in the fight."""
    return any(adjacent(token, foe) for foe in opponents(state, token))


# --- writing --------------------------------------------------------------------------------


def put(state: EncounterState, token: Token) -> EncounterState:
    return state.with_token(token)


def add_condition(
    state: EncounterState, token_id: str, name: str, expires: Expiry | None = None, *,
    source: str | None = None, value: int = 0,
) -> tuple[EncounterState, Event]:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if not (c.name == name and c.source == source))
    state = put(state, replace(token, conditions=(*kept, Condition(name, expires, source, value))))
    return state, Event(EventKind.CONDITION, f"{token.name} is {name}.", (token_id,))


def remove_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, conditions=tuple(c for c in token.conditions
                                                      if c.name != name)))


def until_next_turn(state: EncounterState, token_id: str) -> Expiry:
    """Until the start of the token's next turn."""
    combat = state.combat
    upcoming = combat.round
    if combat.has(token_id):
        mine = combat.combatant(token_id)
        if mine.acted or combat.active == token_id:
            upcoming += 1
    return Expiry(upcoming, ExpiryPoint.START_OF_TURN, token_id)


def end_of_round(state: EncounterState) -> Expiry:
    return Expiry(state.combat.round, ExpiryPoint.END_OF_ROUND)


def set_stat(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, stats={**token.stats, **changes}))


def data(state: EncounterState, token_id: str, key: str, default: DataValue = 0) -> DataValue:
    if not state.combat.has(token_id):
        return default
    return state.combat.combatant(token_id).get(key, default)


def set_data(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return turn_order.update(state, replace(mine, data={**mine.data, **changes}))


def set_combat_data(state: EncounterState, **changes: DataValue) -> EncounterState:
    combat = state.combat
    return replace(state, combat=replace(combat, data={**combat.data, **changes}))
