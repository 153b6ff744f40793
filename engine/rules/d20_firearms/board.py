"""Reads and writes over the encounter state that the d20 firearms actions share.

Token stats read here (all optional): ``initiative`` (bonus, 0), ``ranged_attack`` and
``melee_attack`` (attack bonuses, 0), ``defense`` (10), ``hp`` (10), ``reflex`` (save
bonus, 0), ``perception`` (0), ``int_mod`` (0), ``str_score`` (10), feats as booleans
(``advanced_firearms``, ``quick_recon``). Which weapons are in hand is each weapon's own
``drawn`` flag.
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import common
from engine.rules.base import Event, EventKind
from engine.rules.d20_firearms.schema import STATS as STATS  # read as board.STATS
from engine.tokens import Condition, Expiry, ExpiryPoint, Token, are_opponents

AIMING = "Aiming"
OVERWATCH = "Overwatch"
CHARGING = "Charging"
SUPPRESSED = "Suppressed"
TAKING_COVER = "Taking Cover"
DOWN = "Disabled"
PRONE = "Prone"


#: Distance in this system's unit, nearest square to nearest square.
feet_between = common.distance_between

#: A whole-number stat through the schema (its default when the token has none).
stat_int = STATS.number


def out_of_fight(token: Token) -> bool:
    """Marked Disabled (0 hit points or less): no threat, no obstacle. It can still be
    attacked: a Disabled or dying character is a target under the d20 rules, and this
    system does not model death (the GM removes a dead token)."""
    return token.has_condition(DOWN)


def hit_points(token: Token) -> int:
    return stat_int(token, "hp")


def dying(token: Token) -> bool:
    """Below 0 hit points: unconscious and dying, it takes no action (the d20 rule; the
    texts we hold are silent on it)."""
    return hit_points(token) < 0


def disabled(token: Token) -> bool:
    """At 0 hit points (or marked Disabled by the GM and not dying): it still acts, one
    attack or movement action a turn (the d20 rule for a Disabled character)."""
    return not dying(token) and (token.has_condition(DOWN) or hit_points(token) == 0)


def opponents(state: EncounterState, token: Token) -> list[Token]:
    return [t for t in state.tokens if are_opponents(token.side, t.side) and not out_of_fight(t)]


def add_condition(
    state: EncounterState, token_id: str, name: str, expires: Expiry | None = None, *,
    source: str | None = None, value: int = 0, square: Square | None = None,
) -> tuple[EncounterState, Event]:
    token = state.token(token_id)
    kept = tuple(c for c in token.conditions if c.name != name)
    new = Condition(name, expires, source, value, square)
    state = common.put(state, replace(token, conditions=(*kept, new)))
    return state, Event(EventKind.CONDITION, f"{token.name} is {name}.", (token_id,))


def condition(token: Token, name: str) -> Condition | None:
    return next((c for c in token.conditions if c.name == name), None)


def overwatch(token: Token) -> Condition | None:
    """The token's Overwatch: ``source`` the watched token's id, or ``square`` the watched
    square."""
    return condition(token, OVERWATCH)


def until_end_of_next_turn(state: EncounterState, token_id: str) -> Expiry:
    return Expiry(common.next_turn_round(state, token_id), ExpiryPoint.END_OF_TURN, token_id)


