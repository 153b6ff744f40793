"""Savage Worlds conditions and how long they last."""

from __future__ import annotations

from engine.grid import Square
from engine.rules.savage_worlds.conditions import (
    SWCondition,
    active,
    can_move,
    condition,
    expiry,
    modifier_against,
    parry_modifier,
    recover_from_shaken,
    recover_from_stunned,
    stun,
    trait_modifier,
    with_condition,
)
from engine.tokens import Expiry, ExpiryPoint, Side, Token


def hero() -> Token:
    return Token("h", "Hero", Side.PARTY, Square(0, 0), speed=6)


def test_distracted_and_vulnerable_last_until_the_end_of_the_victims_next_turn() -> None:
    # Not yet acted this round: the next turn is this round.
    assert expiry(SWCondition.DISTRACTED, 3, "h", False) == Expiry(3, ExpiryPoint.END_OF_TURN, "h")
    # Already acted: next round.
    assert expiry(SWCondition.VULNERABLE, 3, "h", True) == Expiry(4, ExpiryPoint.END_OF_TURN, "h")


def test_defend_lasts_until_the_start_of_the_next_turn() -> None:
    assert expiry(SWCondition.DEFENDING, 2, "h", True) == Expiry(3, ExpiryPoint.START_OF_TURN, "h")


def test_shaken_stunned_entangled_bound_prone_last_until_recovered() -> None:
    for name in (SWCondition.SHAKEN, SWCondition.STUNNED, SWCondition.ENTANGLED,
                 SWCondition.BOUND, SWCondition.PRONE):
        assert expiry(name, 1, "h", False) is None


def test_joker_lasts_the_round() -> None:
    assert expiry(SWCondition.JOKER, 5, "h", False) == Expiry(5, ExpiryPoint.END_OF_ROUND)


def test_distracted_is_minus_two_to_traits_and_vulnerable_plus_two_against() -> None:
    token = with_condition(hero(), condition(SWCondition.DISTRACTED, 1, "h", False))
    assert trait_modifier(token) == -2
    token = with_condition(token, condition(SWCondition.VULNERABLE, 1, "h", False))
    assert modifier_against(token) == 2


def test_bound_brings_distracted_and_vulnerable_and_stops_movement() -> None:
    token = with_condition(hero(), condition(SWCondition.BOUND, 1, "h", False))
    assert {SWCondition.DISTRACTED, SWCondition.VULNERABLE} <= active(token)
    assert not can_move(token)


def test_entangled_stops_movement_and_distracts() -> None:
    token = with_condition(hero(), condition(SWCondition.ENTANGLED, 1, "h", False))
    assert not can_move(token) and trait_modifier(token) == -2


def test_a_second_distracted_does_not_shorten_the_first() -> None:
    token = with_condition(hero(), condition(SWCondition.DISTRACTED, 1, "h", True))
    token = with_condition(token, condition(SWCondition.DISTRACTED, 1, "h", False))
    assert [c.expires for c in token.conditions] == [Expiry(2, ExpiryPoint.END_OF_TURN, "h")]


def test_shaken_leaves_movement_until_a_spirit_success() -> None:
    token = with_condition(hero(), condition(SWCondition.SHAKEN, 1, "h", False))
    assert can_move(token)
    assert recover_from_shaken(token, 3).has_condition("Shaken")
    assert not recover_from_shaken(token, 4).has_condition("Shaken")


def test_stunned_victim_falls_prone_distracted_and_vulnerable_and_cannot_move_or_act() -> None:
    token = stun(hero(), 2, False)
    assert token.has_condition("Prone") and not can_move(token)
    assert trait_modifier(token) == -2 and modifier_against(token) == 2
    # Distracted keeps its own end (the victim's next turn: this round, not acted yet).
    distracted = next(c for c in token.conditions if c.name == "Distracted")
    assert distracted.expires == Expiry(2, ExpiryPoint.END_OF_TURN, "h")
    assert next(c for c in token.conditions if c.name == "Stunned").expires is None


def test_stunned_recovery_on_vigor_keeps_vulnerable_to_the_next_turn_or_this_one_on_a_raise(
) -> None:
    token = stun(hero(), 2, True)
    assert recover_from_stunned(token, 3, 2).has_condition("Stunned")
    plain = recover_from_stunned(token, 5, 2)
    assert not plain.has_condition("Stunned") and plain.has_condition("Prone")
    assert modifier_against(plain) == 2
    vulnerable = [c.expires for c in plain.conditions if c.name == "Vulnerable"]
    assert vulnerable == [Expiry(3, ExpiryPoint.END_OF_TURN, "h")]
    raised = recover_from_stunned(token, 8, 2)
    assert [c.expires for c in raised.conditions if c.name == "Vulnerable"] == [
        Expiry(2, ExpiryPoint.END_OF_TURN, "h")]


def test_prone_and_defend_change_parry() -> None:
    token = with_condition(hero(), condition(SWCondition.PRONE, 1, "h", False))
    assert parry_modifier(token) == -2
    token = with_condition(token, condition(SWCondition.DEFENDING, 1, "h", False))
    assert parry_modifier(token) == 2
