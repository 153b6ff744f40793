"""Savage Worlds Hold: no card while holding, interrupts by opposed Athletics."""

from __future__ import annotations

import pytest

from engine.grid import Square
from engine.rules.savage_worlds.conditions import SWCondition, condition, with_condition
from engine.rules.savage_worlds.hold import (
    HoldError,
    InterruptResult,
    check_hold,
    go_on_hold,
    interrupt,
    is_on_hold,
    needs_interrupt_roll,
    to_deal,
)
from engine.tokens import Side, Token


def token(tid: str) -> Token:
    return Token(tid, tid.title(), Side.PARTY, Square(0, 0))


def test_held_characters_are_not_dealt_a_card() -> None:
    holder = go_on_hold(token("a"), 1)
    assert to_deal([holder, token("b")]) == ["b"]


def test_hold_lasts_until_used() -> None:
    assert go_on_hold(token("a"), 1).conditions[0].expires is None


def test_interrupt_by_opposed_athletics() -> None:
    assert interrupt(9, 5) is InterruptResult.HOLDER_FIRST
    assert interrupt(5, 9) is InterruptResult.HOLDER_AFTER
    assert interrupt(7, 7) is InterruptResult.SIMULTANEOUS


def test_shaken_or_stunned_ends_the_hold_and_the_turn() -> None:
    for name in (SWCondition.SHAKEN, SWCondition.STUNNED):
        holder = go_on_hold(token("a"), 1)
        checked = check_hold(with_condition(holder, condition(name, 1, "a", False)))
        assert checked.lost_turn and not is_on_hold(checked.token)


def test_shaken_characters_cannot_go_on_hold() -> None:
    shaken = with_condition(token("a"), condition(SWCondition.SHAKEN, 1, "a", False))
    with pytest.raises(HoldError, match="Shaken"):
        go_on_hold(shaken, 1)


def test_a_joker_cuts_in_without_a_roll() -> None:
    joker = with_condition(token("a"), condition(SWCondition.JOKER, 1, "a", False))
    assert not needs_interrupt_roll(joker)
    assert needs_interrupt_roll(token("b"))
