"""Reads and writes over the encounter state that the Spycraft actions share: condition
names, stats and skills, distances and opponents, conditions and combatant data. Rolls and
what a lost check does are in :mod:`engine.rules.spycraft.checks`.

The token stats the Spycraft rules read, with their defaults, are declared in
:mod:`engine.rules.spycraft.schema`.
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.grid import Square, distance_squares
from engine.rules.base import Event, EventKind
from engine.rules.spycraft.catalogue import ACTIONS
from engine.rules.spycraft.schema import SAVES, SIZE_CATEGORIES
from engine.rules.spycraft.schema import STATS as STATS  # the actions read board.STATS
from engine.tokens import Condition, Expiry, ExpiryPoint, Token, are_opponents
from engine.turns import order as turn_order
from engine.turns.combat import Combatant, DataValue
from engine.words import condition_given

#: A whole-number stat through the schema (its default when the token has none).
stat_int = STATS.number

# Condition names (Spycraft's words).
FLAT_FOOTED = "flat-footed"
REELING = "reeling"
SPRAWLED = "sprawled"
PRONE = "prone"
CROUCHED = "crouched"
HELD = "held"
PINNED = "pinned"
VULNERABLE = "vulnerable"
HELPLESS = "helpless"
AIMING = "aiming"
BRACED = "braced"
ANTICIPATING = "anticipating"
DEFENSIVE = "fighting defensively"
TOTAL_DEFENSE = "total defense"
COVER_FIRED = "pinned down"
SUPPRESSED = "suppressed"
TAUNTED = "taunted"
ENRAGED = "enraged"
FRIGHTENED = "frightened"
MUTE = "mute"
CHEAP_SHOT = "cheap shot"
REFRESHING = "refreshing"
BLEEDING = "bleeding"
FATIGUED = "fatigued"
EXHAUSTED = "exhausted"
UNCONSCIOUS = "unconscious"
DEAD = "dead"
CRACKED = "cracked"
SURRENDERED = "surrendered"
#: +N on the next attack at one opponent (the condition's source), won in a contest.
EDGE = "edge"


def with_stats(token: Token, **changes: DataValue) -> Token:
    return replace(token, stats={**token.stats, **changes})


def is_proficient(token: Token, action_key: str, weapon: str | None = None) -> bool:
    """Proficient unless the token's ``not_proficient`` stat names the action or weapon."""
    listed = STATS.names(token, "not_proficient")
    return action_key not in listed and (weapon is None or weapon not in listed)


def adjacent(a: Token, b: Token) -> bool:
    return any(max(abs(p.x - q.x), abs(p.y - q.y)) <= 1 for p in a.squares for q in b.squares)


def squares_between(state: EncounterState, a: Token, b: Token) -> int:
    """Nearest grid distance in squares between two tokens' footprints."""
    rule = state.scale.diagonal
    return min(distance_squares(p, q, rule) for p in a.squares for q in b.squares)


def feet_between(state: EncounterState, a: Token, b: Token) -> float:
    return state.scale.distance(squares_between(state, a, b))


def opponents_of(state: EncounterState, token: Token) -> list[Token]:
    return [t for t in state.tokens if are_opponents(token.side, t.side)]


def adjacent_opponents(
    state: EncounterState, token: Token, at: Square | None = None
) -> list[Token]:
    here = token if at is None else token.moved_to(at)
    return [t for t in opponents_of(state, token) if adjacent(here, t)]


# ---- conditions


def until_next_turn(state: EncounterState, token_id: str) -> Expiry:
    """Until the start of ``token_id``'s next Initiative Count ("1 full round")."""
    combat = state.combat
    upcoming = combat.round
    if combat.has(token_id):
        mine = combat.combatant(token_id)
        if mine.acted or combat.active == token_id:
            upcoming += 1
    return Expiry(max(upcoming, 1), ExpiryPoint.START_OF_TURN, token_id)


def add_condition(
    state: EncounterState,
    token_id: str,
    name: str,
    expires: Expiry | None = None,
    *,
    source: str | None = None,
    value: int = 0,
) -> tuple[EncounterState, Event]:
    """Give a token a condition (replacing one of the same name and source)."""
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if not (c.name == name and c.source == source))
    condition = Condition(name, expires, source, value)
    state = state.with_token(replace(token, conditions=(*kept, condition)))
    line = condition_given(token.name, name, (a.name for a in ACTIONS))  # "takes Total Defense"
    return state, Event(EventKind.CONDITION, line, (token_id,))


