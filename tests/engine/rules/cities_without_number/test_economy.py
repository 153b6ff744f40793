"""Cities Without Number action economy: Main, Move, On Turn and Instant actions."""

from __future__ import annotations

import pytest

from engine.rules.cities_without_number.economy import (
    FRESH_BUDGET,
    ActionType,
    EconomyError,
    refusal,
    spend,
)


def test_one_main_and_one_move_a_round() -> None:
    assert FRESH_BUDGET == {"main": 1, "move": 1}
    after = spend(FRESH_BUDGET, ActionType.MAIN)
    assert after == {"main": 0, "move": 1}
    with pytest.raises(EconomyError, match="Main"):
        spend(after, ActionType.MAIN)


def test_the_main_action_may_be_spent_as_a_second_move() -> None:
    once = spend(FRESH_BUDGET, ActionType.MOVE)
    twice = spend(once, ActionType.MOVE)
    assert twice == {"main": 0, "move": 0}
    with pytest.raises(EconomyError):
        spend(twice, ActionType.MOVE)


def test_on_turn_actions_cost_nothing_but_need_your_turn() -> None:
    assert spend(FRESH_BUDGET, ActionType.ON_TURN) == FRESH_BUDGET
    assert refusal(FRESH_BUDGET, ActionType.ON_TURN, own_turn=False) is not None


def test_instant_actions_work_out_of_turn() -> None:
    assert spend({"main": 0, "move": 0}, ActionType.INSTANT, own_turn=False) == {
        "main": 0, "move": 0,
    }


def test_snap_attack_and_total_defense_give_up_an_unspent_main_action() -> None:
    assert spend(FRESH_BUDGET, ActionType.INSTANT_FOR_MAIN, own_turn=False) == {
        "main": 0, "move": 1,
    }
    assert refusal({"main": 0, "move": 1}, ActionType.INSTANT_FOR_MAIN, own_turn=False)


def test_charge_takes_main_and_move() -> None:
    assert spend(FRESH_BUDGET, ActionType.MAIN_AND_MOVE) == {"main": 0, "move": 0}
    assert refusal({"main": 1, "move": 0}, ActionType.MAIN_AND_MOVE, own_turn=True)
