"""What a Savage Worlds character adds to any Trait roll it makes, on its own turn or not.

Wounds, Distracted, Fatigue and a Joker's +2 go with the character, so a defender resisting
a Push, a Grapple or a Test carries them as much as the one acting. Support goes to the
supported Trait roll, whatever the Trait: +1 or +2 a roll, at most +4 in all except on
Strength, which has no cap. Our reading where the text is loose: the bonus is spent by the
first roll of that Trait (it helped that roll), and whatever is left goes at the end of the
recipient's turn.
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.rules.base import Modifier
from engine.rules.savage_worlds import board, injuries
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.conditions import SWCondition
from engine.tokens import Token

JOKER_BONUS = 2


def support_modifiers(token: Token, trait: str) -> list[Modifier]:
    """The Support the token holds on ``trait`` (one modifier, or none)."""
    total = sum(c.value for c in token.conditions
                if c.name == SWCondition.SUPPORTED and c.source == trait.lower())
    return [Modifier(f"Support ({trait.lower()})", total)] if total else []


def trait_modifiers(token: Token, trait: str) -> list[Modifier]:
    """What the token adds to a roll of ``trait`` alone: its Support on it and an injury's
    penalty to it (a lost eye to Shooting, ``injuries``)."""
    penalty = injuries.trait_penalty(token, trait.lower())
    injured = [Modifier("Injury", penalty)] if penalty else []
    return [*support_modifiers(token, trait), *injured]


def standing_modifiers(token: Token) -> list[Modifier]:
    """Wounds, Distracted, Fatigue and the Joker: on every Trait roll of the token, each
    condition by its name."""
    found: list[Modifier] = []
    if board.wound_penalty(token):
        found.append(Modifier("Wounds", board.wound_penalty(token)))
    for name in sorted(cond.active(token)):
        if cond.RULES[name].trait_modifier:
            found.append(Modifier(str(name), cond.RULES[name].trait_modifier))
    if token.has_condition(SWCondition.JOKER):
        found.append(Modifier("Joker", JOKER_BONUS))
    return found


def resisting_modifiers(token: Token, trait: str) -> list[Modifier]:
    """What a token rolling ``trait`` outside its own actions adds: the standing modifiers
    and its Support on that Trait."""
    return [*standing_modifiers(token), *trait_modifiers(token, trait)]


def without_support(token: Token, trait: str) -> Token:
    """The token after rolling ``trait``: its Support on that Trait is used up."""
    kept = tuple(c for c in token.conditions
                 if not (c.name == SWCondition.SUPPORTED and c.source == trait.lower()))
    return token if len(kept) == len(token.conditions) else replace(token, conditions=kept)


def spend_support(state: EncounterState, token_id: str, trait: str) -> EncounterState:
    """The token rolled ``trait``: its Support on that Trait is used up."""
    token = state.token(token_id)
    after = without_support(token, trait)
    return state if after is token else state.with_token(after)


def resisting_total(token: Token, trait: str) -> int:
    return sum(m.value for m in resisting_modifiers(token, trait))
