"""Savage Worlds conditions, what they do, and when they end.

Durations follow the rules: Distracted and Vulnerable last until the end of the victim's
*next* turn; Defend lasts until the start of the defender's next turn; Support bonuses go
at the end of the recipient's turn; a Joker lasts the round; Shaken, Stunned, Entangled,
Bound and prone last until the victim recovers, breaks free or stands up.

Stunned is not in the Special Actions text we hold (it only says a Stunned holder loses the
Hold and cannot take one); we follow the edition's Stunned condition: the victim is
Distracted (with Distracted's usual end), Vulnerable for as long as it stays Stunned, falls
prone, and can neither move nor act. The GM gives it (stun weapons and powers, shocks): see
``board.stun``.

"Next turn" depends on whether the token has already acted this round: if not, its next
turn is later this round; if it has (or it is acting now), its next turn is next round.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.rules.savage_worlds.traits import outcome
from engine.tokens import Condition, Expiry, ExpiryPoint, Token


class SWCondition(StrEnum):
    SHAKEN = "Shaken"
    STUNNED = "Stunned"
    DISTRACTED = "Distracted"
    VULNERABLE = "Vulnerable"
    ENTANGLED = "Entangled"
    BOUND = "Bound"
    PRONE = "Prone"
    BLEEDING_OUT = "Bleeding Out"
    FATIGUED = "Fatigued"
    EXHAUSTED = "Exhausted"
    # States the maneuvers leave behind.
    DEFENDING = "Defending"
    AIMING = "Aiming"
    SUPPORTED = "Supported"
    WILD_ATTACK = "Wild Attack"
    JOKER = "Joker"
    ON_HOLD = "On Hold"


class Lasts(StrEnum):
    """How long a condition lasts, in the rules' terms."""

    UNTIL_RECOVERED = "until recovered"
    UNTIL_END_OF_NEXT_TURN = "until the end of the victim's next turn"
    UNTIL_START_OF_NEXT_TURN = "until the start of the victim's next turn"
    UNTIL_END_OF_TURN = "until the end of the victim's turn"
    THIS_ROUND = "until the end of the round"
    UNTIL_USED = "until used"


@dataclass(frozen=True, slots=True)
class ConditionRule:
    """What a condition does, as data. Summaries are our own words."""

    name: SWCondition
    lasts: Lasts
    summary: str
    #: Added to every Trait roll the victim makes.
    trait_modifier: int = 0
    #: Added to actions and attacks made against the victim.
    against_modifier: int = 0
    parry_modifier: int = 0
    can_move: bool = True
    #: Other conditions this one brings along.
    implies: tuple[SWCondition, ...] = ()


RULES: dict[SWCondition, ConditionRule] = {
    rule.name: rule
    for rule in (
        ConditionRule(
            SWCondition.SHAKEN, Lasts.UNTIL_RECOVERED,
            "Shaken: rattled; may move and take free actions only. Spirit roll at the start "
            "of each turn to shake it off.",
        ),
        ConditionRule(
            SWCondition.STUNNED, Lasts.UNTIL_RECOVERED,
            "Stunned: knocked flat and dazed; no moving or acting, no help to a Gang Up, "
            "Vulnerable while it lasts, Distracted as usual. Vigor roll at the start of each "
            "turn: a success ends it with Vulnerable kept to the end of the next turn, a raise "
            "to the end of this one.",
            can_move=False,
            implies=(SWCondition.VULNERABLE,),
        ),
        ConditionRule(
            SWCondition.DISTRACTED, Lasts.UNTIL_END_OF_NEXT_TURN,
            "Distracted: -2 to every Trait roll until the end of the victim's next turn.",
            trait_modifier=-2,
        ),
        ConditionRule(
            SWCondition.VULNERABLE, Lasts.UNTIL_END_OF_NEXT_TURN,
            "Vulnerable: actions and attacks against the victim get +2 until the end of the "
            "victim's next turn.",
            against_modifier=2,
        ),
        ConditionRule(
            SWCondition.ENTANGLED, Lasts.UNTIL_RECOVERED,
            "Entangled: held; cannot move and is Distracted until breaking free.",
            can_move=False, implies=(SWCondition.DISTRACTED,),
        ),
        ConditionRule(
            SWCondition.BOUND, Lasts.UNTIL_RECOVERED,
            "Bound: pinned; cannot move, is Distracted and Vulnerable, and may only try to "
            "break free.",
            can_move=False, implies=(SWCondition.DISTRACTED, SWCondition.VULNERABLE),
        ),
        ConditionRule(
            SWCondition.PRONE, Lasts.UNTIL_RECOVERED,
            "Prone: lying down; -2 to Fighting and Parry in melee, counts as Medium Cover (-4) "
            "against shots from beyond 3\"; standing costs 2\" of movement.",
            parry_modifier=-2,
        ),
        ConditionRule(
            SWCondition.BLEEDING_OUT, Lasts.UNTIL_RECOVERED,
            "Bleeding Out: Incapacitated and dying; Vigor at the start of each turn (a failure "
            "kills, a raise stabilises). Healing from someone beside can stop it.",
            can_move=False,
        ),
        ConditionRule(
            SWCondition.FATIGUED, Lasts.UNTIL_RECOVERED,
            "Fatigued: worn down; -1 to every Trait roll. One more level of Fatigue is "
            "Exhausted.",
            trait_modifier=-1,
        ),
        ConditionRule(
            SWCondition.EXHAUSTED, Lasts.UNTIL_RECOVERED,
            "Exhausted: spent; -2 to every Trait roll. Any more Fatigue is Incapacitated.",
            trait_modifier=-2,
        ),
        ConditionRule(
            SWCondition.DEFENDING, Lasts.UNTIL_START_OF_NEXT_TURN,
            "Defend: +4 Parry until the defender's next turn begins.",
            parry_modifier=4,
        ),
        ConditionRule(
            SWCondition.AIMING, Lasts.UNTIL_END_OF_NEXT_TURN,
            "Aim: the aimer's first action next turn may shoot with the aiming bonus.",
        ),
        ConditionRule(
            SWCondition.SUPPORTED, Lasts.UNTIL_END_OF_TURN,
            "Support: a bonus to one Trait, gone at the end of the recipient's turn.",
        ),
        ConditionRule(
            SWCondition.WILD_ATTACK, Lasts.UNTIL_END_OF_TURN,
            "Wild Attack: +2 to Fighting and damage for the rest of this turn.",
        ),
        ConditionRule(
            SWCondition.JOKER, Lasts.THIS_ROUND,
            "Joker: act any time this round, +2 to Trait and damage rolls.",
        ),
        ConditionRule(
            SWCondition.ON_HOLD, Lasts.UNTIL_USED,
            "On Hold: may act at any point, even in a later round; no card is dealt meanwhile.",
        ),
    )
}


