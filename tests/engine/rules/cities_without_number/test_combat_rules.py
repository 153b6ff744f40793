"""Cities Without Number combat actions and their numbers."""

from __future__ import annotations

import pytest

from engine.rules.cities_without_number.combat_rules import (
    CHARGE,
    SNAP_ATTACK_PENALTY,
    SwarmBonus,
    charge_weapon_refusal,
    prone_modifier_against,
    prone_speed,
    ranged_in_melee,
    reload_cost,
    screen_blocks,
    screen_capacity,
    screen_target,
    swarm_bonus,
    swarm_damage,
    swarm_shock_applies,
)
from engine.rules.cities_without_number.economy import ActionType
from engine.tokens import Weapon

PISTOL = Weapon("Pistol", "1d6+1", 10, ammo=15, capacity=15)
RIFLE = Weapon("Rifle", "1d10+2", 100, ammo=30, capacity=30, two_handed=True)
KNIFE = Weapon("Knife", "1d4", melee=True)
GRENADE = Weapon("Grenade", "2d6", 10, traits=("thrown",))
BOW = Weapon("Bow", "1d8", 50, ammo=1, capacity=1, two_handed=True, traits=("bow",))


def test_ranged_attack_with_an_enemy_in_melee_range() -> None:
    assert ranged_in_melee(PISTOL, True) == (-4, None)
    assert ranged_in_melee(GRENADE, True) == (-4, None)
    _, reason = ranged_in_melee(RIFLE, True)
    assert reason is not None and "two-handed" in reason
    assert ranged_in_melee(RIFLE, False) == (0, None)


def test_snap_attack_is_minus_four() -> None:
    assert SNAP_ATTACK_PENALTY == -4


def test_swarm_attack_bonus_per_other_assailant_capped() -> None:
    assert swarm_bonus(1) == SwarmBonus(0, 0)
    assert swarm_bonus(2) == SwarmBonus(2, 1)
    assert swarm_bonus(4) == SwarmBonus(6, 3)
    with pytest.raises(ValueError, match="1 to 4"):
        swarm_bonus(5)


def test_swarm_damage_never_beats_the_weapon_maximum() -> None:
    assert swarm_damage(5, SwarmBonus(6, 3), weapon_maximum=10) == 8
    assert swarm_damage(9, SwarmBonus(6, 3), weapon_maximum=10) == 10


def test_swarm_shock_always_lands_except_on_total_defense() -> None:
    assert swarm_shock_applies(False) and not swarm_shock_applies(True)


def test_charge_needs_three_metres_and_at_most_double_move() -> None:
    # The route (engine.routes.charge) measures the run with these numbers.
    assert (CHARGE.minimum_run, CHARGE.minimum_unit, CHARGE.speed_multiple) == (3.0, "m", 2)
    assert (CHARGE.attack_bonus, CHARGE.defence_penalty) == (2, -2)


def test_charge_ends_in_a_melee_or_thrown_attack() -> None:
    assert charge_weapon_refusal(KNIFE) is None
    assert charge_weapon_refusal(GRENADE) is None
    assert "neither" in str(charge_weapon_refusal(PISTOL))


def test_screen_an_ally() -> None:
    assert screen_capacity(0) == 0 and screen_capacity(2) == 2
    assert not screen_blocks(attack_is_gunfire=True, integral_cyber_armor=False)
    assert screen_blocks(attack_is_gunfire=True, integral_cyber_armor=True)
    # Beat every screen: the ward is attacked.
    assert screen_target(12, {"a": 8, "b": 10}) is None
    # Several held: the worst-rolling successful screener takes the attack.
    assert screen_target(7, {"a": 8, "b": 10, "c": 5}) == "a"


def test_prone_is_minus_two_at_range_plus_two_in_melee_and_half_speed() -> None:
    assert prone_modifier_against(attack_is_melee=False) == -2
    assert prone_modifier_against(attack_is_melee=True) == 2
    assert prone_speed(10) == 5


def test_reload_costs() -> None:
    assert reload_cost(PISTOL, 0) is ActionType.MAIN
    assert reload_cost(BOW, 1) is ActionType.ON_TURN
    assert reload_cost(BOW, 0) is ActionType.MOVE
