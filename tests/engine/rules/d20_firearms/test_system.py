"""The d20 firearms ruleset on the turn engine: the action budget and every special
action, played through the public session API."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from engine.battlemap import BattleMap
from engine.dice import GivenDice
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules.base import Command, IllegalCommand
from engine.tokens import Side, Weapon
from engine.turns.session import Encounter
from tests.engine.rules.overlay_checks import overlay_problems

from .builders import KNIFE, PISTOL, RIFLE, SMG, SNIPER, crate, fight, soldier


def mods(game: Encounter, command: Command) -> dict[str, int]:
    return {m.name: m.value for m in game.preview(command).modifiers}


def budget(game: Encounter, who: str) -> int:
    return game.state.combat.combatant(who).budget["actions"]


def test_action_pool_defaults_to_three_and_is_configurable() -> None:
    tokens = (soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (5, 5)))
    game = Encounter(EncounterState("S", "d20-firearms", FIVE_FOOT, BattleMap(10, 10), tokens),
                     seed=2)
    game.apply(Command("start_combat"))
    assert budget(game, "a") == 3
    other = Encounter(EncounterState("S", "d20-firearms", FIVE_FOOT, BattleMap(10, 10), tokens),
                      seed=2)
    other.apply(Command.build("start_combat", actions_per_round=2))
    assert budget(other, "a") == 2


def test_attack_and_movement_actions_come_out_of_one_pool() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("move", "a", squares=[(0, 1)]))
    game.apply(Command.build("attack", "a", targets=["b"], weapon="Assault rifle"),
               GivenDice([1]))
    game.apply(Command.build("move", "a", squares=[(0, 2)]))
    assert budget(game, "a") == 0
    with pytest.raises(IllegalCommand, match="needs 1 action"):
        game.apply(Command.build("move", "a", squares=[(0, 3)]))


def test_full_auto_is_three_attack_actions_at_rising_recoil() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0), hp=100))
    preview = game.preview(Command.build("full_auto", "a", targets=["b"],
                                         weapon="Assault rifle"))
    assert "-2, -4, -6" in preview.summary and preview.cost == "3 of 3 actions"
    events = game.apply(Command.build("full_auto", "a", targets=["b"], weapon="Assault rifle"),
                        GivenDice([1, 1, 1]))
    assert [e.text.split("(")[1][:2] for e in events if "full-auto" in e.text] == \
        ["1x", "2x", "3x"]
    assert budget(game, "a") == 0
    assert game.state.token("a").weapon("Assault rifle").ammo == 27


def test_full_auto_needs_an_automatic_weapon_and_the_whole_pool() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), PISTOL), soldier("b", Side.ENEMY, (5, 0)))
    assert not game.preview(Command.build("full_auto", "a", targets=["b"],
                                          weapon="Pistol")).legal


def test_firing_from_cover_reduces_recoil_by_one() -> None:
    game = fight(soldier("a", Side.PARTY, (2, 2)), soldier("b", Side.ENEMY, (10, 2)),
                 cover=(crate(3.1, 2.0),))
    shot = mods(game, Command.build("attack", "a", targets=["b"], weapon="Assault rifle"))
    assert shot["Recoil x1 (braced on cover)"] == -1
    open_field = fight(soldier("a", Side.PARTY, (2, 2)), soldier("b", Side.ENEMY, (10, 2)))
    assert mods(open_field, Command.build("attack", "a", targets=["b"],
                                          weapon="Assault rifle"))["Recoil x1"] == -2


def test_aiming_widens_the_threat_range_and_halves_speed() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon="Assault rifle"))
    assert "threat 19-20" in game.preview(Command.build("attack", "a", targets=["b"],
                                                        weapon="Assault rifle")).summary
    assert game.preview(Command.build("move", "a", squares=[(0, 1), (0, 2), (0, 3)])).legal
    assert not game.preview(Command.build("move", "a", squares=[(0, 1), (0, 2), (0, 3),
                                                                (0, 4)])).legal
    game.apply(Command("stop_aiming", "a"))
    assert budget(game, "a") == 2  # ending the aim was free


def test_aiming_a_sniper_rifle_takes_two_actions() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), SNIPER), soldier("b", Side.ENEMY, (8, 0)))
    assert game.preview(Command.build("aim", "a", weapon="Sniper rifle")).cost == \
        "2 of 3 actions"


def test_no_aiming_with_two_guns_in_hand() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), PISTOL, SMG), soldier("b", Side.ENEMY, (8, 0)))
    assert "two weapons" in game.preview(Command.build("aim", "a", weapon="Pistol")).reasons[0]


def test_overwatch_adds_threat_range_per_action_up_to_int_times_three() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), int_mod=1), soldier("b", Side.ENEMY, (8, 0)),
                 actions=6)
    watch = Command.build("overwatch", "a", targets=["b"])
    assert "Aiming" in game.preview(watch).reasons[0]
    game.apply(Command.build("aim", "a", weapon="Assault rifle"))
    for _ in range(3):
        game.apply(watch)
    assert "limit" in game.preview(watch).reasons[0]
    summary = game.preview(Command.build("attack", "a", targets=["b"],
                                         weapon="Assault rifle")).summary
    assert "threat 16-20" in summary  # 20, -1 Aiming, -3 Overwatch


def test_overwatch_is_lost_if_the_shot_does_not_come_next() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon="Assault rifle"))
    game.apply(Command.build("overwatch", "a", targets=["b"]))
    game.apply(Command.build("move", "a", squares=[(0, 1)]))
    assert not game.state.token("a").has_condition("Overwatch")


def test_overwatch_needs_the_target_within_one_range_increment_unless_sniper() -> None:
    far = fight(soldier("a", Side.PARTY, (0, 0), PISTOL), soldier("b", Side.ENEMY, (19, 0)))
    far.apply(Command.build("aim", "a", weapon="Pistol"))
    assert "range increment" in far.preview(Command.build("overwatch", "a",
                                                          targets=["b"])).reasons[0]
    sniper = fight(soldier("a", Side.PARTY, (0, 0), SNIPER), soldier("b", Side.ENEMY, (19, 0)))
    sniper.apply(Command.build("aim", "a", weapon="Sniper rifle"))
    assert sniper.preview(Command.build("overwatch", "a", targets=["b"])).legal


def test_covering_fire_hits_each_foe_once_per_attack_action_then_reflex_for_cover() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("b", Side.ENEMY, (6, 5), hp=100,
                                                       reflex=0))
    cone = Command.build("covering_fire", "a", squares=[(6, 5)], weapon="Assault rifle")
    preview = game.preview(cone)
    assert preview.legal and "b" in preview.targets and preview.cost == "3 of 3 actions"
    # Three attack actions: attack 1 misses, b fails the save (2), attacks 2 and 3 miss.
    events = game.apply(cone, GivenDice([1, 2, 1, 1]))
    assert sum("covering fire" in e.text for e in events) == 3
    assert any("fails the save" in e.text for e in events)


def test_covering_fire_save_takes_a_foe_out_of_the_later_attacks() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("b", Side.ENEMY, (6, 5), hp=100,
                                                       reflex=5))
    events = game.apply(Command.build("covering_fire", "a", squares=[(6, 5)],
                                      weapon="Assault rifle"), GivenDice([1, 12]))
    assert sum("covering fire" in e.text for e in events) == 1
    assert game.state.token("b").has_condition("Taking Cover")


def test_covering_fire_needs_semi_or_full_auto() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5), SNIPER), soldier("b", Side.ENEMY, (6, 5)))
    assert not game.preview(Command.build("covering_fire", "a", squares=[(6, 5)],
                                          weapon="Sniper rifle")).legal


def test_suppressive_fire_ten_rounds_defense_ten_then_saves_and_half_speed() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 4), reflex=0),
                 soldier("c", Side.ENEMY, (9, 5), reflex=0))
    fire = Command.build("suppressive_fire", "a", squares=[(8, 4)], weapon="Assault rifle")
    preview = game.preview(fire)
    assert preview.shots == 10 and set(preview.targets) == {"b", "c"}
    # 14 - 4 (no Advanced Firearms Proficiency) = 10: the area is hit. b saves 15, c fails 3
    # and takes the rifle's 2d8 (typed as 4).
    game.apply(fire, GivenDice([14, 15, 3, 4]))
    assert game.state.token("a").weapon("Assault rifle").ammo == 20
    assert game.state.token("b").has_condition("Suppressed")
    assert game.state.token("c").stat("hp") == 16
    game.apply(Command("end_turn"))
    slowed = game.preview(Command.build("move", "b", squares=[(8, 5), (8, 6), (8, 7), (8, 8)]))
    assert not slowed.legal
    # The reason names the form's tick box, not the option's key and value.
    assert "tick Move anyway and draw the suppressing fire" in " ".join(slowed.reasons)
    assert "accept_fire=" not in " ".join(slowed.reasons)
    assert game.preview(Command.build("move", "b", squares=[(8, 5), (8, 6), (8, 7), (8, 8)],
                                      accept_fire=True)).legal


def test_suppressive_fire_needs_ten_rounds() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), RIFLE.with_ammo(9)),
                 soldier("b", Side.ENEMY, (8, 4)))
    assert not game.preview(Command.build("suppressive_fire", "a", squares=[(8, 4)],
                                          weapon="Assault rifle")).legal


def test_blind_fire_needs_heavy_cover_and_has_a_fifty_percent_miss_chance() -> None:
    wall = crate(3.05, 0.0, "three_quarters")
    game = fight(soldier("a", Side.PARTY, (2, 0)), soldier("b", Side.ENEMY, (9, 0)), cover=(wall,))
    blind = Command.build("blind_fire", "a", targets=["b"], weapon="Assault rifle")
    assert game.preview(blind).legal
    events = game.apply(blind, GivenDice([50]))
    assert "miss chance" in events[0].text
    open_field = fight(soldier("a", Side.PARTY, (2, 0)), soldier("b", Side.ENEMY, (9, 0)))
    assert "cover" in open_field.preview(blind).reasons[0]


def test_blind_full_auto_sends_half_the_shots_at_empty_squares_unless_located() -> None:
    wall = crate(3.05, 0.0, "three_quarters")
    game = fight(soldier("a", Side.PARTY, (2, 0)), soldier("b", Side.ENEMY, (9, 0)), cover=(wall,))
    events = game.apply(Command.build("blind_fire", "a", targets=["b"], weapon="Assault rifle",
                                      full_auto=True), GivenDice([10, 10]))
    assert "1 of A's blind shots go into empty squares" in events[0].text


def test_charge_full_round_plus_two_minus_two_defense() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    charge = Command.build("charge", "a", targets=["b"], weapon="Knife")
    assert mods(game, charge)["Charge"] == 2
    assert game.preview(charge).cost == "3 of 3 actions"
    game.apply(charge, GivenDice([1]))
    assert game.state.token("a").square == Square(7, 0)
    assert game.state.token("a").has_condition("Charging")
    game.apply(Command("end_turn"))
    shot = mods(game, Command.build("attack", "b", targets=["a"], weapon="Knife"))
    assert shot["Charging target"] == -2


def test_charge_stops_at_the_chargers_declared_reach() -> None:
    # A reach weapon wielder (stat reach 2) stops two squares short; the schema's default is 1.
    game = fight(soldier("a", Side.PARTY, (0, 0), reach=2), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("charge", "a", targets=["b"], weapon="Knife"), GivenDice([1]))
    assert game.state.token("a").square == Square(6, 0)


def test_charge_needs_a_clear_path() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("x", Side.PARTY, (3, 0)),
                 soldier("b", Side.ENEMY, (8, 0)), height=1)
    assert not game.preview(Command.build("charge", "a", targets=["b"], weapon="Knife")).legal


@pytest.mark.parametrize("hp", [0, -3])
def test_charge_passes_over_a_creature_at_zero_or_fewer_hit_points(hp: int) -> None:
    # Helpless creatures do not stop a Charge; a disabled or dying one (0 hit points or
    # fewer) is helpless for that clause, with or without the Disabled mark.
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("x", Side.PARTY, (3, 0), hp=hp),
                 soldier("b", Side.ENEMY, (8, 0)), height=1)
    charge = Command.build("charge", "a", targets=["b"], weapon="Knife")
    assert game.preview(charge).legal
    standing = fight(soldier("a", Side.PARTY, (0, 0)), soldier("x", Side.PARTY, (3, 0), hp=1),
                     soldier("b", Side.ENEMY, (8, 0)), height=1)
    assert not standing.preview(charge).legal


def test_charge_is_refused_when_a_line_to_the_closest_square_crosses_an_ally() -> None:
    # Any line from start to end counts, not only the centre one: an ally diagonally in
    # front of the target's row stops the charge to the diagonal attack squares too.
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("x", Side.PARTY, (4, 5)),
                 soldier("b", Side.ENEMY, (6, 5)))
    preview = game.preview(Command.build("charge", "a", targets=["b"], weapon="Knife"))
    assert not preview.legal
    assert any("ally" in r for r in preview.reasons)


def test_two_weapon_combat_minus_eight_pistols_and_smgs_only() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), PISTOL, SMG, str_score=13),
                 soldier("b", Side.ENEMY, (5, 0), hp=100))
    both = Command.build("two_weapon_attack", "a", targets=["b"], weapon="Pistol",
                         offhand="SMG")
    assert game.preview(both).legal
    events = game.apply(both, GivenDice([1, 1]))
    assert sum("fires the" in e.text for e in events) == 2
    assert budget(game, "a") == 2
    rifle = fight(soldier("a", Side.PARTY, (0, 0), PISTOL, RIFLE), soldier("b", Side.ENEMY, (5, 0)))
    assert not rifle.preview(Command.build("two_weapon_attack", "a", targets=["b"],
                                           weapon="Pistol", offhand="Assault rifle")).legal


def test_two_weapon_strength_requirement_plus_three() -> None:
    weak = fight(soldier("a", Side.PARTY, (0, 0), PISTOL, SMG, str_score=12),
                 soldier("b", Side.ENEMY, (5, 0)))
    reasons = weak.preview(Command.build("two_weapon_attack", "a", targets=["b"],
                                         weapon="Pistol", offhand="SMG")).reasons
    assert "Strength 13" in reasons[0]


def test_draw_holster_is_an_action_and_drop_is_free() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), PISTOL, KNIFE), soldier("b", Side.ENEMY, (5, 0)))
    game.apply(Command.build("draw_holster", "a", weapon="Pistol"))
    assert budget(game, "a") == 2
    assert "draw the Pistol" in game.preview(Command.build(
        "attack", "a", targets=["b"], weapon="Pistol")).reasons[0]
    game.apply(Command.build("drop_item", "a", weapon="Knife"))
    assert budget(game, "a") == 2
    assert [w.name for w in game.state.token("a").weapons] == ["Pistol"]


def test_one_action_reloads_both_guns() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0), PISTOL.with_ammo(1), SMG.with_ammo(2)),
                 soldier("b", Side.ENEMY, (5, 0)))
    game.apply(Command.build("reload", "a", weapon="Pistol"))
    weapons = {w.name: w.ammo for w in game.state.token("a").weapons}
    assert weapons == {"Pistol": 15, "SMG": 30} and budget(game, "a") == 2


def test_overwatch_on_a_square_pays_off_against_whoever_stands_there() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 0)))
    game.apply(Command.build("aim", "a", weapon="Assault rifle"))
    game.apply(Command.build("overwatch", "a", squares=[(8, 0)]))
    summary = game.preview(Command.build("attack", "a", targets=["b"],
                                         weapon="Assault rifle")).summary
    assert "threat 18-20" in summary  # Aiming and one Overwatch action


def test_overwatch_on_a_square_draws_the_watched_square() -> None:
    """A square watched with no one on it was a legal preview with an empty overlay: the
    map drew nothing (the conformance suite's random play found it)."""
    game = fight(soldier("a", Side.PARTY, (0, 0)), soldier("b", Side.ENEMY, (8, 3)))
    game.apply(Command.build("aim", "a", weapon="Assault rifle"))
    command = Command.build("overwatch", "a", squares=[(8, 0)])
    preview = game.preview(command)
    assert preview.legal, preview.reasons
    assert [(m.square, m.label) for m in preview.overlay.marks] == [(Square(8, 0), "Overwatch")]
    assert overlay_problems(game.state, command, preview) == []


def test_aiming_preview_draws_the_sixty_foot_perception_cone() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("b", Side.ENEMY, (8, 5)))
    preview = game.preview(Command.build("aim", "a", weapon="Assault rifle", squares=[(8, 5)]))
    assert preview.shapes and Square(10, 5) in preview.squares  # 50 ft out, inside the cone
    assert Square(14, 5) not in preview.squares  # 70 ft: beyond 60 ft


