"""The seven steps of a Spycraft combat, one test per clause."""

import pytest

from engine.dice import GivenDice, SeededDice
from engine.rules.base import Command, IllegalCommand
from engine.rules.spycraft.flow import NO_AMBUSHER, base_encounter_distance
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import agent, cmd, started, state


def flat(fight: Encounter, token_id: str) -> bool:
    return fight.state.token(token_id).has_condition("flat-footed")


# Step 1: flat-footedness


def test_step1_everyone_starts_flat_footed() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[3, 20])
    assert flat(fight, "kevin")
    assert not flat(fight, "guard")  # his Initiative Count came: he is acting now


def test_step1_entering_on_purpose_means_not_flat_footed() -> None:
    fight = started(
        agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[3, 20], deliberate=["kevin"]
    )
    assert not flat(fight, "kevin")


def test_step1_flat_footedness_ends_when_his_count_comes() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[3, 20])
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "kevin" and not flat(fight, "kevin")


# Step 2: base encounter distance


def test_step2_distance_comes_from_the_location_table() -> None:
    distance, text = base_encounter_distance("forest", GivenDice([14]))  # 4d6 x 10 ft
    assert distance == 140.0 and "140 ft" in text
    assert base_encounter_distance("indoors", GivenDice([]))[0] is None


def test_step2_distance_is_capped_by_the_best_sight_or_hearing() -> None:
    distance, text = base_encounter_distance("plains", GivenDice([30]), [200.0, 150.0])
    assert distance == 200.0  # 30 x 20 = 600 ft, more than anyone sees
    assert "drops to 200 ft" in text


def test_step2_start_combat_logs_the_distance() -> None:
    fight = started(
        agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[12, 3, 20], location="jungle"
    )
    assert any("Base encounter distance: 120 ft (jungle)" in e.text for e in fight.log)


def test_step2_unknown_location_is_named() -> None:
    with pytest.raises(ValueError, match="unknown location 'moon'"):
        base_encounter_distance("moon", SeededDice(1))


# Step 3: initiative checks


def test_step3_initiative_is_1d20_plus_bonus() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=5), agent("guard", 8, 1, Side.ENEMY), rolls=[11, 4]
    )
    assert fight.state.combat.combatant("kevin").initiative == 16


def test_step3_no_threats_or_errors_on_initiative() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=5), agent("guard", 8, 1, Side.ENEMY), rolls=[20, 1]
    )
    assert fight.state.combat.combatant("kevin").initiative == 25
    assert fight.state.combat.combatant("guard").initiative == 3
    assert not any("threat" in e.text or "error" in e.text for e in fight.log)


def test_step3_one_check_for_a_whole_group_of_opponents() -> None:
    fight = started(
        agent("kevin", 1, 1),
        agent("guard", 8, 1, Side.ENEMY, initiative=1),
        agent("boss", 8, 3, Side.ENEMY, initiative=4),
        rolls=[9, 10],  # the group's check comes first, with its best bonus (+4)
        group_initiative=["enemy"],
    )
    combat = fight.state.combat
    assert combat.combatant("guard").initiative == combat.combatant("boss").initiative == 13


# Step 4: surprise round


def test_step4_all_aware_means_no_surprise_round() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[3, 20])
    assert fight.state.combat.round == 1 and fight.state.combat.phase == "round"


def test_step4_none_aware_the_best_team_stealth_check_acts() -> None:
    fight = started(
        agent("kevin", 1, 1, stealth=4),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[3, 20, 15, 9],  # initiative, then stealth: party 19, enemy 9
        awareness="none",
    )
    combat = fight.state.combat
    assert combat.phase == "surprise" and combat.round == 0
    assert combat.active == "kevin"  # the guard has the better count but is surprised


def test_step4_some_aware_the_ambush_needs_to_win_the_opposed_check() -> None:
    won = started(
        agent("kevin", 1, 1),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[3, 20, 5, 12],
        awareness="some",
        acting=["enemy"],
    )
    assert won.state.combat.phase == "surprise" and won.state.combat.active == "guard"
    lost = started(
        agent("kevin", 1, 1),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[3, 20, 12, 5],
        awareness="some",
        acting=["enemy"],
    )
    assert lost.state.combat.phase == "round"
    assert any("no surprise round" in e.text for e in lost.log)


