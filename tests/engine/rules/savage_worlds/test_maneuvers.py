"""Savage Worlds maneuvers: Aim, Called Shots, Defend, Desperate/Wild/Touch Attack, Disarm,
Finishing Move, with the text's examples."""

from __future__ import annotations

import pytest

from engine.grid import Square
from engine.rules.savage_worlds.maneuvers import (
    JOKER,
    TOUCH_ATTACK,
    WILD_ATTACK,
    AimChoice,
    AttackModifiers,
    CalledShotTarget,
    ManeuverError,
    Scale,
    aim_bonus,
    aim_refusal,
    called_shot,
    defend_refusal,
    desperate_attack,
    disarm_strength_modifier,
    finishing_move_refusal,
    keeps_item,
)
from engine.tokens import Condition, Side, Token


def test_aim_ignores_up_to_four_points_of_penalties() -> None:
    assert aim_bonus(AimChoice.IGNORE_PENALTIES, -6) == 4
    assert aim_bonus(AimChoice.IGNORE_PENALTIES, -2) == 2
    assert aim_bonus(AimChoice.PLUS_TWO, 0) == 2


def test_aim_needs_a_stationary_whole_turn_with_a_ranged_weapon() -> None:
    assert aim_refusal(False, False, True) is None
    assert "stay put" in str(aim_refusal(True, False, True))
    assert "whole turn" in str(aim_refusal(False, True, True))
    assert "ranged" in str(aim_refusal(False, False, False))


def test_called_shot_hand_head_limb() -> None:
    assert called_shot(CalledShotTarget.HAND).modifier == -4
    assert called_shot(CalledShotTarget.HAND).may_disarm
    head = called_shot(CalledShotTarget.HEAD_OR_VITALS)
    assert (head.modifier, head.extra_damage) == (-4, 4)
    assert called_shot(CalledShotTarget.HEAD_OR_VITALS, open_faced_helmet=True).modifier == -5
    assert called_shot(CalledShotTarget.LIMB).modifier == -2


def test_called_shot_items_use_their_scale_pistol_and_sword_examples() -> None:
    assert called_shot(CalledShotTarget.ITEM, scale=Scale.VERY_SMALL).modifier == -4  # a pistol
    assert called_shot(CalledShotTarget.ITEM, scale=Scale.SMALL).modifier == -2  # a 3' sword


def test_called_shot_unarmored_area_eye_slit_and_dragon_scale_examples() -> None:
    assert called_shot(CalledShotTarget.UNARMORED_AREA, scale=Scale.TINY).modifier == -6
    assert called_shot(CalledShotTarget.UNARMORED_AREA, scale=Scale.VERY_SMALL).modifier == -4


def test_called_shot_at_a_car_sized_robot_eye_is_plus_two() -> None:
    assert called_shot(CalledShotTarget.UNARMORED_AREA, scale=Scale.LARGE).modifier == 2


def test_called_shot_item_without_scale_is_an_error() -> None:
    with pytest.raises(ManeuverError, match="Scale"):
        called_shot(CalledShotTarget.ITEM)


def test_desperate_attack_trades_damage_for_fighting_and_not_with_wild_attack() -> None:
    assert desperate_attack(2) == AttackModifiers(2, -2)
    assert desperate_attack(4) == AttackModifiers(4, -4)
    with pytest.raises(ManeuverError):
        desperate_attack(3)
    with pytest.raises(ManeuverError, match="Wild Attack"):
        desperate_attack(2, wild_attack=True)


def test_wild_touch_and_joker_modifiers() -> None:
    assert AttackModifiers(2, 2) == WILD_ATTACK
    assert AttackModifiers(2, 0) == TOUCH_ATTACK
    assert AttackModifiers(4, 4) == JOKER + WILD_ATTACK


def test_defend_takes_the_whole_turn_and_forbids_running() -> None:
    assert defend_refusal(False, False) is None
    assert defend_refusal(True, False) is not None
    assert "run" in str(defend_refusal(False, True))


def test_disarm_strength_roll_minus_two_for_limb_minus_four_for_hand() -> None:
    assert disarm_strength_modifier(CalledShotTarget.LIMB) == -2
    assert disarm_strength_modifier(CalledShotTarget.HAND, wound_penalty=-1) == -5
    with pytest.raises(ManeuverError):
        disarm_strength_modifier(CalledShotTarget.HEAD_OR_VITALS)


def test_disarm_item_hit_strength_must_reach_the_damage() -> None:
    assert keeps_item(9, item_damage=9)
    assert not keeps_item(8, item_damage=9)
    assert not keeps_item(3)


def test_finishing_move_needs_a_helpless_victim_up_close() -> None:
    victim = Token("v", "Thug", Side.ENEMY, Square(1, 0))
    assert "not helpless" in str(finishing_move_refusal(victim, adjacent=True, lethal_weapon=True))
    bound = Token("v", "Thug", Side.ENEMY, Square(1, 0), conditions=(Condition("Bound"),))
    assert finishing_move_refusal(bound, adjacent=True, lethal_weapon=True) is None
    assert finishing_move_refusal(bound, adjacent=False, lethal_weapon=True) is not None
    assert finishing_move_refusal(
        bound, adjacent=False, lethal_weapon=True, allow_at_range=True
    ) is None
    assert finishing_move_refusal(bound, adjacent=True, lethal_weapon=False) is not None
