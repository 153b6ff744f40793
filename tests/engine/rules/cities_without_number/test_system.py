"""Cities Without Number on the turn engine: side initiative, the action economy and every
common combat action, played through the public session API."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battlemap import BattleMap, CoverGrade, CoverObject
from engine.dice import GivenDice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command, IllegalCommand, Need
from engine.rules.cities_without_number.combat_state import swarm_members
from engine.rules.cities_without_number.tables import SCALE as METRIC
from engine.tokens import Side, Weapon
from engine.turns.session import Encounter

from .builders import KNIFE, PISTOL, RIFLE, fight, person


def mods(game: Encounter, command: Command) -> dict[str, int]:
    return {m.name: m.value for m in game.preview(command).modifiers}


def test_each_side_rolls_1d8_plus_best_dex_and_pcs_win_ties() -> None:
    tokens = (person("ana", Side.PARTY, (0, 0), dex_mod=1),
              person("ally", Side.ALLY, (1, 0), dex_mod=2),
              person("goon", Side.ENEMY, (8, 8), dex_mod=1))
    game = Encounter(EncounterState("S", "cities-without-number", METRIC, BattleMap(12, 12),
                                    tokens), seed=1)
    game.apply(Command("start_combat"), GivenDice([3, 4]))  # party 3+2 = 5, enemy 4+1 = 5
    order = game.state.combat.order
    assert {c.token_id for c in order[:2]} == {"ana", "ally"}  # allies roll with the PCs
    assert {c.initiative for c in order} == {5}
    assert order[-1].token_id == "goon"  # the tie goes to the PCs' side


def test_individual_initiative_option_rolls_for_everyone() -> None:
    tokens = (person("ana", Side.PARTY, (0, 0)), person("bo", Side.PARTY, (1, 0)),
              person("goon", Side.ENEMY, (8, 8)))
    game = Encounter(EncounterState("S", "cities-without-number", METRIC, BattleMap(12, 12),
                                    tokens), seed=1)
    events = game.apply(Command.build("start_combat", individual=True), GivenDice([2, 7, 5]))
    assert sum("rolls initiative" in e.text for e in events) == 3
    assert [c.token_id for c in game.state.combat.order] == ["bo", "goon", "ana"]


def test_members_of_a_side_act_in_any_order() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("bo", Side.PARTY, (2, 0)),
                 person("goon", Side.ENEMY, (10, 10)))
    step = Command.build("run", "bo", squares=[(3, 0)])
    assert game.preview(step).legal
    game.apply(step)
    assert game.state.combat.active == "bo"
    assert not game.preview(Command.build("run", "goon", squares=[(9, 10)])).legal


def test_main_and_move_and_main_spent_as_a_second_move() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (10, 10)))
    game.apply(Command.build("run", "ana", squares=[(1, 0)]))
    game.apply(Command.build("run", "ana", squares=[(2, 0)]))  # the Main as a second Move
    with pytest.raises(IllegalCommand, match="no Move action left"):
        game.apply(Command.build("run", "ana", squares=[(3, 0)]))
    assert not game.preview(Command.build("ranged_attack", "ana", targets=["goon"],
                                          weapon="Pistol")).legal


def test_on_turn_actions_cost_nothing() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (10, 10)))
    game.apply(Command("go_prone", "ana"))
    assert game.state.combat.combatant("ana").budget == {"main": 1, "move": 1}


def test_instant_actions_work_out_of_turn() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (10, 10)))
    game.apply(Command.build("drop_item", "goon", weapon="Knife"))
    assert [w.name for w in game.state.token("goon").weapons] == ["Pistol"]
    assert not game.preview(Command.build("run", "goon", squares=[(9, 10)])).legal


def test_one_handed_gun_minus_four_and_rifle_cannot_fire_next_to_an_enemy() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0), PISTOL, RIFLE),
                 person("goon", Side.ENEMY, (1, 0)))
    pistol = Command.build("ranged_attack", "ana", targets=["goon"], weapon="Pistol")
    assert mods(game, pistol)["Enemy in melee range"] == -4
    rifle = game.preview(Command.build("ranged_attack", "ana", targets=["goon"], weapon="Rifle"))
    assert not rifle.legal and "two-handed" in rifle.reasons[0]


def test_snap_attack_out_of_turn_at_minus_four_gives_up_the_main_action() -> None:
    game = fight(person("goon", Side.ENEMY, (6, 0)), person("ana", Side.PARTY, (0, 0)))
    snap = Command.build("snap_attack", "ana", targets=["goon"], weapon="Pistol")
    assert mods(game, snap)["Snap Attack"] == -4
    game.apply(snap, GivenDice([1]))
    assert game.state.combat.combatant("ana").budget["main"] == 0
    assert not game.preview(snap).legal  # the Main is gone


def test_only_disciplined_npcs_snap_attack() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (6, 0)),
                 person("vet", Side.ENEMY, (6, 2), disciplined=True))
    assert not game.preview(Command.build("snap_attack", "goon", targets=["ana"],
                                          weapon="Pistol")).legal
    assert game.preview(Command.build("snap_attack", "vet", targets=["ana"],
                                      weapon="Pistol")).legal


def test_swarm_attack_bonus_grows_with_assailants_and_caps_at_four() -> None:
    game = fight(person("a", Side.PARTY, (4, 3)), person("b", Side.PARTY, (6, 3)),
                 person("c", Side.PARTY, (5, 2)), person("d", Side.PARTY, (5, 4)),
                 person("e", Side.PARTY, (4, 4)), person("goon", Side.ENEMY, (5, 3)))
    join = {who: Command.build("swarm_attack", who, targets=["goon"], weapon="Knife")
            for who in "abcde"}
    # The GM is told how to strike in the form's words, not the option's key and value.
    assert "tick Strike now" in game.preview(join["a"]).summary
    assert "strike=" not in game.preview(join["a"]).summary
    game.apply(join["a"])
    game.apply(join["b"])
    strike = Command.build("swarm_attack", "c", targets=["goon"], weapon="Knife", strike=True)
    assert mods(game, strike)["Swarm Attack"] == 4  # two other assailants
    game.apply(join["c"])
    preview = game.preview(join["d"])
    assert mods(game, join["d"])["Swarm Attack"] == 6 and "strikes now" in preview.summary
    game.apply(join["d"], GivenDice([1]))  # the fourth strikes (a natural 1 misses)
    assert swarm_members(game.state, "goon") == ()


def test_swarm_damage_bonus_and_unavoidable_shock() -> None:
    game = fight(person("a", Side.PARTY, (4, 3)), person("b", Side.PARTY, (6, 3)),
                 person("goon", Side.ENEMY, (5, 3), ac_melee=20))
    game.apply(Command.build("swarm_attack", "a", targets=["goon"], weapon="Knife"))
    # b strikes and misses AC 20, but the Swarm's Shock lands anyway (1 point).
    game.apply(Command.build("swarm_attack", "b", targets=["goon"], weapon="Knife",
                             strike=True), GivenDice([2]))
    assert game.state.token("goon").stat("hp") == 9


def test_a_swarms_shock_spares_a_foe_on_total_defense(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Swarm's unavoidable Shock is the rule's (combat_rules.swarm_shock_applies)."""
    from engine.rules.cities_without_number import combat_rules

    def play() -> int:
        game = fight(person("a", Side.PARTY, (4, 3)), person("b", Side.PARTY, (6, 3)),
                     person("goon", Side.ENEMY, (5, 3), ac_melee=20))
        game.apply(Command("total_defense", "goon"))
        game.apply(Command.build("swarm_attack", "a", targets=["goon"], weapon="Knife"))
        game.apply(Command.build("swarm_attack", "b", targets=["goon"], weapon="Knife",
                                 strike=True), GivenDice([2]))
        return int(game.state.token("goon").stat("hp"))

    assert play() == 10
    monkeypatch.setattr(combat_rules, "swarm_shock_applies", lambda defending: True)
    assert play() == 9


