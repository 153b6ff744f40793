"""Ammunition and automatic fire: Standard Attack, Burst, Autofire, Strafe, Suppressive Fire,
Cover Fire."""

from engine.tokens import Side
from tests.engine.rules.spycraft.builders import PISTOL, SMG, agent, cmd, started


def ammo(fight, token_id: str, weapon: str) -> int:  # type: ignore[no-untyped-def]
    return int(fight.state.token(token_id).weapon(weapon).ammo)


def shooter(weapon=SMG, **stats):  # type: ignore[no-untyped-def]
    return agent("kevin", 1, 5, weapons=(weapon,), str_score=12, **stats)


def test_standard_attack_spends_one_shot_and_an_empty_gun_cannot_fire() -> None:
    fight = started(shooter(PISTOL.with_ammo(1)), agent("guard", 6, 5, Side.ENEMY), rolls=[20, 1])
    fight.apply(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"), [2])
    assert ammo(fight, "kevin", "pistol") == 0
    refused = fight.preview(cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol"))
    assert not refused.legal
    assert "needs 1 shot; pistol has 0" in refused.reasons[0]


def test_burst_hits_with_one_two_or_three_shots_by_margin() -> None:
    for face, shots in ((10, 1), (15, 2), (20, 3)):
        fight = started(shooter(), agent("guard", 6, 5, Side.ENEMY, defense=12), rolls=[20, 1])
        burst = cmd("standard_attack", "kevin", targets=["guard"], weapon="SMG", trick="burst")
        # attack = face + 3 - recoil... the SMG's recoil 10 is under Str 12: no penalty
        fight.apply(burst, [face - 1, 1, 1, 1])
        assert ammo(fight, "kevin", "SMG") == 27
        assert any(f"Burst: {shots} of 3 shots hit." in e.text for e in fight.log), face


def test_burst_needs_three_shots_and_a_burst_mode() -> None:
    fight = started(shooter(SMG.with_ammo(2)), agent("guard", 6, 5, Side.ENEMY), rolls=[20, 1])
    burst = cmd("standard_attack", "kevin", targets=["guard"], weapon="SMG", trick="burst")
    assert "needs 3 shots" in fight.preview(burst).reasons[0]
    pistol = started(shooter(PISTOL), agent("guard", 6, 5, Side.ENEMY), rolls=[20, 1])
    burst = cmd("standard_attack", "kevin", targets=["guard"], weapon="pistol", trick="burst")
    assert "burst mode" in pistol.preview(burst).reasons[0]


def test_autofire_volleys_penalty_and_extra_shots_per_four() -> None:
    fight = started(shooter(), agent("guard", 6, 5, Side.ENEMY, defense=10), rolls=[20, 1])
    fire = cmd("autofire", "kevin", targets=["guard"], weapon="SMG", volleys=4)
    preview = fight.preview(fire)
    assert preview.legal and preview.shots == 12
    assert any(m.name == "volleys" and m.value == -4 for m in preview.modifiers)
    # 1d20 + 3 - 4 = face - 1; face 20 gives 19: 9 over Defense 10 -> 1 + 2 = 3 shots
    fight.apply(fire, [20, 1, 1, 1])
    assert ammo(fight, "kevin", "SMG") == 18
    assert any("3 shots strike Guard." in e.text for e in fight.log)


def test_autofire_needs_six_shots_and_at_most_a_third_in_volleys() -> None:
    low = started(shooter(SMG.with_ammo(5)), agent("guard", 6, 5, Side.ENEMY), rolls=[20, 1])
    assert "6+ shots" in low.preview(cmd("autofire", "kevin", targets=["guard"])).reasons[0]
    fight = started(shooter(SMG.with_ammo(12)), agent("guard", 6, 5, Side.ENEMY), rolls=[20, 1])
    refused = fight.preview(cmd("autofire", "kevin", targets=["guard"], volleys=5))
    assert "1 to 4 volleys" in refused.reasons[0]


def strafe_fight():  # type: ignore[no-untyped-def]
    return started(
        shooter(),
        agent("a", 6, 4, Side.ENEMY, defense=10),
        agent("b", 6, 5, Side.ENEMY, defense=10),
        agent("c", 6, 6, Side.ENEMY, defense=10),
        rolls=[20, 1, 1, 1],
    )


def test_strafe_three_shots_a_square_and_cumulative_defense() -> None:
    fight = strafe_fight()
    sweep = cmd("strafe", "kevin", squares=[(6, 4), (6, 5), (6, 6)], weapon="SMG")
    preview = fight.preview(sweep)
    assert preview.legal and preview.shots == 9
    assert "A at (6,4): Defense 10+2" in preview.summary
    assert "C at (6,6): Defense 10+6" in preview.summary
    # 1d20+3 (no recoil): face 11 -> 14 hits A (12) and B (14) but not C (16)
    fight.apply(sweep, [11, 4, 4])
    assert ammo(fight, "kevin", "SMG") == 21
    texts = [e.text for e in fight.log]
    assert any("A at (6,4) (Defense 12): hit." in t for t in texts)
    assert any("B at (6,5) (Defense 14): hit." in t for t in texts)
    assert any("C at (6,6) (Defense 16): missed." in t for t in texts)


def test_strafe_is_limited_by_a_third_of_the_ammunition() -> None:
    fight = started(shooter(SMG.with_ammo(9)), agent("a", 6, 4, Side.ENEMY), rolls=[20, 1])
    too_many = cmd("strafe", "kevin", squares=[(6, 3), (6, 4), (6, 5), (6, 6)], weapon="SMG")
    assert "at most 3" in fight.preview(too_many).reasons[0]
    low = started(shooter(SMG.with_ammo(8)), agent("a", 6, 4, Side.ENEMY), rolls=[20, 1])
    assert "9+ shots" in low.preview(cmd("strafe", "kevin", squares=[(6, 4)])).reasons[0]


def test_strafe_chain_rules() -> None:
    fight = strafe_fight()
    gap = fight.preview(cmd("strafe", "kevin", squares=[(6, 4), (6, 6)], weapon="SMG"))
    assert any("gap" in r for r in gap.reasons)
    twice = fight.preview(cmd("strafe", "kevin", squares=[(6, 4), (6, 5), (6, 4)], weapon="SMG"))
    assert any("twice" in r for r in twice.reasons)
    behind = fight.preview(cmd("strafe", "kevin", squares=[(6, 5), (7, 5)], weapon="SMG"))
    assert any("directly behind" in r for r in behind.reasons)


def test_strafe_recoil_penalties_are_doubled() -> None:
    weak = started(
        agent("kevin", 1, 5, weapons=(SMG,), str_score=8),
        agent("a", 6, 5, Side.ENEMY),
        rolls=[20, 1],
    )
    preview = weak.preview(cmd("strafe", "kevin", squares=[(6, 5)], weapon="SMG"))
    assert any(m.name == "recoil (doubled)" and m.value == -4 for m in preview.modifiers)


def test_suppressive_fire_on_an_empty_square_and_final_attacks_on_crossers() -> None:
    fight = started(shooter(), agent("guard", 6, 2, Side.ENEMY, defense=10), rolls=[20, 1])
    occupied = fight.preview(cmd("suppressive_fire", "kevin", squares=[(6, 2)], weapon="SMG"))
    assert "occupied by Guard" in occupied.reasons[0]
    laid = fight.preview(cmd("suppressive_fire", "kevin", squares=[(6, 3)], weapon="SMG"))
    # What a crosser faces: the shooter's -4 final attack, and -4 to his own checks.
    faced = [(m.value, m.applies_to.split()[2]) for m in laid.modifiers]
    assert faced == [(-4, "shooter's"), (-4, "mover's")]
    fight.apply(cmd("suppressive_fire", "kevin", squares=[(6, 3)], weapon="SMG"))
    assert ammo(fight, "kevin", "SMG") == 25
    fight.apply(cmd("end_turn"))
    # 1d20 + 3 - 4 = face - 1 against Defense 10
    fight.apply(cmd("standard_move", "guard", squares=[(6, 3), (6, 4)]), [15, 6])
    assert ammo(fight, "kevin", "SMG") == 24
    assert fight.state.token("guard").has_condition("suppressed")
    assert fight.state.token("guard").stats["vitality"] == 14
    assert fight.state.combat.combatant("kevin").get("fluid") == -2


def test_suppressive_fire_lasts_until_the_shooters_next_turn() -> None:
    fight = started(shooter(), agent("guard", 6, 2, Side.ENEMY), rolls=[20, 1])
    fight.apply(cmd("suppressive_fire", "kevin", squares=[(6, 3)], weapon="SMG"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))  # round 2: Kevin's turn ends the suppression
    assert not fight.state.combat.pending


def test_cover_fire_will_save_or_minus_four() -> None:
    fight = started(shooter(), agent("guard", 6, 5, Side.ENEMY, will=1), rolls=[20, 1])
    fight.apply(cmd("cover_fire", "kevin", targets=["guard"], weapon="SMG"), [5])  # 6 < DC 13
    assert ammo(fight, "kevin", "SMG") == 25
    assert fight.state.token("guard").has_condition("pinned down")
    fight.apply(cmd("end_turn"))
    preview = fight.preview(cmd("standard_attack", "guard", targets=["kevin"], weapon="pistol"))
    assert any(m.name == "under Cover Fire" and m.value == -4 for m in preview.modifiers)


def test_cover_fire_not_on_a_foe_in_melee() -> None:
    fight = started(
        shooter(), agent("guard", 6, 5, Side.ENEMY), agent("rico", 7, 5), rolls=[20, 1, 1]
    )
    assert (
        "engaged in melee"
        in fight.preview(cmd("cover_fire", "kevin", targets=["guard"], weapon="SMG")).reasons[0]
    )


def test_reload_fills_a_magazine_or_three_single_fed_shots() -> None:
    fight = started(shooter(SMG.with_ammo(4)), agent("guard", 9, 9, Side.ENEMY), rolls=[20, 1])
    fight.apply(cmd("reload", "kevin", weapon="SMG"))
    assert ammo(fight, "kevin", "SMG") == 30
    from dataclasses import replace

    shotgun = replace(PISTOL, name="shotgun", ammo=1, capacity=8, traits=("single-fed",))
    other = started(shooter(shotgun), agent("guard", 9, 9, Side.ENEMY), rolls=[20, 1])
    other.apply(cmd("reload", "kevin", weapon="shotgun"))
    assert ammo(other, "kevin", "shotgun") == 4


def test_brace_adds_one_inside_the_chosen_cone_only() -> None:
    fight = started(
        shooter(),
        agent("ahead", 8, 5, Side.ENEMY),
        agent("aside", 1, 10, Side.ENEMY),
        rolls=[20, 1, 1],
    )
    preview = fight.preview(cmd("brace", "kevin", squares=[(2, 5)]))
    assert preview.shapes and preview.initiative == (("kevin", 1),)
    fight.apply(cmd("brace", "kevin", squares=[(2, 5)]))

    def braced(target: str) -> bool:
        shot = cmd("standard_attack", "kevin", targets=[target], weapon="SMG")
        return any(m.name.startswith("braced") for m in fight.preview(shot).modifiers)

    assert braced("ahead") and not braced("aside")
