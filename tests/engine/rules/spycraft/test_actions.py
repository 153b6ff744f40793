"""Spycraft movement, close-combat, social and initiative actions, each by its description."""

import pytest

from engine.rules.base import IllegalCommand
from engine.rules.spycraft.combat_state import lying_items
from engine.tokens import Side
from tests.engine.rules.spycraft.builders import PISTOL, agent, cmd, started


def duel(**kevin):  # type: ignore[no-untyped-def]
    return started(agent("kevin", 4, 4, **kevin), agent("guard", 5, 4, Side.ENEMY), rolls=[20, 1])


def has(fight, token_id: str, condition: str) -> bool:  # type: ignore[no-untyped-def]
    return bool(fight.state.token(token_id).has_condition(condition))


# ---- movement


def test_standard_move_up_to_speed_and_not_through_foes() -> None:
    fight = duel()
    far = [(4, 5 + i) for i in range(7)]  # 7 squares = 35 ft > 30 ft
    assert (
        "more than the 30 ft"
        in fight.preview(cmd("standard_move", "kevin", squares=far)).reasons[0]
    )
    through = fight.preview(cmd("standard_move", "kevin", squares=[(5, 4), (6, 4)]))
    assert "Guard blocks the way" in through.reasons[0]


def test_run_four_times_speed_in_a_straight_line_then_flat_footed() -> None:
    fight = duel()
    line = [(4, 3 - i) for i in range(4)]
    fight.apply(cmd("run", "kevin", squares=line))
    assert has(fight, "kevin", "flat-footed")
    # The straight line (engine.routes) to (8,4) runs through the guard.
    blocked = duel().preview(cmd("run", "kevin", squares=[(8, 4)]))
    assert blocked.reasons
    too_far = duel().preview(cmd("run", "kevin", squares=[(4, 11)]))
    assert duel().preview(cmd("run", "kevin", squares=[(4, 0)])).legal and too_far.legal
    armored = started(
        agent("kevin", 0, 0, armor="full"), agent("g", 11, 11, Side.ENEMY), rolls=[20, 1]
    )
    assert "up to 90 ft" in armored.preview(cmd("run", "kevin", squares=[(1, 0)])).summary


def test_withdraw_first_step_must_leave_the_foes_side() -> None:
    fight = duel()
    stay = fight.preview(cmd("withdraw", "kevin", squares=[(4, 5), (3, 6)]))
    assert "must leave every opponent's side" in stay.reasons[0]
    fight.apply(cmd("withdraw", "kevin", squares=[(3, 4), (2, 4), (1, 4)]))
    assert fight.state.token("kevin").square == (1, 4)