def test_weapon_traits_set_the_critical_range_and_strength_requirement() -> None:
    blade = Weapon("Combat knife", "1d4", melee=True, traits=("critical:19-20/x3",))
    game = fight(soldier("a", Side.PARTY, (0, 0), blade), soldier("b", Side.ENEMY, (1, 0)))
    assert "threat 19-20" in game.preview(Command.build("attack", "a", targets=["b"],
                                                        weapon="Combat knife")).summary
    heavy = Weapon("Heavy pistol", "2d8", 30, ammo=7, capacity=7, modes=("semi-auto",),
                   traits=("pistol", "strength:12"))
    weak = fight(soldier("a", Side.PARTY, (0, 0), heavy, SMG, str_score=13),
                 soldier("b", Side.ENEMY, (5, 0)))
    reasons = weak.preview(Command.build("two_weapon_attack", "a", targets=["b"],
                                         weapon="Heavy pistol", offhand="SMG")).reasons
    assert "Strength 15" in reasons[0]


def test_covering_fire_shoots_a_foe_who_steps_into_the_cone_until_the_shooters_turn() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("b", Side.ENEMY, (6, 5), hp=100),
                 soldier("c", Side.ENEMY, (2, 11), hp=100))
    game.apply(Command.build("covering_fire", "a", squares=[(6, 5)], weapon="Assault rifle"),
               GivenDice([1, 2, 1, 1]))  # c stands outside the cone: only b is shot at
    assert game.state.combat.pending[0].kind == "covering_fire"
    game.apply(Command("end_turn"))  # b's turn
    game.apply(Command("end_turn"))  # c's turn: it steps up into the cone
    events = game.apply(Command.build("move", "c", squares=[(3, 10), (4, 9), (5, 8)]),
                        GivenDice([1]))
    assert any("entering the covered cone" in e.text for e in events)
    game.apply(Command("end_turn"))  # round 2: a's turn ends the cover
    assert game.state.combat.pending == ()