def test_step4_an_ambush_without_an_ambushing_side_is_refused_with_the_reason() -> None:
    """The engine, not the start-combat dialog, says an ambush needs the side springing it."""
    fight = Encounter(state(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY)), seed=1)
    nobody = Command.build("start_combat", awareness="some")
    preview = fight.preview(nobody)
    assert not preview.legal and preview.reasons == (NO_AMBUSHER,)
    with pytest.raises(IllegalCommand) as refused:
        fight.apply(nobody)
    assert refused.value.reasons == (NO_AMBUSHER,)
    assert fight.preview(Command.build("start_combat", awareness="some", acting=["enemy"])).legal
    # Who springs it matters only to an ambush: the other two choices start without one.
    for awareness in ("all", "none"):
        assert fight.preview(Command.build("start_combat", awareness=awareness)).legal


def test_step4_partial_awareness_leaves_some_out() -> None:
    fight = started(
        agent("kevin", 1, 1),
        agent("rico", 2, 2),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[3, 8, 20, 15, 2],
        awareness="none",
        unaware=["kevin"],
    )
    assert fight.state.combat.active == "rico"
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.round == 1  # Kevin got no surprise action


def surprise_fight() -> Encounter:
    return started(
        agent("kevin", 1, 1),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[3, 20, 15, 2],
        awareness="none",
    )


def test_step4_one_half_or_one_full_action_in_the_surprise_round() -> None:
    fight = surprise_fight()
    fight.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    assert not fight.preview(cmd("standard_move", "kevin", squares=[(3, 1)])).legal
    full = surprise_fight()
    full.apply(cmd("total_defense", "kevin"))
    assert not full.preview(cmd("crouch", "kevin")).legal


def test_step4_only_one_free_action_in_the_surprise_round() -> None:
    fight = surprise_fight()
    fight.apply(cmd("five_foot_step", "kevin", squares=[(2, 1)]))
    refused = fight.preview(cmd("delay", "kevin"))
    assert not refused.legal and "1 free action" in refused.reasons[0]


def test_step4_surprise_round_runs_in_initiative_order_then_round_one() -> None:
    fight = started(
        agent("kevin", 1, 1),
        agent("rico", 2, 3),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[3, 9, 20, 15, 2],
        awareness="none",
    )
    assert fight.state.combat.active == "rico"
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "kevin"
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.round == 1 and fight.state.combat.active == "guard"


# Step 5: combat round


def round_fight() -> Encounter:
    return started(
        agent("kevin", 1, 1, initiative=3), agent("guard", 8, 1, Side.ENEMY), rolls=[17, 2]
    )


def test_step5_two_half_actions_or_one_full_action() -> None:
    fight = round_fight()
    fight.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    fight.apply(cmd("crouch", "kevin"))
    third = fight.preview(cmd("stand_up", "kevin"))
    assert not third.legal and "0 half" not in third.reasons[0]
    other = round_fight()
    other.apply(cmd("total_defense", "kevin"))
    assert not other.preview(cmd("crouch", "kevin")).legal


def test_step5_order_runs_from_the_highest_count() -> None:
    fight = round_fight()
    assert [c.token_id for c in fight.state.combat.order] == ["kevin", "guard"]


def test_step5_ties_go_to_the_higher_bonus_then_a_roll_off() -> None:
    by_bonus = started(
        agent("kevin", 1, 1, initiative=1),
        agent("guard", 8, 1, Side.ENEMY, initiative=3),
        rolls=[12, 10],  # both 13
    )
    assert by_bonus.state.combat.order[0].token_id == "guard"
    by_roll = started(
        agent("kevin", 1, 1, initiative=2),
        agent("guard", 8, 1, Side.ENEMY, initiative=2),
        rolls=[10, 10, 7, 7, 4, 18],  # tie; roll-off 7-7 re-rolled; then 4 vs 18
    )
    assert by_roll.state.combat.order[0].token_id == "guard"
    assert any("roll-off" in e.text for e in by_roll.log)


