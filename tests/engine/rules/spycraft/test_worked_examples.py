"""The worked examples of the Spycraft texts: Kevin's Delay and Press, the Ready examples,
the Joint Action example."""

import pytest

from engine.rules.base import BadOptions, IllegalCommand
from engine.tokens import Side
from tests.engine.rules.spycraft.builders import agent, cmd, started


def count(fight, token_id: str) -> int:  # type: ignore[no-untyped-def]
    return fight.state.combat.combatant(token_id).initiative


# ---- Delay: "Kevin's Initiative Count is 22 and his Initiative bonus is +5..."


def kevin_delay_fight():  # type: ignore[no-untyped-def]
    return started(
        agent("kevin", 1, 1, initiative=5),
        agent("mole", 2, 5, initiative=0),
        agent("guard", 8, 1, Side.ENEMY, initiative=0),
        rolls=[17, 15, 3],  # Kevin 22, Mole 15, Guard 3
    )


def test_delay_kevin_may_delay_fifteen_times_down_to_seven() -> None:
    fight = kevin_delay_fight()
    assert count(fight, "kevin") == 22
    assert fight.preview(cmd("delay", "kevin", to=7)).legal
    too_far = fight.preview(cmd("delay", "kevin", to=6))
    assert not too_far.legal
    assert "at most 15 times" in too_far.reasons[0]


def test_delay_kevin_acts_on_ten_and_keeps_ten_next_round() -> None:
    fight = kevin_delay_fight()
    fight.apply(cmd("delay", "kevin", to=10))
    assert count(fight, "kevin") == 10
    # Mole (15) now goes before Kevin.
    assert fight.state.combat.active == "mole"
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "kevin"
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))  # the guard; round 2 begins
    assert fight.state.combat.round == 2
    assert count(fight, "kevin") == 10
    assert [c.token_id for c in fight.state.combat.order] == ["mole", "kevin", "guard"]


def test_delay_never_below_five() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=20),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[2, 1],  # Kevin 22
    )
    refused = fight.preview(cmd("delay", "kevin", to=4))
    assert not refused.legal and "below 5" in refused.reasons[0]


def test_a_lone_delay_wins_no_tie_the_higher_bonus_does() -> None:
    # Step 5: equal Counts go to the higher Initiative bonus; the Delay's priority is only
    # for two or more who Delay during the same Count.
    fight = started(
        agent("kevin", 1, 1, initiative=5),
        agent("guard", 8, 1, Side.ENEMY, initiative=9),
        rolls=[15, 1],  # Kevin 20, Guard 10
    )
    fight.apply(cmd("delay", "kevin", to=10))
    assert fight.state.combat.active == "guard"


def delaying_pair():  # type: ignore[no-untyped-def]
    return started(
        agent("kevin", 1, 1, initiative=1),
        agent("mole", 2, 5, initiative=2),
        agent("guard", 8, 1, Side.ENEMY, initiative=9),
        rolls=[19, 18, 1],  # Kevin 20, Mole 20, Guard 10
    )


def test_two_who_delay_during_the_same_count_act_first_on_the_count_they_reach() -> None:
    fight = delaying_pair()
    assert fight.state.combat.active == "mole"  # 20, bonus +2 beats Kevin's +1
    fight.apply(cmd("delay", "mole", to=10))
    fight.apply(cmd("delay", "kevin", to=10))
    # Both delayed during Count 20: they act before the guard on 10, in standard order.
    assert [c.token_id for c in fight.state.combat.order] == ["mole", "kevin", "guard"]
    assert fight.state.combat.active == "mole"


def test_the_delay_priority_ends_with_the_round() -> None:
    fight = delaying_pair()
    fight.apply(cmd("delay", "mole", to=10))
    fight.apply(cmd("delay", "kevin", to=10))
    for _ in range(3):
        fight.apply(cmd("end_turn"))
    assert fight.state.combat.round == 2
    # Round 2: all three on Count 10; the guard's +9 now goes first, then Mole, Kevin.
    assert [c.token_id for c in fight.state.combat.order] == ["guard", "mole", "kevin"]