def test_charge_needs_three_metres_gives_plus_two_and_minus_two_ac_until_round_end() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (6, 0)),
                 person("far", Side.ENEMY, (15, 11)))
    charge = Command.build("charge", "ana", targets=["goon"], weapon="Knife")
    assert mods(game, charge)["Charge"] == 2
    # The card's roll adds the Charge's +2 and the rest, as the dice dialog then asks.
    preview = game.preview(charge)
    to_hit = sum(m.value for m in preview.modifiers if m.applies_to != "AC")
    assert preview.rolls[0] == f"attack 1d20{to_hit:+d}"
    game.apply(charge, GivenDice([1]))
    ana = game.state.token("ana")
    assert ana.square == Square(5, 0) and ana.has_condition("Charging")
    assert game.state.combat.combatant("ana").budget == {"main": 0, "move": 0}
    attack = Command.build("melee_attack", "goon", targets=["ana"], weapon="Knife")
    assert mods(game, attack)["Charging"] == -2
    # In a 2x2 closet every square beside the foe is under 3 m away: no run-up.
    near = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (1, 0)),
                 width=2, height=2)
    assert "3 m" in " ".join(near.preview(Command.build("charge", "ana", targets=["goon"],
                                                        weapon="Knife")).reasons)


def test_a_long_reach_charges_and_strikes_from_its_declared_reach() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0), reach=2), person("goon", Side.ENEMY, (6, 0)))
    game.apply(Command.build("charge", "ana", targets=["goon"], weapon="Knife"), GivenDice([1]))
    assert game.state.token("ana").square == Square(4, 0)
    short = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (2, 0)))
    strike = Command.build("melee_attack", "ana", targets=["goon"], weapon="Knife")
    assert "not in melee range" in " ".join(short.preview(strike).reasons)