def test_a_roll_off_among_more_tokens_than_the_die_has_faces_ends() -> None:
    """25 mooks on one Count and bonus: those who tie roll off again among themselves (before,
    every roll-off roll had to differ, which 21 or more d20s never do: start_combat hung)."""
    mooks = [agent(f"m{i:02}", i % 12, i // 12, Side.ENEMY) for i in range(25)]
    fight = started(*mooks, rolls=[10] * 25)
    order = fight.state.combat.order
    assert len({c.tiebreak for c in order}) == 25  # every one placed
    assert [c.tiebreak for c in order] == sorted((c.tiebreak for c in order), reverse=True)
    assert any("roll-off" in e.text for e in fight.log)


def test_tokens_tied_in_a_roll_off_roll_again_among_themselves() -> None:
    fight = started(agent("ann", 1, 1), agent("bob", 3, 1), agent("cal", 5, 1),
                    rolls=[10, 10, 10, 7, 7, 20, 3, 9])  # Ann and Bob tie on 7; Cal 20
    assert [c.token_id for c in fight.state.combat.order] == ["cal", "bob", "ann"]
    assert [c.tiebreak[-2:] for c in fight.state.combat.order][1:] == [(7, 9), (7, 3)]


def test_step5_bonus_five_foot_step_only_without_other_movement() -> None:
    fight = round_fight()
    fight.apply(cmd("five_foot_step", "kevin", squares=[(2, 1)]))
    assert not fight.preview(cmd("standard_move", "kevin", squares=[(3, 1)])).legal
    assert fight.preview(cmd("standard_attack", "kevin", targets=["guard"])).legal
    moved = round_fight()
    moved.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    assert not moved.preview(cmd("five_foot_step", "kevin", squares=[(3, 1)])).legal


def test_step5_free_actions_do_not_spend_the_budget() -> None:
    fight = round_fight()
    fight.apply(cmd("delay", "kevin"))
    fight.apply(cmd("delay", "kevin"))
    assert fight.state.combat.combatant("kevin").budget["half"] == 2


# Step 6: fluid initiative


def play_round(fight: Encounter) -> None:
    current = fight.state.combat.round
    while fight.state.combat.round == current:
        fight.apply(cmd("end_turn"))


def test_step6_aim_and_brace_each_add_one_at_the_end_of_the_round() -> None:
    fight = round_fight()
    fight.apply(cmd("aim", "kevin", targets=["guard"]))
    fight.apply(cmd("brace", "kevin", squares=[(2, 1)]))
    assert fight.state.combat.combatant("kevin").initiative == 20  # not yet
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 22


def test_step6_regroup_gives_five_plus_int() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=3, int=2), agent("guard", 8, 1, Side.ENEMY), rolls=[17, 2]
    )
    fight.apply(cmd("regroup", "kevin"))
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 27


def test_step6_at_most_plus_or_minus_ten_a_round() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=3, int=4), agent("guard", 8, 1, Side.ENEMY), rolls=[17, 2]
    )
    fight.apply(cmd("fluid_event", "kevin", event="triumph"))
    fight.apply(cmd("regroup", "kevin"))
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 30  # +19 capped at +10
    assert any("capped from +19" in e.text for e in fight.log)


def test_step6_press_is_the_exception_to_the_cap() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=5), agent("guard", 8, 1, Side.ENEMY), rolls=[25, 2]
    )
    fight.apply(cmd("press", "kevin"))
    fight.apply(cmd("fluid_event", "kevin", event="exhausted"))
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 0 + 20  # 30-20-10, then <= 0


def test_step6_count_of_fifty_forces_a_press_first() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=20), agent("guard", 8, 1, Side.ENEMY), rolls=[20, 2]
    )
    fight.apply(cmd("fluid_event", "kevin", event="triumph"))
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 50
    refused = fight.preview(cmd("standard_move", "kevin", squares=[(2, 1)]))
    assert not refused.legal and "must be a Press" in refused.reasons[0]
    fight.apply(cmd("press", "kevin"))
    assert fight.preview(cmd("standard_move", "kevin", squares=[(2, 1)])).legal


