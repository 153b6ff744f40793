"""Token ids and weapon names may hold any character: Spycraft's lists of ids (start_combat's
deliberate, boost, unaware, acting, group_initiative; a Joint Action's order) are typed
lists, never text split on commas, and the weapons fired without proficiency this round are
a typed list in the combat state, never text joined by bars."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.files import EncounterFileError, encounter_from_json, encounter_to_json
from engine.rules.base import BadOptions
from engine.rules.spycraft.combat_state import fired_without_proficiency
from engine.tokens import Side
from engine.turns import order as turn_order
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import PISTOL, agent, cmd, started

#: An id holding every separator a packed string split on.
ODD = 'kev, "the|one"=x;y:z'


def test_start_options_take_ids_of_any_character() -> None:
    fight = started(agent(ODD, 1, 1, action_dice=2), agent("guard", 8, 1, Side.ENEMY),
                    rolls=[3, 20, 4], deliberate=[ODD], boost=[ODD])
    assert not fight.state.token(ODD).has_condition("flat-footed")
    assert fight.state.combat.combatant(ODD).initiative == 2 + 3 + 4  # bonus, roll, die
    with pytest.raises(BadOptions, match="option 'deliberate' must be a list of token ids"):
        started(agent(ODD, 1, 1), agent("guard", 8, 1, Side.ENEMY), deliberate=ODD)


def test_the_surprise_options_take_sides_and_ids_as_lists() -> None:
    fight = started(agent(ODD, 1, 1, stealth=10), agent("guard", 8, 1, Side.ENEMY),
                    awareness="some", acting=["party"], unaware=["guard"], rolls=[15, 3, 3])
    assert fight.state.combat.combatant(ODD).data["surprise"] is True
    with pytest.raises(BadOptions, match="option 'acting' entries must be among"):
        started(agent(ODD, 1, 1), agent("guard", 8, 1, Side.ENEMY), awareness="some",
                acting=["party,enemy"])


def test_a_joint_action_order_of_odd_ids() -> None:
    buddy = 'bud|dy, "2"'
    fight = started(agent(ODD, 1, 1, initiative=3, cha=1, tactics=2),
                    agent(buddy, 2, 1, initiative=0), agent("camper", 9, 9, Side.ENEMY,
                                                            initiative=0),
                    rolls=[12, 5, 10])
    joined = fight.preview(cmd("joint_action", ODD, targets=[buddy], order=[f"{buddy},{ODD}"]))
    assert joined.reasons == ("the order must name the leader and each chosen teammate once",)
    fight.apply(cmd("joint_action", ODD, targets=[buddy], order=[buddy, ODD]), [19])
    while fight.state.combat.round == 1:
        fight.apply(cmd("end_turn"))
    assert [c.token_id for c in fight.state.combat.order][:2] == [buddy, ODD]


#: A weapon name holding the "|" the old per-round text joined names with.
BAR = replace(PISTOL, name='Colt|.45 "Army"=;:')
#: A weapon name holding the "," the old not_proficient text split on.
COMMA = replace(PISTOL, name="Colt, .45")


def nonproficient_fight() -> Encounter:
    return started(agent("kevin", 1, 1, weapons=(BAR, COMMA, PISTOL),
                         not_proficient=(BAR.name, COMMA.name)),
                   agent("guard", 4, 1, Side.ENEMY, vitality=200, wounds=200), rolls=[18, 2])


def test_a_weapon_named_with_a_bar_costs_its_minus_four_once_a_round() -> None:
    fight = nonproficient_fight()
    for _ in range(2):
        fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon=BAR.name), [2])
    assert fight.state.combat.combatant("kevin").get("fluid") == -4
    assert fired_without_proficiency(fight.state, "kevin") == (BAR.name,)
    reloaded = Encounter(encounter_from_json(encounter_to_json(fight.state)))
    assert reloaded.state == fight.state
    while fight.state.combat.round == 1:
        fight.apply(cmd("end_turn"))
    assert fired_without_proficiency(fight.state, "kevin") == ()


def test_a_version_1_bar_joined_text_counts_once_a_file_loads_and_never_in_play() -> None:
    fight = nonproficient_fight()
    kevin = fight.state.combat.combatant("kevin")
    old = turn_order.update(fight.state, replace(kevin, data={**kevin.data,
                                                              "weapons_nonprof": "|x|y"}))
    assert fired_without_proficiency(old, "kevin") == ()
    loaded = encounter_from_json(encounter_to_json(old))
    assert fired_without_proficiency(loaded, "kevin") == ("x", "y")
    assert "weapons_nonprof" not in loaded.combat.combatant("kevin").data


def test_a_malformed_weapon_list_is_refused_on_load_naming_the_place() -> None:
    fight = nonproficient_fight()
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon=BAR.name), [2])
    document = encounter_to_json(fight.state)
    state_json = document["encounter"]["combat"]["system_state"]
    state_json["nonproficient"]["kevin"] = f"|{BAR.name}"
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(document)
    assert refused.value.place.startswith("encounter.combat.system_state")
    assert "nonproficient" in refused.value.place


def test_a_weapon_named_with_a_comma_is_listed_whole_as_not_proficient() -> None:
    fight = nonproficient_fight()
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon=COMMA.name), [2])
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon=PISTOL.name), [2])
    assert fight.state.combat.combatant("kevin").get("fluid") == -4  # the Colt's, not "Pistol"
    assert fired_without_proficiency(fight.state, "kevin") == (COMMA.name,)


def test_a_not_proficient_list_packed_into_text_is_refused_on_load() -> None:
    document = encounter_to_json(nonproficient_fight().state)
    document["encounter"]["tokens"][0]["stats"]["not_proficient"] = "Colt, .45"
    with pytest.raises(EncounterFileError, match="must be a list of words") as refused:
        encounter_from_json(document)
    assert refused.value.place == "encounter.tokens[0].stats.not_proficient"
