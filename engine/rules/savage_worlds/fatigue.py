"""Fatigue: Fatigued (-1) and Exhausted (-2) on every Trait roll; one level more is
Incapacitated.

Our rule text (002) holds only the Special Actions, so this is the edition's core rule as
published, in our own words, with these choices:

* The level is the condition the token carries (Fatigued is level 1, Exhausted level 2),
  so the token's badges, the inspector and the GM's "Remove condition" all read one
  truth; the Trait penalty is the condition's (``conditions.RULES``) and the log names it.
* The GM's hand: giving Fatigued is one level more (Fatigued on a fresh token, Incapacitated
  on an Exhausted one, as the menu offers Fatigued only to a token without it); giving
  Exhausted sets the token Exhausted. Removing one clears that level (the GM gives Fatigued
  back when an Exhausted token recovers one level).
* Fatigue past Exhausted leaves the token Incapacitated (and still Exhausted) with no Vigor
  roll and no bleeding: that roll is for Wounds. What brings Fatigue on (a run through
  the heat, a power, hunger) is the GM's call; recovery is the GM's too.
* A file that kept the level as the ``fatigue`` stat (before it was a condition) gets the
  condition when it loads (``version_1``).
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.savage_worlds import board
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.conditions import SWCondition
from engine.tokens import Token

#: The Fatigue conditions by level; a level past the last is Incapacitated.
LEVELS = (SWCondition.FATIGUED, SWCondition.EXHAUSTED)


def level(token: Token) -> int:
    """0 (rested), 1 (Fatigued) or 2 (Exhausted)."""
    return max((i + 1 for i, name in enumerate(LEVELS) if token.has_condition(name)), default=0)


def at_level(token: Token, new_level: int) -> Token:
    """The token with exactly the Fatigue condition of ``new_level`` (none at 0)."""
    kept = tuple(c for c in token.conditions if c.name not in LEVELS)
    token = replace(token, conditions=kept)
    if new_level <= 0:
        return token
    name = LEVELS[min(new_level, len(LEVELS)) - 1]
    return cond.with_condition(token, cond.condition(name, 0, token.id, False, source="GM"))


def tire(state: EncounterState, token_id: str, to_level: int) -> tuple[EncounterState,
                                                                     list[Event]]:
    """The token's Fatigue set to ``to_level``; past Exhausted it is Incapacitated too."""
    token = state.token(token_id)
    state = common.put(state, at_level(token, to_level))
    name = LEVELS[min(to_level, len(LEVELS)) - 1] if to_level > 0 else None
    penalty = cond.RULES[name].trait_modifier if name is not None else 0
    events = [Event(EventKind.CONDITION, f"{token.name} is {name} ({penalty:+d} to every Trait "
                    "roll; Fatigue).", (token_id,))] if name is not None else []
    if to_level > len(LEVELS) and not board.out_of_fight(token):
        state = board.plain_condition(state, token_id, board.INCAPACITATED)
        events.append(Event(EventKind.CONDITION, f"{token.name} is Incapacitated: Fatigue past "
                            "Exhausted (no Vigor roll; rest or the GM brings him round).",
                            (token_id,)))
    return state, events


def give(state: EncounterState, token_id: str, name: SWCondition) -> tuple[EncounterState,
                                                                           list[Event]]:
    """The GM gives Fatigued (one level more) or Exhausted (at least level 2; one more
    when already Exhausted)."""
    now = level(state.token(token_id))
    wanted = now + 1 if name is SWCondition.FATIGUED or now >= len(LEVELS) else len(LEVELS)
    return tire(state, token_id, wanted)
