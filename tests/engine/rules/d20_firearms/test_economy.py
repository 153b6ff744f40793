"""d20 firearms action budget: attack or movement actions, Full-Auto as three."""

from __future__ import annotations

import pytest

from engine.rules.d20_firearms.economy import (
    AttackStep,
    Cost,
    fresh_budget,
    full_auto_steps,
    refusal,
    spend,
)


def test_default_three_actions_and_configurable() -> None:
    assert fresh_budget() == {"actions": 3}
    assert fresh_budget(2) == {"actions": 2}
    with pytest.raises(ValueError):
        fresh_budget(0)


def test_actions_are_spent_on_attacks_or_moves() -> None:
    budget = spend(fresh_budget(), Cost.ONE, 3)
    budget = spend(budget, Cost.TWO, 3)
    assert budget == {"actions": 0}
    assert refusal(budget, Cost.ONE, 3) is not None
    assert spend(budget, Cost.FREE, 3) == budget


def test_full_round_needs_the_untouched_round() -> None:
    assert spend(fresh_budget(), Cost.FULL_ROUND, 3) == {"actions": 0}
    assert refusal({"actions": 2}, Cost.FULL_ROUND, 3) is not None


def test_full_auto_is_three_attack_actions_at_one_two_three_times_recoil() -> None:
    assert full_auto_steps(2) == (
        AttackStep(1, 1, -2), AttackStep(2, 2, -4), AttackStep(3, 3, -6),
    )


def test_full_auto_from_cover_reduces_each_total_recoil_by_one() -> None:
    assert [s.recoil_penalty for s in full_auto_steps(1, cover_reduction=1)] == [0, -1, -2]