def grant_edge(
    state: EncounterState, holder: str, against: str, value: int, expires: Expiry | None = None
) -> tuple[EncounterState, Event]:
    """Give ``holder`` +``value`` on his next attack at ``against``; the event says so."""
    state, _ = add_condition(state, holder, EDGE, expires, source=against, value=value)
    return state, Event(
        EventKind.CONDITION,
        f"{state.token(holder).name} gets +{value} on his next attack at "
        f"{state.token(against).name}.",
        (holder,),
    )


def remove_condition(state: EncounterState, token_id: str, name: str) -> EncounterState:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if c.name != name)
    return state.with_token(replace(token, conditions=kept))


def conditions_named(token: Token, name: str) -> list[Condition]:
    return [c for c in token.conditions if c.name == name]


# ---- combatant data


def combatant(state: EncounterState, token_id: str) -> Combatant:
    return state.combat.combatant(token_id)


def set_data(state: EncounterState, token_id: str, **changes: DataValue) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return turn_order.update(state, replace(mine, data={**mine.data, **changes}))


def add_data(state: EncounterState, token_id: str, key: str, amount: int) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return set_data(state, token_id, **{key: int(mine.get(key, 0)) + amount})


def set_budget(state: EncounterState, token_id: str, halves: int) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return turn_order.update(state, replace(mine, budget={**mine.budget, "half": halves}))


def set_count(state: EncounterState, token_id: str, count: int) -> EncounterState:
    mine = state.combat.combatant(token_id)
    return turn_order.update(state, replace(mine, initiative=count))


def add_fluid(state: EncounterState, token_id: str, amount: int) -> EncounterState:
    """Queue a fluid initiative modifier, applied (capped) at the end of the round."""
    if not state.combat.has(token_id):
        return state
    return add_data(state, token_id, "fluid", amount)


#: The key attribute of each skill check as the action texts name it ("Bluff (Dex)").
SKILL_KEYS = {
    "athletics": "str",
    "acrobatics": "dex",
    "sleight_of_hand": "dex",
    "stealth": "dex",
    "bluff": "dex",
    "tactics": "int",
    "notice": "wis",
    "sense_motive": "wis",
    "intimidate": "wis",
    "resolve_wis": "wis",
    "resolve_con": "con",
    "manipulate": "cha",
}
#: Conditions that take 4 from every attack and skill check.
SKILL_PENALTY_CONDITIONS = (DEFENSIVE, COVER_FIRED, SUPPRESSED)


def skill(token: Token, name: str) -> int:
    """A skill check bonus (or save), with the penalties conditions put on skill checks.

    ``resolve_con`` and ``resolve_wis`` fall back to ``resolve``. Fighting Defensively,
    Cover Fire and Suppressive Fire take 4 from skill checks; a Cheap Shot takes 2 from
    checks keyed to its attribute. Saves are not skill checks: no penalty.
    """
    given = STATS.optional_number(token, name)  # resolve_con, resolve_wis: None, derived
    bonus = stat_int(token, "resolve") if given is None else given
    if name in SAVES:
        return bonus
    return bonus + skill_penalty(token, name)


def skill_penalty(token: Token, name: str) -> int:
    penalty = sum(-4 for c in SKILL_PENALTY_CONDITIONS if token.has_condition(c))
    key = SKILL_KEYS.get(name, name)  # an attribute check keys itself
    penalty += sum(c.value for c in conditions_named(token, CHEAP_SHOT) if c.source == key)
    return penalty


def size_rank(token: Token) -> int:
    """Size categories above Medium (negative: below), from the ``size_category`` stat
    (a category name) or else the footprint (1 square: Medium, 2: Large...)."""
    named = STATS.text(token, "size_category")
    if named in SIZE_CATEGORIES:
        return SIZE_CATEGORIES.index(named) - SIZE_CATEGORIES.index("medium")
    return token.size - 1


def size_bonus(a: Token, b: Token) -> tuple[int, int]:
    """+4 per size category to the bigger of two combatants (Bull Rush, Grapple, Trip)."""
    sa, sb = size_rank(a), size_rank(b)
    if sa > sb:
        return 4 * (sa - sb), 0
    return 0, 4 * (sb - sa)


def size_difference(a: Token, b: Token) -> int:
    """How many size categories ``b`` is bigger than ``a`` (negative: smaller)."""
    return size_rank(b) - size_rank(a)
