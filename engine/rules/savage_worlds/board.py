"""Small reads and writes over the encounter state that the Savage Worlds actions share.

Token stats read here (all optional): Attribute and skill dice as die sizes (``agility``,
``smarts``, ``spirit``, ``strength``, ``vigor``, ``fighting``, ``shooting``, ``athletics``,
4..12, a missing skill rolls d4-2), ``parry`` (default 2 + half Fighting), ``toughness``
(5), ``armor`` (0), ``wounds`` (0), ``wild_card`` (party tokens default to true), ``size``
and ``scale`` (0 = Normal).
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.grid import distance_squares
from engine.rules.base import Event, EventKind
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds import hold
from engine.tokens import Condition, Side, Token, are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import DataValue

INCAPACITATED = "Incapacitated"
UNSKILLED_DIE = 4
UNSKILLED_PENALTY = -2
MAX_WOUND_PENALTY = 3


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


def trait_die(token: Token, trait: str) -> tuple[int, int]:
    """(die, modifier) for a Trait; an untrained skill rolls d4-2."""
    die = stat_int(token, trait, 0 if trait in SKILLS else 6)
    if die == 0:
        return UNSKILLED_DIE, UNSKILLED_PENALTY
    return die, 0


SKILLS = ("fighting", "shooting", "athletics", "taunt", "intimidation", "notice", "persuasion",
          "stealth", "healing", "thievery", "battle")


def is_wild_card(token: Token) -> bool:
    return bool(token.stat("wild_card", token.side is Side.PARTY))


def wounds(token: Token) -> int:
    return stat_int(token, "wounds", 0)


def wound_penalty(token: Token) -> int:
    return -min(wounds(token), MAX_WOUND_PENALTY)


def parry(token: Token) -> int:
    fighting = stat_int(token, "fighting", 0)
    base = stat_int(token, "parry", 2 + fighting // 2)
    return base + cond.parry_modifier(token)


def toughness(token: Token, armor_piercing: int = 0) -> int:
    """Toughness with Armor; Armor Piercing takes off up to that much of the Armor."""
    armor = stat_int(token, "armor", 0)
    return stat_int(token, "toughness", 5) + max(0, armor - max(0, armor_piercing))


def out_of_fight(token: Token) -> bool:
    return token.has_condition(INCAPACITATED)


def adjacent(a: Token, b: Token) -> bool:
    return any(max(abs(p.x - q.x), abs(p.y - q.y)) <= 1 for p in a.squares for q in b.squares)


def inches_between(state: EncounterState, a: Token, b: Token) -> float:
    squares = min(
        distance_squares(p, q, state.scale.diagonal) for p in a.squares for q in b.squares
    )
    return state.scale.distance(squares)


def gang_up(state: EncounterState, attacker: Token, target: Token) -> int:
    """+1 per other active foe of the target beside it (besides the attacker), at most +4."""
    others = [
        t for t in state.tokens
        if t.id not in (attacker.id, target.id)
        and are_opponents(t.side, target.side)
        and adjacent(t, target)
        and cond.can_act(t)
        and not out_of_fight(t)
    ]
    return min(len(others), 4)


# --- writing ------------------------------------------------------------------------------


def put(state: EncounterState, token: Token) -> EncounterState:
    return state.with_token(token)


def add_condition(
    state: EncounterState, token_id: str, name: cond.SWCondition, *, value: int = 0,
    source: str | None = None,
) -> tuple[EncounterState, list[Event]]:
    """Give a condition with its rule duration; a holder who is Shaken or Stunned loses the
    Hold and the turn."""
    token = state.token(token_id)
    acted = _acted(state, token_id)
    new = cond.condition(name, state.combat.round, token_id, acted, value=value, source=source)
    token = cond.with_condition(token, new)
    events = [Event(EventKind.CONDITION, f"{token.name} is {name}.", (token_id,))]
    checked = hold.check_hold(token)
    if checked.lost_turn:
        events.append(Event(EventKind.CONDITION,
                            f"{token.name} loses the Hold and the turn (Hold).", (token_id,)))
    return put(state, checked.token), events


def remove_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, conditions=tuple(c for c in token.conditions
                                                      if c.name != name)))


def plain_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if c.name != name)
    return put(state, replace(token, conditions=(*kept, Condition(name))))


def set_stat(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    token = state.token(token_id)
    return put(state, replace(token, stats={**token.stats, **changes}))


def _acted(state: EncounterState, token_id: str) -> bool:
    combat = state.combat
    if not combat.has(token_id):
        return False
    return combat.combatant(token_id).acted or combat.active == token_id


def data(state: EncounterState, token_id: str, key: str, default: DataValue = 0) -> DataValue:
    if not state.combat.has(token_id):
        return default
    return state.combat.combatant(token_id).get(key, default)


def set_data(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return turn_order.update(state, replace(mine, data={**mine.data, **changes}))