def next_turn_round(current_round: int, acted_this_round: bool) -> int:
    """The round of the token's next turn."""
    return current_round + 1 if acted_this_round else current_round


def expiry(
    name: SWCondition, current_round: int, token_id: str, acted_this_round: bool
) -> Expiry | None:
    """When a condition given now ends (None: until the victim recovers or uses it)."""
    lasts = RULES[name].lasts
    turn_round = next_turn_round(current_round, acted_this_round)
    if lasts is Lasts.UNTIL_END_OF_NEXT_TURN:
        return Expiry(turn_round, ExpiryPoint.END_OF_TURN, token_id)
    if lasts is Lasts.UNTIL_START_OF_NEXT_TURN:
        return Expiry(current_round + 1, ExpiryPoint.START_OF_TURN, token_id)
    if lasts is Lasts.UNTIL_END_OF_TURN:
        return Expiry(turn_round, ExpiryPoint.END_OF_TURN, token_id)
    if lasts is Lasts.THIS_ROUND:
        return Expiry(current_round, ExpiryPoint.END_OF_ROUND)
    return None


def condition(
    name: SWCondition,
    current_round: int,
    token_id: str,
    acted_this_round: bool,
    *,
    value: int = 0,
    source: str | None = None,
) -> Condition:
    return Condition(
        str(name), expiry(name, current_round, token_id, acted_this_round), source, value
    )


def with_condition(token: Token, new: Condition) -> Token:
    """The token with ``new`` added; a condition of the same name is replaced, keeping the
    later end (a second Distracted does not shorten the first)."""
    kept: list[Condition] = []
    for old in token.conditions:
        if old.name != new.name:
            kept.append(old)
            continue
        if new.expires is not None and (
            old.expires is None or _end_key(old.expires) > _end_key(new.expires)
        ):
            new = replace(new, expires=old.expires)
    return replace(token, conditions=(*kept, new))


_POINT_ORDER = {
    ExpiryPoint.START_OF_TURN: 0, ExpiryPoint.END_OF_TURN: 1, ExpiryPoint.END_OF_ROUND: 2,
}


def _end_key(end: Expiry) -> tuple[int, int]:
    return (end.round, _POINT_ORDER[end.point])


def without_condition(token: Token, name: SWCondition) -> Token:
    return replace(token, conditions=tuple(c for c in token.conditions if c.name != name))


def active(token: Token) -> set[SWCondition]:
    """Every condition in force on a token, including those another one brings along."""
    names: set[SWCondition] = set()
    for held in token.conditions:
        try:
            rule = RULES[SWCondition(held.name)]
        except ValueError:
            continue
        names.add(rule.name)
        names.update(rule.implies)
    return names


def trait_modifier(token: Token) -> int:
    return sum(RULES[name].trait_modifier for name in active(token))


def modifier_against(token: Token) -> int:
    return sum(RULES[name].against_modifier for name in active(token))


def parry_modifier(token: Token) -> int:
    return sum(RULES[name].parry_modifier for name in active(token))


def can_move(token: Token) -> bool:
    return all(RULES[name].can_move for name in active(token))


def stun(token: Token, current_round: int, acted_this_round: bool) -> Token:
    """Stunned: the victim falls prone (and stays down after recovering) and is Distracted
    until the end of its next turn; Vulnerable comes with Stunned itself."""
    for name in (SWCondition.STUNNED, SWCondition.DISTRACTED, SWCondition.PRONE):
        token = with_condition(token, condition(name, current_round, token.id, acted_this_round))
    return token


def recover_from_shaken(token: Token, spirit_total: int) -> Token:
    """Start-of-turn Spirit roll: a success (4+) ends Shaken."""
    if not token.has_condition(SWCondition.SHAKEN) or spirit_total < 4:
        return token
    return without_condition(token, SWCondition.SHAKEN)


def recover_from_stunned(token: Token, vigor_total: int, current_round: int) -> Token:
    """Start-of-turn Vigor roll: a success ends Stunned but the victim stays Vulnerable until
    the end of its next turn; with a raise, only until the end of this turn. It stays prone."""
    if not token.has_condition(SWCondition.STUNNED):
        return token
    result = outcome(vigor_total)
    if not result.success:
        return token
    token = without_condition(token, SWCondition.STUNNED)
    ends_round = current_round if result.raises >= 1 else current_round + 1
    lingering = Condition(str(SWCondition.VULNERABLE),
                          Expiry(ends_round, ExpiryPoint.END_OF_TURN, token.id))
    return with_condition(token, lingering)
