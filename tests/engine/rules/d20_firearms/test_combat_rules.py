"""d20 firearms special attack actions, with the text's examples."""

from __future__ import annotations

import pytest

from engine.battlemap import CoverGrade
from engine.rules.d20_firearms.combat_rules import (
    CHARGE,
    BlindFireShots,
    aiming_actions,
    aiming_perception,
    aiming_refusal,
    aiming_speed,
    blind_fire_locate_actions,
    blind_fire_misses,
    blind_fire_refusal,
    blind_fire_shots,
    covering_fire_cone_ft,
    covering_fire_hits,
    covering_fire_refusal,
    overwatch_bonus,
    overwatch_refusal,
    recoil_penalty,
    strength_requirement,
    suppressive_attack_modifier,
    suppressive_hits_area,
    suppressive_refusal,
    threat_range,
    two_weapon_refusal,
)
from engine.tokens import Weapon

RIFLE = Weapon("Assault rifle", "2d8", 80, ammo=30, capacity=30,
               modes=("single", "semi-auto", "automatic"), traits=("rifle", "recoil:2"))
SNIPER = Weapon("Sniper rifle", "2d10", 100, ammo=5, capacity=5, modes=("single",),
                traits=("sniper rifle", "recoil:3"))
PISTOL = Weapon("Pistol", "2d6", 30, ammo=15, capacity=15, modes=("single", "semi-auto"),
                traits=("pistol", "recoil:1"))
SHOTGUN = Weapon("Pump shotgun", "2d8", 30, ammo=5, capacity=5, modes=("single",),
                 traits=("shotgun",))


def test_firing_from_cover_reduces_total_recoil_by_one() -> None:
    assert recoil_penalty(RIFLE) == -2
    assert recoil_penalty(RIFLE, braced_on_cover=True) == -1
    assert recoil_penalty(RIFLE, 3, braced_on_cover=True) == -5
    assert recoil_penalty(SHOTGUN, braced_on_cover=True) == 0


def test_aiming_widens_the_threat_range_by_one_text_example() -> None:
    # A 20/x2 critical becomes 19-20/x2.
    assert threat_range(20, aiming=True) == 19
    assert threat_range(20) == 20


def test_aiming_perception_cone_and_speed() -> None:
    assert aiming_perception(True) == 5 and aiming_perception(False) == -5
    assert aiming_speed(30) == 15
    assert aiming_speed(25) == 10
    assert aiming_speed(35) == 15


def test_aiming_costs_one_action_or_two_for_sniper_rifles() -> None:
    assert aiming_actions(RIFLE) == 1
    assert aiming_actions(SNIPER) == 2


def test_no_aiming_with_two_weapons() -> None:
    assert aiming_refusal(PISTOL, two_weapons=True) is not None
    assert aiming_refusal(PISTOL, two_weapons=False) is None


def test_overwatch_builds_threat_range_up_to_int_times_three() -> None:
    assert overwatch_bonus(1, 0) == 1
    assert overwatch_bonus(5, 1) == 3
    assert overwatch_bonus(5, 2) == 5
    assert threat_range(20, aiming=True, overwatch=3) == 16


def overwatch(weapon: Weapon, **changes: object) -> str | None:
    facts: dict[str, object] = dict(
        aiming=True, target_unaware=True, target_visible=True, distance_ft=60.0
    )
    facts.update(changes)
    return overwatch_refusal(
        weapon,
        aiming=bool(facts["aiming"]),
        target_unaware=bool(facts["target_unaware"]),
        target_visible=bool(facts["target_visible"]),
        distance_ft=float(str(facts["distance_ft"])),
    )


def test_overwatch_needs_aiming_an_unaware_visible_target_in_range() -> None:
    assert overwatch(RIFLE) is None
    assert "Aiming" in str(overwatch(RIFLE, aiming=False))
    assert "unaware" in str(overwatch(RIFLE, target_unaware=False))
    assert "sight" in str(overwatch(RIFLE, target_visible=False))
    assert "range increment" in str(overwatch(RIFLE, distance_ft=120))
    assert overwatch(SNIPER, distance_ft=120) is None


def test_covering_fire_cone_is_one_range_increment_text_example() -> None:
    thirty = Weapon("Carbine", range_increment=30, modes=("semi-auto",))
    assert covering_fire_cone_ft(thirty) == 30


def test_covering_fire_hits_a_target_once_per_attack_action() -> None:
    # Full-Auto with Covering Fire: one hit chance per action (1x, 2x, 3x recoil).
    assert covering_fire_hits(3, ("a", "b", "a")) == (("a", "b"),) * 3


def test_covering_fire_needs_semi_or_full_auto() -> None:
    assert covering_fire_refusal(RIFLE) is None
    assert covering_fire_refusal(SHOTGUN) is not None


def test_suppressive_fire_needs_ten_rounds_and_hits_defense_ten() -> None:
    assert suppressive_refusal(RIFLE) is None
    assert suppressive_refusal(RIFLE.with_ammo(9)) is not None
    assert suppressive_refusal(SHOTGUN) is not None
    assert suppressive_hits_area(10) and not suppressive_hits_area(9)
    assert suppressive_attack_modifier(False) == -4
    assert suppressive_attack_modifier(True) == 0


def test_blind_fire_needs_heavy_cover_and_halves_shots_without_a_perception_check() -> None:
    assert blind_fire_refusal(CoverGrade.HALF) is not None
    assert blind_fire_refusal(CoverGrade.THREE_QUARTERS) is None
    assert blind_fire_shots(3, located_enemies=False) == BlindFireShots(2, 1)
    assert blind_fire_shots(3, located_enemies=True) == BlindFireShots(3, 0)
    assert blind_fire_locate_actions(quick_recon=True) == 0
    assert blind_fire_locate_actions(quick_recon=False) == 1
    assert blind_fire_misses(50) and not blind_fire_misses(51)
    with pytest.raises(ValueError):
        blind_fire_misses(0)


def test_charge_reach_twice_speed_or_speed_in_surprise_round() -> None:
    assert (CHARGE.speed_multiple, CHARGE.surprise_speed_multiple) == (2, 1)
    assert (CHARGE.attack_bonus, CHARGE.defence_penalty) == (2, -2)


def test_two_weapon_combat_pistols_and_smgs_only_strength_plus_three() -> None:
    assert two_weapon_refusal(PISTOL, PISTOL) is None
    assert two_weapon_refusal(PISTOL, RIFLE) is not None
    assert strength_requirement(10, two_weapons=True) == 13
    assert strength_requirement(10, two_weapons=False) == 10