def test_a_weapon_named_with_a_comma_stays_usable_when_the_knife_is_holstered(
    tmp_path: Path,
) -> None:
    colt = replace(PISTOL, name="Colt, .45")
    game = fight(soldier("a", Side.PARTY, (0, 0), colt, KNIFE), soldier("b", Side.ENEMY, (5, 0)))
    shot = Command.build("attack", "a", targets=["b"], weapon="Colt, .45")
    game.apply(Command.build("draw_holster", "a", weapon="Knife"))
    weapons = {w.name: w.drawn for w in game.state.token("a").weapons}
    assert weapons == {"Colt, .45": True, "Knife": False}
    assert game.preview(shot).legal, game.preview(shot).reasons
    game.save(tmp_path / "holstered.killbox")
    loaded = Encounter.open(tmp_path / "holstered.killbox")
    assert loaded.state == game.state
    loaded.apply(Command.build("draw_holster", "a", weapon="Colt, .45"))
    assert "draw the Colt, .45 first" in loaded.preview(shot).reasons[0]


def test_the_old_drawn_stat_is_no_stat_of_the_system() -> None:
    """Which weapons are in hand is each weapon's drawn flag; a 'drawn' stat is refused as
    unknown rather than silently ignored."""
    from engine.rules import get_system
    from engine.rules.base import stat_problems

    token = soldier("a", Side.PARTY, (0, 0), drawn="Pistol")
    problems = dict(stat_problems(get_system("d20-firearms").stats, token.stats))
    assert "drawn" in problems
