"""Reads and writes over the encounter state that the d20 firearms actions share.

Token stats read here (all optional): ``initiative`` (bonus, 0), ``ranged_attack`` and
``melee_attack`` (attack bonuses, 0), ``defense`` (10), ``hp`` (10), ``reflex`` (save
bonus, 0), ``perception`` (0), ``int_mod`` (0), ``str_score`` (10), feats as booleans
(``advanced_firearms``, ``quick_recon``), ``drawn`` (comma list of weapons in hand; absent
means every weapon is drawn).
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.grid import distance_squares
from engine.rules.base import Event, EventKind
from engine.tokens import Condition, Expiry, ExpiryPoint, Token, are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import DataValue

AIMING = "Aiming"
OVERWATCH = "Overwatch"
CHARGING = "Charging"
SUPPRESSED = "Suppressed"
TAKING_COVER = "Taking Cover"
DOWN = "Disabled"
PRONE = "Prone"


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


def out_of_fight(token: Token) -> bool:
    return token.has_condition(DOWN)


def adjacent(a: Token, b: Token) -> bool:
    return any(max(abs(p.x - q.x), abs(p.y - q.y)) <= 1 for p in a.squares for q in b.squares)


def feet_between(state: EncounterState, a: Token, b: Token) -> float:
    squares = min(
        distance_squares(p, q, state.scale.diagonal) for p in a.squares for q in b.squares
    )
    return state.scale.distance(squares)


def opponents(state: EncounterState, token: Token) -> list[Token]:
    return [t for t in state.tokens if are_opponents(token.side, t.side) and not out_of_fight(t)]


def drawn(token: Token) -> list[str]:
    """Weapons in hand (every weapon, unless the ``drawn`` stat lists them)."""
    if "drawn" not in token.stats:
        return [w.name for w in token.weapons]
    listed = str(token.stats["drawn"])
    return [name.strip() for name in listed.split(",") if name.strip()]


def put(state: EncounterState, token: Token) -> EncounterState:
    return state.with_token(token)


def add_condition(
    state: EncounterState, token_id: str, name: str, expires: Expiry | None = None, *,
    source: str | None = None, value: int = 0,
) -> tuple[EncounterState, Event]:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if c.name != name)
    state = put(state, replace(token, conditions=(*kept, Condition(name, expires, source, value))))
    return state, Event(EventKind.CONDITION, f"{token.name} is {name}.", (token_id,))


def remove_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, conditions=tuple(c for c in token.conditions
                                                      if c.name != name)))


def condition(token: Token, name: str) -> Condition | None:
    return next((c for c in token.conditions if c.name == name), None)


def next_turn_round(state: EncounterState, token_id: str) -> int:
    combat = state.combat
    if combat.has(token_id):
        mine = combat.combatant(token_id)
        if mine.acted or combat.active == token_id:
            return combat.round + 1
    return combat.round


def until_next_turn(state: EncounterState, token_id: str) -> Expiry:
    return Expiry(next_turn_round(state, token_id), ExpiryPoint.START_OF_TURN, token_id)


def until_end_of_next_turn(state: EncounterState, token_id: str) -> Expiry:
    return Expiry(next_turn_round(state, token_id), ExpiryPoint.END_OF_TURN, token_id)


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