def test_screen_an_ally_redirects_melee_to_the_worst_successful_screener() -> None:
    game = fight(person("guard", Side.PARTY, (2, 2)), person("ward", Side.PARTY, (4, 2)),
                 person("goon", Side.ENEMY, (4, 3)))
    screen = Command.build("screen_ally", "guard", targets=["ward"], squares=[(3, 2)])
    game.apply(screen)
    assert game.state.token("guard").square == Square(3, 2)
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))  # goon's side
    # goon 2d6 = 5 against guard 2d6 = 9: the screen holds, the blow goes to the guard.
    events = game.apply(Command.build("melee_attack", "goon", targets=["ward"], weapon="Knife"),
                        GivenDice([5, 9, 1]))
    assert any("takes the attack meant for Ward" in e.text for e in events)


def test_screen_cannot_stop_gunfire_or_be_made_without_combat_skill() -> None:
    game = fight(person("guard", Side.PARTY, (3, 2)), person("ward", Side.PARTY, (4, 2)),
                 person("goon", Side.ENEMY, (10, 2)), person("rookie", Side.PARTY, (0, 0),
                                                               shoot=0, stab=0, punch=0))
    game.apply(Command.build("screen_ally", "guard", targets=["ward"]))
    game.apply(Command("end_turn"))
    assert not game.preview(Command.build("screen_ally", "rookie", targets=["ward"],
                                          squares=[(1, 1)])).legal
    game.apply(Command("end_turn"))
    events = game.apply(Command.build("ranged_attack", "goon", targets=["ward"],
                                      weapon="Pistol"), GivenDice([1]))
    assert not any("screens" in e.text for e in events)


def test_total_defense_is_instant_plus_two_ac_no_shock_and_needs_the_main_action() -> None:
    game = fight(person("goon", Side.ENEMY, (1, 0)), person("ana", Side.PARTY, (0, 0)))
    game.apply(Command("total_defense", "ana"))
    attack = Command.build("melee_attack", "goon", targets=["ana"], weapon="Knife")
    assert mods(game, attack)["Total Defense"] == 2
    game.apply(attack, GivenDice([1]))  # a miss: Knife Shock would land, but not now
    assert game.state.token("ana").stat("hp") == 10
    assert not game.preview(Command("total_defense", "ana")).legal