# ---- Press: "Kevin has an Initiative Count of 30..."


def test_press_kevin_half_action_at_thirty_then_the_rest_at_ten() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=5),
        agent("guard", 4, 1, Side.ENEMY, initiative=0),
        agent("thug", 8, 8, Side.ENEMY, initiative=0),
        rolls=[25, 20, 5],  # Kevin 30, Guard 20, Thug 5
    )
    fight.apply(cmd("press", "kevin"))
    assert count(fight, "kevin") == 10
    assert fight.state.combat.active == "kevin"  # the bonus half action comes at once
    assert not fight.preview(cmd("total_defense", "kevin")).legal  # it is a half action
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"))
    assert fight.state.combat.active == "guard"  # his standard actions wait for Count 10
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "kevin"
    assert fight.state.combat.combatant("kevin").budget["half"] == 2
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "thug"


def test_press_only_once_a_round_and_only_from_twenty_five() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=5),
        agent("guard", 8, 1, Side.ENEMY),
        rolls=[45, 4],  # Kevin 50
    )
    fight.apply(cmd("press", "kevin"))
    fight.apply(cmd("standard_move", "kevin", squares=[(2, 1)]))
    again = fight.preview(cmd("press", "kevin"))
    assert not again.legal
    assert any("already Pressed" in r for r in again.reasons)
    low = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[22, 4])
    assert "25+" in low.preview(cmd("press", "kevin")).reasons[0]


# ---- Ready examples


def ready_fight():  # type: ignore[no-untyped-def]
    fight = started(
        agent("kevin", 1, 1, initiative=5, reflex=4),
        agent("ally", 6, 6, initiative=0),
        agent("enemy", 9, 9, Side.ENEMY, initiative=0),
        rolls=[17, 14, 8],  # Kevin 22, ally 14, enemy 8
    )
    fight.apply(
        cmd("ready", "kevin", then="standard_attack", trigger="first person around the corner")
    )
    fight.apply(cmd("end_turn"))
    return fight


def test_ready_cancelled_with_a_reflex_save_still_drops_the_count() -> None:
    """The ally comes round the corner on 14; Kevin's Reflex save of 22 holds his fire."""
    fight = ready_fight()
    assert fight.state.combat.active == "ally"
    vitality = fight.state.token("ally").stats["vitality"]
    fight.apply(cmd("trigger_ready", "kevin", targets=["ally"], weapon="pistol", cancel=True), [22])
    assert fight.state.token("ally").stats["vitality"] == vitality  # no shot
    assert count(fight, "kevin") == 14
    assert not fight.state.combat.pending
    # Nobody coming round the corner later this round triggers Kevin again.
    assert not fight.preview(cmd("trigger_ready", "kevin", targets=["enemy"])).legal


def test_ready_failed_cancel_means_the_shot_goes_off() -> None:
    fight = ready_fight()
    fight.apply(
        cmd("trigger_ready", "kevin", targets=["ally"], weapon="pistol", cancel=True),
        [3, 30, 7],  # Reflex 3 fails; the attack 30 hits; damage 7
    )
    assert fight.state.token("ally").stats["vitality"] == 13
    assert count(fight, "kevin") == 14


def test_ready_fires_on_the_trigger_at_the_triggering_count() -> None:
    fight = ready_fight()
    fight.apply(cmd("end_turn"))  # the ally does nothing; the enemy (8) steps out
    assert fight.state.combat.active == "enemy"
    fight.apply(cmd("trigger_ready", "kevin", targets=["enemy"], weapon="pistol"), [25, 6])
    assert fight.state.token("enemy").stats["vitality"] == 14
    assert count(fight, "kevin") == 8