def test_total_defense_gives_four_dodge_for_a_full_round() -> None:
    fight = duel()
    fight.apply(cmd("total_defense", "kevin"))
    fight.apply(cmd("end_turn"))
    preview = fight.preview(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"))
    assert "against Defense 16" in preview.summary
    fight.apply(cmd("end_turn"))  # round 2, Kevin's turn: it ends
    assert not has(fight, "kevin", "total defense")


def test_crouch_prone_and_stand_up_leaves_flat_footed() -> None:
    fight = duel()
    fight.apply(cmd("drop_prone", "kevin"))
    assert has(fight, "kevin", "prone")
    fight.apply(cmd("stand_up", "kevin"))
    assert not has(fight, "kevin", "prone") and has(fight, "kevin", "flat-footed")


def test_bull_rush_pushes_one_square_plus_one_per_four_and_sprawls() -> None:
    fight = started(
        agent("kevin", 1, 4, athletics=4),
        agent("guard", 5, 4, Side.ENEMY, athletics=0),
        rolls=[20, 1],
    )
    fight.apply(
        cmd("bull_rush", "kevin", targets=["guard"], squares=[(2, 4), (3, 4), (4, 4)]), [15, 10]
    )  # 19 vs 10: 9 over -> 1 + 2 squares
    assert fight.state.token("guard").square == (8, 4)
    assert has(fight, "guard", "sprawled")
    assert fight.state.token("kevin").square == (7, 4)


def test_bull_rush_lost_sprawls_the_rusher_one_square_back() -> None:
    fight = duel(athletics=0)
    fight.apply(cmd("bull_rush", "kevin", targets=["guard"]), [5, 15])
    assert fight.state.token("kevin").square == (3, 4)
    assert has(fight, "kevin", "sprawled")


# ---- close combat


def test_kick_costs_two_initiative_and_doubles_strength_on_damage() -> None:
    fight = duel(str=2)
    fight.apply(cmd("kick", "kevin", targets=["guard"]), [18, 3])
    assert fight.state.combat.combatant("kevin").get("fluid") == -2
    # Unarmed 1d4 face 3 + Str 2 (melee) + Str 2 again = 7
    assert fight.state.token("guard").stats["vitality"] == 13


def test_pummel_double_subdual_only() -> None:
    fight = duel()
    fight.apply(cmd("pummel", "kevin", targets=["guard"]), [18, 3])
    assert fight.state.token("guard").stats["subdual"] == 6
    assert fight.state.token("guard").stats["vitality"] == 20


def test_trip_sprawls_or_leaves_the_tripper_flat_footed() -> None:
    won = duel(acrobatics=3)
    won.apply(cmd("trip", "kevin", targets=["guard"]), [12, 10])
    assert has(won, "guard", "sprawled")
    lost = duel()
    lost.apply(cmd("trip", "kevin", targets=["guard"]), [5, 10])
    assert has(lost, "kevin", "flat-footed")


def test_disarm_sends_the_weapon_to_an_adjacent_square() -> None:
    fight = duel()
    fight.apply(cmd("disarm", "kevin", targets=["guard"], weapon="pistol"), [18, 2, 1])
    assert not fight.state.token("guard").weapons
    (pile,) = lying_items(fight.state)
    assert [w.name for w in pile.items] == ["pistol"]


def test_coup_de_grace_only_on_the_helpless_and_the_fort_save() -> None:
    fight = duel()
    assert (
        "not helpless"
        in fight.preview(cmd("coup_de_grace", "kevin", targets=["guard"], weapon="pistol")).reasons[
            0
        ]
    )
    from engine.rules.spycraft import board

    state, _ = board.add_condition(fight.state, "guard", "unconscious")
    from engine.turns.session import Encounter

    fight = Encounter(state)
    fight.apply(cmd("coup_de_grace", "kevin", targets=["guard"], weapon="pistol"), [6, 2])
    guard = fight.state.token("guard")
    assert guard.stats["wounds"] == -10 and guard.has_condition("dead")


# ---- social and initiative tricks


def test_taunt_forces_the_next_action_to_attack_the_taunter() -> None:
    fight = started(
        agent("kevin", 4, 4, manipulate=5),
        agent("rico", 3, 3),
        agent("guard", 5, 4, Side.ENEMY),
        rolls=[20, 15, 1],
    )
    fight.apply(cmd("taunt", "kevin", targets=["guard"]), [15, 3])
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "guard"
    refused = fight.preview(cmd("standard_attack", "guard", targets=["rico"], weapon="pistol"))
    assert "must attack Kevin" in refused.reasons[0]
    fight.apply(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"))
    assert not has(fight, "guard", "taunted")


def test_threaten_needs_harm_done_first() -> None:
    fight = duel(intimidate=5)
    assert "not yet hurt" in fight.preview(cmd("threaten", "kevin", targets=["guard"])).reasons[0]
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"), [18, 6])
    fight.apply(cmd("threaten", "kevin", targets=["guard"]), [15, 2, 3])
    assert fight.state.token("guard").stats["stress"] == 4


def test_feint_makes_the_foe_flat_footed_once_a_round() -> None:
    fight = duel(sleight_of_hand=4)
    fight.apply(cmd("feint", "kevin", targets=["guard"]), [14, 6])
    assert has(fight, "guard", "flat-footed")
    assert (
        "already fell for a Feint"
        in fight.preview(cmd("feint", "kevin", targets=["guard"])).reasons[0]
    )


def test_diversion_drops_the_foes_count_at_round_end() -> None:
    fight = duel(bluff=4)
    fight.apply(cmd("diversion", "kevin", targets=["guard"]), [14, 6, 3])  # 1d4+1 = 4
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.combatant("guard").initiative == 3 - 4 + 20


def test_anticipate_gives_a_dodge_bonus_against_one_foe() -> None:
    fight = duel(sense_motive=3, wis=2)
    fight.apply(cmd("anticipate", "kevin", targets=["guard"]), [12])  # 15 vs DC 10
    fight.apply(cmd("end_turn"))
    preview = fight.preview(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"))
    assert "against Defense 14" in preview.summary


def test_aim_adds_one_until_the_target_moves_away() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 6, 1, Side.ENEMY), rolls=[20, 1])
    fight.apply(cmd("aim", "kevin", targets=["guard"]))
    shot = cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol")
    assert any(m.name == "aim" for m in fight.preview(shot).modifiers)
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("standard_move", "guard", squares=[(6, 2), (6, 3)]))
    assert not has(fight, "kevin", "aiming")


