"""Savage Worlds Grappling, Push, Test and Support."""

from __future__ import annotations

import pytest

from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.opposed_maneuvers import (
    OpposedError,
    SWTestEffect,
    best_of,
    break_free,
    crush_refusal,
    grapple,
    grapple_scale_penalty,
    push,
    push_total_modifier,
    pushed_falls_prone,
    resolve_test,
    size_refusal,
    support_bonus,
    total_support,
)


def test_grapple_win_entangles_raise_binds() -> None:
    assert grapple(6, 5).defender is SWCondition.ENTANGLED
    bound = grapple(9, 5)
    assert bound.defender is SWCondition.BOUND and bound.grappler_vulnerable
    assert grapple(4, 6).defender is None


def test_grapple_success_on_an_entangled_foe_binds() -> None:
    assert grapple(6, 5, defender_entangled=True).defender is SWCondition.BOUND


def test_grapple_size_matters_only_for_the_grappler() -> None:
    assert grapple_scale_penalty(0, 2) == -2
    assert grapple_scale_penalty(4, 0) == -4
    assert size_refusal("Grapple", 0, 3) is not None
    assert size_refusal("Grapple", 0, 2) is None


def test_crush_needs_a_held_foe() -> None:
    assert crush_refusal(False, False) is not None
    assert crush_refusal(True, False) is None


def test_breaking_free() -> None:
    assert break_free(3, SWCondition.BOUND) is SWCondition.BOUND
    assert break_free(5, SWCondition.BOUND) is SWCondition.ENTANGLED
    assert break_free(8, SWCondition.BOUND) is None
    assert break_free(4, SWCondition.ENTANGLED) is None
    with pytest.raises(OpposedError):
        break_free(8, SWCondition.SHAKEN)


def test_push_one_inch_two_with_a_raise_doubled_when_larger() -> None:
    assert push(6, 5).distance_inches == 1
    assert push(9, 5).distance_inches == 2
    assert push(9, 5, attacker_larger=True).distance_inches == 4
    assert push(4, 5).distance_inches == 0


def test_pushed_foe_rolls_athletics_at_minus_two_after_a_raise() -> None:
    assert push(6, 5).prone_check_modifier == 0
    assert push(9, 5).prone_check_modifier == -2
    assert pushed_falls_prone(3) and not pushed_falls_prone(4)


def test_push_running_bonus_and_shield() -> None:
    assert push_total_modifier(ran_inches=2) == 2
    assert push_total_modifier(ran_inches=1.5) == 0
    assert push_total_modifier(ran_inches=3, shield_parry=2) == 4


def test_test_win_distracts_or_makes_vulnerable_raise_also_shakes() -> None:
    assert resolve_test(6, 5, SWTestEffect.VULNERABLE).conditions == (SWCondition.VULNERABLE,)
    assert resolve_test(9, 5, SWTestEffect.DISTRACTED).conditions == (
        SWCondition.DISTRACTED, SWCondition.SHAKEN,
    )
    assert resolve_test(4, 6, SWTestEffect.DISTRACTED).conditions == ()


def test_test_with_extra_dice_keeps_only_the_best() -> None:
    assert best_of([3, 9, 5]) == 9


def test_support_one_two_or_minus_two() -> None:
    assert support_bonus(4) == 1
    assert support_bonus(8) == 2
    assert support_bonus(2) == 0
    assert support_bonus(2, critical_failure=True) == -2


def test_support_is_capped_at_four_except_for_strength() -> None:
    assert total_support([2, 2, 2]) == 4
    assert total_support([2, 2, 2], strength=True) == 6
