"""Savage Worlds Hold: wait, then act at any moment of the round (or a later one).

A character on Hold gets no Action Card while holding and may go whenever they choose.
Cutting into someone else's action takes an opposed Athletics roll; a tie means both act at
once. A loser gives up the Hold but still acts once the other has finished. Being Shaken or
Stunned ends the Hold and forfeits the turn; Shaken or Stunned characters cannot go on Hold.

A Joker holder may also act whenever they like that round; we let a Joker cut in without the
Athletics roll (the usual table reading: the card already says "any time").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.rules.savage_worlds.conditions import (
    SWCondition,
    condition,
    with_condition,
    without_condition,
)
from engine.tokens import Token


class InterruptResult(StrEnum):
    #: The holder acts first; the interrupted action waits.
    HOLDER_FIRST = "holder first"
    #: The holder failed: Hold lost, the holder acts right after the other finishes.
    HOLDER_AFTER = "holder after"
    #: A tie: both resolve at the same time.
    SIMULTANEOUS = "simultaneous"


class HoldError(ValueError):
    """Going on Hold or interrupting when the rules do not allow it."""


def is_on_hold(token: Token) -> bool:
    return token.has_condition(SWCondition.ON_HOLD)


def cannot_hold_reason(token: Token) -> str | None:
    """Why this token may not go on Hold now, or None if it may."""
    for blocker in (SWCondition.SHAKEN, SWCondition.STUNNED):
        if token.has_condition(blocker):
            return f"{token.name} is {blocker} and cannot go on Hold"
    if is_on_hold(token):
        return f"{token.name} is already on Hold"
    return None


def go_on_hold(token: Token, current_round: int) -> Token:
    reason = cannot_hold_reason(token)
    if reason:
        raise HoldError(reason)
    return with_condition(token, condition(SWCondition.ON_HOLD, current_round, token.id, True))


def release_hold(token: Token) -> Token:
    """The Hold is used (the token is acting now)."""
    return without_condition(token, SWCondition.ON_HOLD)


@dataclass(frozen=True, slots=True)
class HoldCheck:
    token: Token
    #: The Hold ended because the token became Shaken or Stunned: its turn is gone too.
    lost_turn: bool


def check_hold(token: Token) -> HoldCheck:
    """Call after any change to a holder: Shaken or Stunned ends the Hold and the turn."""
    if is_on_hold(token) and (
        token.has_condition(SWCondition.SHAKEN) or token.has_condition(SWCondition.STUNNED)
    ):
        return HoldCheck(release_hold(token), lost_turn=True)
    return HoldCheck(token, lost_turn=False)


def to_deal(combatants: Iterable[Token]) -> list[str]:
    """Who gets an Action Card this round: everyone not on Hold."""
    return [t.id for t in combatants if not is_on_hold(t)]


def interrupt(holder_athletics: int, other_athletics: int) -> InterruptResult:
    """Opposed Athletics to cut into an action: higher goes first, a tie is simultaneous."""
    if holder_athletics > other_athletics:
        return InterruptResult.HOLDER_FIRST
    if holder_athletics < other_athletics:
        return InterruptResult.HOLDER_AFTER
    return InterruptResult.SIMULTANEOUS


def needs_interrupt_roll(token: Token) -> bool:
    """A holder rolls to interrupt; a Joker holder acting this round does not."""
    return not token.has_condition(SWCondition.JOKER)
