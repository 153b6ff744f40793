"""Cheap Shot: -2 on attacks keyed to the chosen attribute, one per scene, and the
Fortitude save (DC 20, 2 lower per minute, one try a minute) that ends it."""

import pytest

from engine.rules.base import IllegalCommand
from engine.tokens import Side, Weapon
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import PISTOL, agent, cmd, started

KNIFE = Weapon("knife", "1d4", melee=True)


def cheap_shot_on_guard(on: str = "dex") -> Encounter:
    """Kevin (ranged +3, trick -4) lands a Cheap Shot on the adjacent guard's Dexterity."""
    fight = started(
        agent("kevin", 1, 1),
        agent("guard", 2, 1, Side.ENEMY, weapons=(PISTOL, KNIFE), fortitude=5),
        rolls=[20, 1],
    )
    shot = cmd(
        "standard_attack",
        "kevin",
        targets=["guard"],
        weapon="pistol",
        trick="cheap_shot",
        cheap_on=on,
    )
    fight.apply(shot, [18, 2])  # 18 + 3 - 4 = 17 hits Defense 12
    assert fight.state.token("guard").has_condition("cheap shot")
    fight.apply(cmd("end_turn"))
    return fight


def attack_mods(fight: Encounter, weapon: str) -> dict[str, int]:
    preview = fight.preview(cmd("standard_attack", "guard", targets=["kevin"], weapon=weapon))
    return {m.name: m.value for m in preview.modifiers}


def test_cheap_shot_on_dexterity_hurts_ranged_attacks_only() -> None:
    fight = cheap_shot_on_guard("dex")
    assert attack_mods(fight, "pistol")["cheap shot (dex)"] == -2
    assert not any(name.startswith("cheap shot") for name in attack_mods(fight, "knife"))


def test_cheap_shot_on_strength_hurts_melee_attacks() -> None:
    fight = cheap_shot_on_guard("str")
    assert attack_mods(fight, "knife")["cheap shot (str)"] == -2


def test_shake_off_is_a_fortitude_save_against_dc_20() -> None:
    fight = cheap_shot_on_guard()
    preview = fight.preview(cmd("shake_off", "guard"))
    assert preview.legal and "Fortitude save DC 20" in preview.summary
    fight.apply(cmd("shake_off", "guard"), [15])  # 15 + 5 = 20
    assert not fight.state.token("guard").has_condition("cheap shot")


def test_one_try_a_minute_and_the_dc_falls_two_a_minute() -> None:
    fight = cheap_shot_on_guard()
    fight.apply(cmd("shake_off", "guard"), [2])  # 7: fails
    again = fight.preview(cmd("shake_off", "guard"))
    assert not again.legal and "once a minute" in again.reasons[0]
    for _ in range(20):  # ten rounds of two turns each
        fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "guard"
    later = fight.preview(cmd("shake_off", "guard"))
    assert later.legal and "DC 18" in later.summary


def test_only_one_cheap_shot_a_scene_even_after_shaking_it_off() -> None:
    fight = cheap_shot_on_guard()
    fight.apply(cmd("shake_off", "guard"), [15])
    fight.apply(cmd("end_turn"))
    second = cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol", trick="cheap_shot")
    with pytest.raises(IllegalCommand, match="already suffered a Cheap Shot"):
        fight.apply(second, [18, 2])


def test_no_shake_off_without_a_cheap_shot() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 2, 1, Side.ENEMY), rolls=[20, 1])
    assert "suffers no Cheap Shot" in fight.preview(cmd("shake_off", "kevin")).reasons[0]


def test_cheap_shot_on_speed_takes_ten_feet() -> None:
    fight = cheap_shot_on_guard("speed")
    five = [(3 + i, 1) for i in range(5)]  # 25 ft: within 30, beyond 20
    assert (
        "more than the 20 ft"
        in fight.preview(cmd("standard_move", "guard", squares=five)).reasons[0]
    )
    assert fight.preview(cmd("standard_move", "guard", squares=five[:4])).legal


def test_cheap_shot_takes_two_from_skill_checks_keyed_to_its_attribute() -> None:
    from engine.rules.spycraft import board

    fight = cheap_shot_on_guard("dex")
    guard = fight.state.token("guard")
    assert board.skill(guard, "acrobatics") == -2  # Acrobatics (Dex)
    assert board.skill(guard, "athletics") == 0  # Athletics (Str)
    assert board.skill(guard, "fortitude") == 5  # a save is no skill check


def test_fighting_defensively_takes_four_from_skill_checks() -> None:
    from engine.rules.spycraft import board

    fight = started(
        agent("kevin", 1, 1, athletics=3), agent("guard", 8, 1, Side.ENEMY), rolls=[20, 1]
    )
    fight.apply(cmd("fight_defensively", "kevin"))
    assert board.skill(fight.state.token("kevin"), "athletics") == -1