def test_called_shot_needs_aim_and_ignores_armor() -> None:
    fight = started(
        agent("kevin", 1, 1),
        agent("guard", 6, 1, Side.ENEMY, armor="moderate", dr=3),
        rolls=[20, 1],
    )
    called = cmd(
        "standard_attack", "kevin", targets=["guard"], weapon="pistol", trick="called_shot"
    )
    assert "needs Aim" in fight.preview(called).reasons[0]
    fight.apply(cmd("aim", "kevin", targets=["guard"]))
    preview = fight.preview(called)
    assert any(m.value == -6 for m in preview.modifiers) and preview.initiative == (("kevin", -5),)
    fight.apply(called, [19, 5])  # 19 + 3 + 1 - 6 = 17 hits Defense 12; 5 damage, DR ignored
    assert fight.state.token("guard").stats["vitality"] == 15


def test_cheap_shot_miss_leaves_the_shooter_flat_footed() -> None:
    fight = started(agent("kevin", 1, 1), agent("guard", 6, 1, Side.ENEMY), rolls=[20, 1])
    cheap = cmd(
        "standard_attack",
        "kevin",
        targets=["guard"],
        weapon="pistol",
        trick="cheap_shot",
        cheap_on="dex",
    )
    fight.apply(cheap, [5])
    assert has(fight, "kevin", "flat-footed")


def test_refresh_heals_unless_attacked() -> None:
    fight = started(
        agent("kevin", 1, 1, vitality=10), agent("guard", 9, 9, Side.ENEMY), rolls=[20, 1]
    )
    fight.apply(cmd("refresh", "kevin"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"), [3])  # Kevin's next count: Action Die 1d4 shows 3
    assert fight.state.token("kevin").stats["vitality"] == 13


def test_refresh_spoiled_by_an_attack() -> None:
    fight = started(
        agent("kevin", 1, 1, vitality=10), agent("guard", 6, 1, Side.ENEMY), rolls=[20, 1]
    )
    fight.apply(cmd("refresh", "kevin"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"), [1])
    fight.apply(cmd("end_turn"))
    assert fight.state.token("kevin").stats["vitality"] == 10
    assert any("no Refresh healing" in e.text for e in fight.log)


def test_regroup_and_refresh_need_no_conditions() -> None:
    from engine.rules.spycraft import board
    from engine.turns.session import Encounter

    state, _ = board.add_condition(duel().state, "kevin", "prone")
    fight = Encounter(state)
    assert "without conditions" in fight.preview(cmd("regroup", "kevin")).reasons[0]
    assert "without conditions" in fight.preview(cmd("refresh", "kevin")).reasons[0]


def test_draw_holster_and_a_holstered_gun_cannot_fire() -> None:
    fight = duel()
    fight.apply(cmd("draw_holster", "kevin", weapon="pistol", mode="holster"))
    refused = fight.preview(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"))
    assert "put away" in refused.reasons[0]
    fight.apply(cmd("draw_holster", "kevin", weapon="pistol", mode="draw"))
    drawn = fight.preview(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"))
    assert not any("put away" in r for r in drawn.reasons)


def test_drop_and_pick_up() -> None:
    fight = duel()
    fight.apply(cmd("drop_ready_item", "kevin", weapon="pistol"))
    assert not fight.state.token("kevin").weapons
    fight.apply(cmd("draw_holster", "kevin", weapon="pistol", mode="pick_up"))
    assert fight.state.token("kevin").weapon("pistol") == PISTOL


def test_stand_off_resolve_each_round_and_damage_ends_it() -> None:
    fight = started(
        agent("kevin", 4, 4, resolve=4, wis=1),
        agent("guard", 5, 4, Side.ENEMY, wis=2),
        rolls=[1, 20],  # the guard acts first and goes for Kevin
    )
    fight.apply(cmd("stand_off", "kevin", targets=["guard"]))
    assert not fight.preview(cmd("stand_off", "kevin", targets=["guard"])).legal
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"), [15, 3, 4])  # round 2: Kevin 19 vs guard 3; stress 4 + 1
    assert fight.state.token("guard").stats["stress"] == 5
    fight.apply(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"), [19, 2])
    assert not fight.state.combat.pending
    assert any("the Stand Off ends" in e.text for e in fight.log)


def test_acting_out_of_turn_is_refused() -> None:
    fight = duel()
    with pytest.raises(IllegalCommand, match="Kevin's turn, not Guard's"):
        fight.apply(cmd("crouch", "guard"))


def test_disarm_with_a_threat_may_send_the_weapon_flying() -> None:
    fight = duel()
    disarm = cmd("disarm", "kevin", targets=["guard"], weapon="pistol", fly=True)
    fight.apply(disarm, [20, 2, 3, 3])  # natural 20; d8 direction 3; 1d4+1 = 4 squares
    (pile,) = lying_items(fight.state)
    x, y = pile.square
    assert 2 <= max(abs(x - 5), abs(y - 4)) <= 5
