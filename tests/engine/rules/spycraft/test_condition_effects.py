"""Conditions on attack checks and Defense, from condition_effects.json (d20 numbers,
the Spycraft conditions page being absent): flat-footed, sprawled/prone, crouched, reeling.
"""

from dataclasses import replace

import pytest

from engine import Command, new_encounter
from engine.rules.base import Preview
from engine.rules.spycraft import condition_effects
from engine.tokens import Condition, Side, Token, Weapon
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import PISTOL, agent, cmd, state

KNIFE = Weapon("knife", "1d4", melee=True)


def with_conditions(token: Token, *names: str) -> Token:
    return replace(token, conditions=tuple(Condition(n) for n in names))


def fight(kevin: Token, guard: Token) -> Encounter:
    """Kevin acts first; everyone starts flat-footed (step 1), Kevin stops being so as he acts."""
    encounter = new_encounter(state(kevin, guard), seed=5)
    encounter.apply(Command("start_combat"), [20, 1])
    return encounter


def attack(encounter: Encounter, weapon: str) -> Preview:
    return encounter.preview(cmd("standard_attack", "kevin", targets=["guard"], weapon=weapon))


def mod(preview: Preview, name: str) -> int:
    values = [m.value for m in preview.modifiers if m.name == name]
    assert values, f"no modifier {name!r} in {preview.modifiers}"
    return values[0]


KEVIN = agent("kevin", 1, 4, weapons=(PISTOL, KNIFE))
FAR_GUARD = agent("guard", 6, 4, Side.ENEMY)
NEAR_GUARD = agent("guard", 2, 4, Side.ENEMY)


def test_flat_footed_target_loses_his_dexterity_bonus() -> None:
    guard = agent("guard", 6, 4, Side.ENEMY, defense=15, dex=3)
    preview = attack(fight(KEVIN, guard), "pistol")
    assert mod(preview, "flat-footed (no Dex bonus)") == -3
    assert "against Defense 12" in preview.summary


def test_flat_footed_target_loses_dodge_bonuses_too() -> None:
    guard = with_conditions(agent("guard", 6, 4, Side.ENEMY), "total defense")
    preview = attack(fight(KEVIN, guard), "pistol")
    assert "total defense (dodge)" not in [m.name for m in preview.modifiers]


@pytest.mark.parametrize("lying", ["sprawled", "prone"])
def test_lying_target_is_harder_to_shoot_and_easier_to_stab(lying: str) -> None:
    ranged = attack(fight(KEVIN, with_conditions(FAR_GUARD, lying)), "pistol")
    assert mod(ranged, f"{lying} (vs ranged)") == 4
    assert "against Defense 16" in ranged.summary
    melee = attack(fight(KEVIN, with_conditions(NEAR_GUARD, lying)), "knife")
    assert mod(melee, f"{lying} (vs melee)") == -4
    assert "against Defense 8" in melee.summary


@pytest.mark.parametrize("lying", ["sprawled", "prone"])
def test_lying_attacker_takes_minus_four_in_melee_only(lying: str) -> None:
    kevin = with_conditions(KEVIN, lying)
    melee = attack(fight(kevin, NEAR_GUARD), "knife")
    assert mod(melee, lying) == -4 and melee.rolls[0] == "attack 1d20-2"  # +2 melee - 4
    ranged = attack(fight(kevin, FAR_GUARD), "pistol")
    assert lying not in [m.name for m in ranged.modifiers] and ranged.rolls[0] == "attack 1d20+3"


def test_standing_up_from_sprawled_costs_a_half_action() -> None:
    encounter = fight(with_conditions(KEVIN, "sprawled"), FAR_GUARD)
    encounter.apply(cmd("stand_up", "kevin"))
    assert not encounter.state.token("kevin").has_condition("sprawled")
    assert encounter.state.combat.combatant("kevin").budget["half"] == 1


def test_crouched_target_is_a_smaller_target_for_ranged_attacks_only() -> None:
    ranged = attack(fight(KEVIN, with_conditions(FAR_GUARD, "crouched")), "pistol")
    assert mod(ranged, "crouched (vs ranged)") == 2 and "against Defense 14" in ranged.summary
    melee = attack(fight(KEVIN, with_conditions(NEAR_GUARD, "crouched")), "knife")
    assert "against Defense 12" in melee.summary


def test_reeling_costs_two_on_attacks_and_on_defense() -> None:
    reeling_kevin = attack(fight(with_conditions(KEVIN, "reeling"), FAR_GUARD), "pistol")
    assert mod(reeling_kevin, "reeling") == -2 and reeling_kevin.rolls[0] == "attack 1d20+1"
    reeling_guard = attack(fight(KEVIN, with_conditions(FAR_GUARD, "reeling")), "pistol")
    assert "against Defense 10" in reeling_guard.summary


def test_the_applied_effect_changes_the_rolled_result() -> None:
    encounter = fight(KEVIN, with_conditions(FAR_GUARD, "prone"))
    events = encounter.apply(
        cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"), [10, 4]
    )
    assert any("13 against Defense 16, misses" in e.text for e in events)


def test_a_bad_table_row_is_named() -> None:
    bad = {"effects": [{"condition": "x", "who": "bystander", "roll": "attack"}]}
    with pytest.raises(ValueError, match="effect 1: who must be one of attacker, target"):
        condition_effects.parse_table(bad)
    with pytest.raises(ValueError, match="effect 1: value must be a whole number"):
        condition_effects.parse_table(
            {"effects": [{"condition": "x", "who": "target", "roll": "defense", "value": "2"}]}
        )


def test_the_shipped_table_covers_each_named_condition() -> None:
    named = {e.condition for e in condition_effects.table().effects}
    assert {"flat-footed", "sprawled", "prone", "crouched", "reeling"} <= named


@pytest.mark.parametrize("action", ["kick", "pummel"])
def test_kick_and_pummel_preview_name_the_defense_effects(action: str) -> None:
    encounter = fight(KEVIN, with_conditions(NEAR_GUARD, "sprawled"))
    preview = encounter.preview(cmd(action, "kevin", targets=["guard"]))
    assert preview.legal, preview.reasons
    assert mod(preview, "sprawled (vs melee)") == -4
    assert "1d20+2 against Defense 8" in preview.summary