def test_step6_zero_or_less_reeling_flat_footed_then_up_by_twenty_or_to_one() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=0), agent("guard", 8, 1, Side.ENEMY), rolls=[6, 2]
    )
    fight.apply(cmd("fluid_event", "kevin", event="exhausted"))  # 6 - 10 = -4
    play_round(fight)
    assert fight.state.token("kevin").has_condition("reeling")
    assert fight.state.combat.combatant("kevin").initiative == 16
    texts = [e.text for e in fight.log]
    reel = texts.index("Kevin is reeling.")
    assert texts[reel + 1] == "Kevin is flat-footed."
    assert "back up to 16" in texts[reel + 2]


def test_step6_raised_to_one_when_twenty_is_not_enough() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=-30), agent("guard", 8, 1, Side.ENEMY), rolls=[1, 2]
    )
    assert fight.state.combat.combatant("kevin").initiative == -29
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 1


def test_step6_modifiers_may_apply_more_than_once_a_round() -> None:
    fight = round_fight()
    fight.apply(cmd("fluid_event", "kevin", event="failed_save", times=2))
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 16


def wounded_guard(action_die: bool, face: int) -> int:
    fight = started(
        agent("kevin", 1, 1),
        agent("guard", 3, 1, Side.ENEMY, vitality=0, wounds=30, initiative=10),
        rolls=[18, 2],  # Kevin 20, Guard 12
    )
    attack = cmd(
        "standard_attack", "kevin", targets=["guard"], weapon="pistol", action_die=action_die
    )
    fight.apply(attack, [face, 5])
    play_round(fight)
    return fight.state.combat.combatant("guard").initiative


def test_step6_losing_wounds_costs_two_and_a_critical_hit_five_not_seven() -> None:
    assert wounded_guard(False, 15) == 10
    assert wounded_guard(True, 19) == 7  # the pistol threatens on 19; a die makes it critical


def test_step6_bleeding_costs_one_a_round() -> None:
    fight = round_fight()
    from engine.rules.spycraft import board

    state, _ = board.add_condition(fight.state, "kevin", "bleeding")
    fight = Encounter(state)
    play_round(fight)
    assert fight.state.combat.combatant("kevin").initiative == 19


# Step 7: repeat


def test_step7_the_next_round_runs_in_the_revised_order() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[10, 12])
    assert fight.state.combat.active == "guard"
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("regroup", "kevin"))  # 12 + 5 = 17
    play_round(fight)
    assert fight.state.combat.round == 2
    assert fight.state.combat.active == "kevin"


def test_start_combat_twice_is_refused() -> None:
    fight = Encounter(state(agent("kevin", 1, 1)), seed=1)
    fight.apply(Command("start_combat"))
    assert not fight.preview(Command("start_combat")).legal


def test_step6_firing_weapons_from_the_table() -> None:
    from dataclasses import replace

    from tests.engine.rules.spycraft.builders import PISTOL

    tactical = replace(PISTOL, name="shotgun", traits=("tactical",))
    fight = started(
        agent("kevin", 1, 1, weapons=(tactical, PISTOL), not_proficient=("pistol",)),
        agent("guard", 4, 1, Side.ENEMY),
        rolls=[18, 2],
    )
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="shotgun"), [2])
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"), [2])
    # tactical -2; the unfamiliar pistol -4 (once, however often it fires)
    assert fight.state.combat.combatant("kevin").get("fluid") == -6


def test_step6_failed_save_costs_two() -> None:
    from tests.engine.rules.spycraft.builders import SMG

    fight = started(
        agent("kevin", 1, 1, weapons=(SMG,)), agent("guard", 5, 1, Side.ENEMY), rolls=[18, 2]
    )
    fight.apply(cmd("cover_fire", "kevin", targets=["guard"], weapon="SMG"), [1])
    assert fight.state.combat.combatant("guard").get("fluid") == -2