def test_ready_untriggered_keeps_the_count_and_waits_until_his_next_turn() -> None:
    fight = started(
        agent("kevin", 1, 1, initiative=5),
        agent("sniper", 9, 9, Side.ENEMY, initiative=0),
        agent("enemy", 9, 1, Side.ENEMY, initiative=0),
        rolls=[17, 30, 8],  # Kevin 22, sniper 30, enemy 8
    )
    fight.apply(cmd("end_turn"))  # the sniper
    fight.apply(cmd("ready", "kevin", then="standard_attack", trigger="someone rounds the corner"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))  # the enemy; round 2 starts with the sniper at 30
    assert fight.state.combat.round == 2
    assert count(fight, "kevin") == 22
    assert fight.state.combat.active == "sniper"
    # Before Count 22 the Ready is still live.
    assert fight.preview(cmd("trigger_ready", "kevin", targets=["sniper"], weapon="pistol")).legal
    fight.apply(cmd("end_turn"))  # Kevin's Initiative Count arrives: the Ready lapses
    assert fight.state.combat.active == "kevin"
    assert not fight.state.combat.pending
    assert any("Ready action lapses" in e.text for e in fight.log)


def test_ready_holds_a_half_action_only() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 8, 1, Side.ENEMY), rolls=[20, 1])
    with pytest.raises(BadOptions, match=r"option 'then' must be one of .*'strafe'"):
        fight.preview(cmd("ready", "kevin", then="strafe", trigger="x"))


# ---- Joint Action: Kevin and his 3 buddies raid a stronghold


def joint_fight():  # type: ignore[no-untyped-def]
    return started(
        agent("kevin", 1, 1, initiative=3, cha=1, tactics=2),  # Charisma 13: +1
        agent("buddy", 2, 1, initiative=0, athletics=0),
        agent("rico", 1, 2, initiative=0),
        agent("lou", 2, 2, initiative=0),
        agent("camper", 9, 9, Side.ENEMY, initiative=0),
        rolls=[12, 5, 4, 3, 10],  # Kevin 15, buddies 5/4/3, camper 10
    )


def test_joint_action_kevin_may_include_only_two_of_three_buddies() -> None:
    fight = joint_fight()
    refused = fight.preview(cmd("joint_action", "kevin", targets=["buddy", "rico", "lou"]))
    assert not refused.legal and "at most 2" in refused.reasons[0]
    assert fight.preview(cmd("joint_action", "kevin", targets=["buddy", "rico"])).legal


def test_joint_action_tactics_19_sets_it_up_and_the_buddy_acts_on_kevins_count() -> None:
    fight = joint_fight()
    fight.apply(cmd("joint_action", "kevin", targets=["buddy"], order=["buddy", "kevin"]), [19])
    assert any("against DC 10, succeeds" in e.text for e in fight.log)
    while fight.state.combat.round == 1:
        fight.apply(cmd("end_turn"))
    order = [c.token_id for c in fight.state.combat.order]
    assert order[:3] == ["buddy", "kevin", "camper"]
    assert count(fight, "buddy") == 5  # actual counts are kept
    assert fight.state.combat.active == "buddy"


def test_joint_action_falls_apart_when_the_buddy_fails_to_kick_the_door() -> None:
    fight = joint_fight()
    fight.apply(cmd("joint_action", "kevin", targets=["buddy"], order=["buddy", "kevin"]), [19])
    while fight.state.combat.round == 1:
        fight.apply(cmd("end_turn"))
    fight.apply(cmd("action_check", "buddy", name="kicks the door", skill="athletics", dc=15), [8])
    assert any("Joint Action falls apart" in e.text for e in fight.log)
    fight.apply(cmd("end_turn"))
    # Kevin's grenade never comes: his turn is lost and the camper acts.
    assert fight.state.combat.active == "camper"
    with pytest.raises(IllegalCommand):
        fight.apply(cmd("action_check", "kevin", name="throws the grenade"))


def test_joint_action_failed_tactics_check_sets_nothing_up() -> None:
    fight = joint_fight()
    fight.apply(cmd("joint_action", "kevin", targets=["buddy"]), [7])  # 7 + 2 < DC 10
    assert not [p for p in fight.state.combat.pending if p.kind == "joint"]
