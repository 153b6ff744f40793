"""Reads and writes over the encounter state that the d20 firearms actions share.

Token stats read here (all optional): ``initiative`` (bonus, 0), ``ranged_attack`` and
``melee_attack`` (attack bonuses, 0), ``defense`` (10), ``hp`` (10), ``reflex`` (save
bonus, 0), ``perception`` (0), ``int_mod`` (0), ``str_score`` (10), feats as booleans
(``advanced_firearms``, ``quick_recon``). Which weapons are in hand is each weapon's own
``drawn`` flag.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import common
from engine.rules.base import Event, EventKind
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.catalogue import ACTIONS
from engine.rules.d20_firearms.schema import STATS as STATS  # read as board.STATS
from engine.tokens import Condition, Expiry, ExpiryPoint, Token, are_opponents
from engine.words import condition_given

AIMING = "Aiming"
OVERWATCH = "Overwatch"
CHARGING = "Charging"
SUPPRESSED = "Suppressed"
TAKING_COVER = "Taking Cover"
DOWN = "Disabled"
DYING = "Dying"
STABLE = "Stable"
DEAD = "Dead"
PRONE = "Prone"
#: The marks of a soldier at 0 hit points or below, one at a time (the tracker shows which;
#: ``health.settle`` keeps them true to the hit points).
DOWN_MARKS = (DOWN, DYING, STABLE, DEAD)


#: Distance in this system's unit, nearest square to nearest square.
feet_between = common.distance_between

#: A whole-number stat through the schema (its default when the token has none).
stat_int = STATS.number


class Health(StrEnum):
    """Where a soldier stands on the ladder below full health (see ``health``)."""

    FIT = "fit"
    DISABLED = "Disabled"
    DYING = "dying"
    STABLE = "stable"
    DEAD = "dead"


def hit_points(token: Token) -> int:
    return stat_int(token, "hp")


def health(token: Token) -> Health:
    """Dead at -10 or below (or marked Dead: a coup de grace); below 0 dying unless marked
    Stable; Disabled at 0. A mark the GM gave by hand counts too (Dying or Stable on a
    token with hit points left, Disabled by a knock-out)."""
    hp = hit_points(token)
    if token.has_condition(DEAD) or hp <= special.DEAD_HIT_POINTS:
        return Health.DEAD
    if hp < special.DISABLED_HIT_POINTS or token.has_condition(DYING) or token.has_condition(
            STABLE):
        return Health.STABLE if token.has_condition(STABLE) else Health.DYING
    if hp == special.DISABLED_HIT_POINTS or token.has_condition(DOWN):
        return Health.DISABLED
    return Health.FIT


def out_of_fight(token: Token) -> bool:
    """At 0 hit points or below (or marked so): no threat, no obstacle. A Disabled, dying
    or stable soldier can still be attacked (the d20 rule); a dead one cannot."""
    return health(token) is not Health.FIT


def dead(token: Token) -> bool:
    return health(token) is Health.DEAD


def is_dying(token: Token) -> bool:
    """Below 0 hit points and not stable: it rolls on its turn to stabilise."""
    return health(token) is Health.DYING


def helpless(token: Token) -> bool:
    """Dying or stable: unconscious, a helpless defender (a coup de grace may finish it)."""
    return health(token) in (Health.DYING, Health.STABLE)


def reflex(token: Token) -> int:
    """The Reflex save bonus: a helpless soldier's Dexterity counts as 0, so its own
    modifier gives way to -5 here as in its Defense."""
    bonus = stat_int(token, "reflex")
    if helpless(token):
        bonus += special.HELPLESS_DEX_MODIFIER - stat_int(token, "dex_mod")
    return bonus


def disabled(token: Token) -> bool:
    """At 0 hit points (or marked Disabled by the GM): it still acts, one attack or movement
    action a turn (the d20 rule for a Disabled character)."""
    return health(token) is Health.DISABLED


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
    line = condition_given(token.name, name, (a.name for a in ACTIONS))  # "takes Total Defense"
    return state, Event(EventKind.CONDITION, line, (token_id,))


def condition(token: Token, name: str) -> Condition | None:
    return next((c for c in token.conditions if c.name == name), None)


def overwatch(token: Token) -> Condition | None:
    """The token's Overwatch: ``source`` the watched token's id, or ``square`` the watched
    square."""
    return condition(token, OVERWATCH)


def until_end_of_next_turn(state: EncounterState, token_id: str) -> Expiry:
    return Expiry(common.next_turn_round(state, token_id), ExpiryPoint.END_OF_TURN, token_id)