def test_run_draws_free_attacks_unless_a_fighting_withdrawal_came_first() -> None:
    game = fight(person("ana", Side.PARTY, (1, 1)), person("goon", Side.ENEMY, (2, 1), KNIFE))
    run = Command.build("run", "ana", squares=[(0, 1)])
    preview = game.preview(run)
    assert preview.targets == ("goon",) and "free attack" in preview.notes[0]
    other = fight(person("ana", Side.PARTY, (1, 1)), person("goon", Side.ENEMY, (2, 1), KNIFE))
    other.apply(Command("fighting_withdrawal", "ana"))
    assert other.preview(run).targets == ()
    events = game.apply(run, GivenDice([20, 2]))
    assert any("free swing" in e.text for e in events)


def test_use_a_skill_rolls_2d6_plus_skill() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0), heal=2), person("goon", Side.ENEMY, (9, 9)))
    events = game.apply(Command.build("use_skill", "ana", skill="heal", difficulty=8),
                        GivenDice([6]))
    assert "8 against difficulty 8 - succeeds" in events[-1].text


def test_ready_stow_and_reload_costs() -> None:
    bow = Weapon("Bow", "1d8", 50, ammo=0, capacity=1, two_handed=True, traits=("bow",))
    game = fight(person("ana", Side.PARTY, (0, 0), PISTOL.with_ammo(3), bow),
                 person("goon", Side.ENEMY, (9, 9)))
    assert game.preview(Command("ready_item", "ana")).cost == "Main action"
    game.apply(Command.build("reload", "ana", weapon="Bow"))  # On Turn with Shoot-1
    assert game.state.combat.combatant("ana").budget == {"main": 1, "move": 1}
    game.apply(Command.build("reload", "ana", weapon="Pistol"))
    assert game.state.token("ana").weapon("Pistol").ammo == 15
    assert game.state.combat.combatant("ana").budget["main"] == 0


def test_drop_pick_up_and_stand_up_collects_dropped_items() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (9, 9)))
    game.apply(Command.build("drop_item", "ana", weapon="Knife"))
    game.apply(Command.build("run", "ana", squares=[(1, 0)]))
    game.apply(Command.build("pick_up_item", "ana", squares=[(0, 0)]))
    assert "Knife" in [w.name for w in game.state.token("ana").weapons]
    game.apply(Command.build("drop_item", "ana", weapon="Knife"))
    game.apply(Command("go_prone", "ana"))
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))
    game.apply(Command("stand_up", "ana"))
    assert "Knife" in [w.name for w in game.state.token("ana").weapons]


def test_go_prone_minus_two_ranged_plus_two_melee_half_movement() -> None:
    game = fight(person("ana", Side.PARTY, (1, 1)), person("goon", Side.ENEMY, (2, 1)),
                 person("far", Side.ENEMY, (8, 1)))
    game.apply(Command("go_prone", "ana"))
    game.apply(Command("end_turn"))
    assert mods(game, Command.build("melee_attack", "goon", targets=["ana"],
                                    weapon="Knife"))["Prone target"] == 2
    assert mods(game, Command.build("ranged_attack", "far", targets=["ana"],
                                    weapon="Pistol"))["Prone target"] == -2
    game.apply(Command("end_turn"))
    four = Command.build("run", "ana", squares=[(1, 2), (1, 3), (1, 4), (1, 5)])  # 6 m > 5 m
    assert not game.preview(four).legal


def test_hold_an_action_spends_the_move_and_fires_the_rest_as_instant() -> None:
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (6, 0)))
    game.apply(Command("hold_action", "ana"))
    assert game.state.combat.active == "goon"
    assert game.state.combat.combatant("ana").budget == {"main": 1, "move": 0}
    shot = Command.build("ranged_attack", "ana", targets=["goon"], weapon="Pistol")
    assert game.preview(shot).legal  # out of turn, as an Instant action
    events = game.apply(shot, GivenDice([1]))
    assert "resolves first" in events[0].text
    game.apply(Command("end_turn"))  # round 2: the hold is gone
    assert not game.state.token("ana").has_condition("Holding an Action")


def test_ranged_attacks_count_cover_from_the_map() -> None:
    desk = CoverObject("desk", "Desk", ((3.1, 0.0), (4.0, 0.0), (4.0, 1.0), (3.1, 1.0)),
                       CoverGrade.HALF)
    game = fight(person("ana", Side.PARTY, (0, 0)), person("goon", Side.ENEMY, (4, 0)))
    state = replace(game.state, battlemap=replace(game.state.battlemap, cover=(desk,)))
    shot = Command.build("ranged_attack", "ana", targets=["goon"], weapon="Pistol")
    assert mods(Encounter(state), shot)["Half cover"] == -2


def test_hyper_accelerated_movement_draws_no_free_attacks() -> None:
    game = fight(person("ana", Side.PARTY, (1, 1)), person("goon", Side.ENEMY, (2, 1), KNIFE))
    dash = Command.build("run", "ana", squares=[(0, 1)], hyper_accelerated=True)
    assert game.preview(dash).targets == ()


def test_a_screen_stops_as_many_attackers_a_round_as_its_best_combat_skill() -> None:
    game = fight(person("guard", Side.PARTY, (3, 2), stab=1, shoot=0),
                 person("ward", Side.PARTY, (4, 2)),
                 person("g1", Side.ENEMY, (4, 3)), person("g2", Side.ENEMY, (5, 2)))
    game.apply(Command.build("screen_ally", "guard", targets=["ward"]))
    game.apply(Command("end_turn"))
    game.apply(Command("end_turn"))  # the enemy side
    first = game.apply(Command.build("melee_attack", "g1", targets=["ward"], weapon="Knife"),
                       GivenDice([2, 9, 1]))
    assert any("screens Ward" in e.text for e in first)
    second = game.apply(Command.build("melee_attack", "g2", targets=["ward"], weapon="Knife"),
                        GivenDice([1]))
    assert not any("screens" in e.text for e in second)  # level-1 skill: one attacker a round


def test_a_range_trait_sets_the_longest_shot() -> None:
    pistol = Weapon("Light pistol", "1d6", 10, ammo=15, capacity=15, traits=("range 10/15 m",))
    game = fight(person("ana", Side.PARTY, (0, 0), pistol), person("goon", Side.ENEMY, (9, 0)),
                 person("far", Side.ENEMY, (11, 0)))
    near = Command.build("ranged_attack", "ana", targets=["goon"], weapon="Light pistol")
    assert mods(game, near)["Long range"] == -2  # 13.5 m: past 10 m, within 15 m
    far = game.preview(Command.build("ranged_attack", "ana", targets=["far"],
                                     weapon="Light pistol"))
    assert "beyond" in far.reasons[0]  # 16.5 m


def test_snap_attack_says_it_takes_a_weapon_as_the_ranged_attack_does() -> None:
    """A melee or ranged attack: the weapon is the GM's pick (the desktop's weapon box
    follows the catalogue's needs)."""
    system = get_system("cities-without-number")
    assert Need.WEAPON in system.action("snap_attack").needs
    assert Need.WEAPON in system.action("ranged_attack").needs




def test_hit_points_stop_at_zero_so_a_heal_brings_the_mortally_wounded_back() -> None:
    """Playtest: a guard on 9 took 10 and showed '-1/9'; a heal of 3 on a body at -3 left it
    at 0 and still Mortally Wounded. Hit points stop at 0, by an attack or the GM's hand."""
    game = fight(person("ana", Side.PARTY, (0, 0), PISTOL),
                 person("goon", Side.ENEMY, (3, 0), hp=5))
    shot = Command.build("ranged_attack", "ana", targets=["goon"], weapon="Pistol")
    said = game.apply(shot, GivenDice([20, 6]))  # a hit: 1d6+1 with a 6 is 7 on his 5
    goon = game.state.token("goon")
    assert goon.stats["hp"] == 0 and goon.has_condition("Mortally Wounded")
    assert any("(0 hit points left)" in e.text for e in said), [e.text for e in said]
    game.apply(Command.build("gm_damage", targets=["goon"], amount=10))  # the GM's hand too
    assert game.state.token("goon").stats["hp"] == 0
    game.apply(Command.build("gm_heal", targets=["goon"], amount=3))
    goon = game.state.token("goon")
    assert goon.stats["hp"] == 3 and not goon.has_condition("Mortally Wounded")
