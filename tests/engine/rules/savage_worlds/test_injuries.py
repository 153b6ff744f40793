"""The Injury Table (the edition's core rule, ``injuries``): a Wild Card a hit takes out
rolls 2d6 for the place (1d6 more on Guts and Head) right after its Incapacitation roll;
the injury is a condition with its effect in a fight, permanent after a failed roll, gone
with the last Wound otherwise."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product

from engine.dice import GivenDice
from engine.rules import get_system
from engine.rules.base import Command, Modifier
from engine.rules.savage_worlds import board
from engine.rules.savage_worlds.injuries import Injury, place
from engine.tokens import Condition, Side

from .builders import fight, fighter
from .test_bleeding_out import shot_down, texts

SYSTEM = get_system("savage-worlds")


def injured(name: Injury, permanent: bool = True) -> Condition:
    return Condition(str(name), None, "Injury Table", int(permanent))


def test_the_places_by_2d6_and_their_odds() -> None:
    named = {total: place(total) for total in range(2, 13)}
    assert named[2] is Injury.UNMENTIONABLES
    assert named[3] is named[4] is Injury.ARM
    assert all(named[t] == (Injury.BROKEN,) * 2 + (Injury.BATTERED,) * 2 + (Injury.BUSTED,) * 2
               for t in range(5, 10))
    assert named[10] is Injury.LEG
    assert named[11] == named[12] == (Injury.SCAR,) * 2 + (Injury.BLINDED,) * 2 + (
        Injury.BRAIN,) * 2
    odds: Counter[str] = Counter()
    for a, b in product(range(1, 7), repeat=2):
        found = place(a + b)
        odds["guts" if found == named[5] else "head" if found == named[11] else str(found)] += 1
    assert Fraction(odds["guts"], 36) == Fraction(2, 3)
    assert Fraction(odds[str(Injury.ARM)], 36) == Fraction(5, 36)
    assert Fraction(odds[str(Injury.LEG)], 36) == Fraction(1, 12)
    assert Fraction(odds["head"], 36) == Fraction(1, 12)
    assert Fraction(odds[str(Injury.UNMENTIONABLES)], 36) == Fraction(1, 36)


def test_a_failed_incapacitation_roll_gives_a_permanent_injury_on_the_token() -> None:
    game = shot_down((2, 3), injury=(12, 3))  # Head, then 3: Blinded
    b = game.state.token("b")
    assert injured(Injury.BLINDED) in b.conditions
    assert texts(game)[-1] == ("B rolls on the Injury Table: Head, Blinded: an eye lost, -2 to "
                               "Shooting (it needs depth) (permanent).")


def test_a_success_heals_with_the_last_wound_and_a_permanent_one_does_not() -> None:
    game = shot_down((3, 7), injury=(10,))  # 7 - 3 = 4: stable; a Leg
    b = game.state.token("b")
    assert injured(Injury.LEG, permanent=False) in b.conditions
    assert texts(game)[-1].endswith("(until every Wound is healed).")
    game.apply(Command.build("gm_heal", targets=["b"], amount=3))
    assert game.state.token("b").has_condition(str(Injury.LEG))  # one Wound left
    game.apply(Command.build("gm_heal", targets=["b"], amount=1))
    assert not game.state.token("b").has_condition(str(Injury.LEG))
    assert "B is over Injury: Leg (every Wound healed)." in texts(game)
    kept = shot_down((2, 3), injury=(10,))  # a failure: permanent
    kept.apply(Command.build("gm_heal", targets=["b"], amount=4))
    assert kept.state.token("b").has_condition(str(Injury.LEG))


def test_a_death_rolls_no_injury() -> None:
    game = shot_down((1, 1), injury=())  # no faces for the table: a roll would fail loudly
    assert not any(c.name.startswith("Injury") for c in game.state.token("b").conditions)


def test_guts_and_brain_lower_a_die_to_no_less_than_d4() -> None:
    token = fighter("x", Side.PARTY, (0, 0), vigor=8, strength=4, agility=6, smarts=10)
    hurt = replace(token, conditions=(injured(Injury.BATTERED), injured(Injury.BUSTED),
                                      injured(Injury.BROKEN), injured(Injury.BRAIN)))
    assert board.trait_die(hurt, "vigor") == (6, 0)
    assert board.trait_die(hurt, "strength") == (4, 0)  # already d4
    assert board.trait_die(hurt, "agility") == (4, 0)
    assert board.trait_die(hurt, "smarts") == (8, 0)
    assert board.trait_die(token, "vigor") == (8, 0)


def test_a_leg_slows_the_pace_and_a_lost_eye_costs_two_on_shooting() -> None:
    a = replace(fighter("a", Side.PARTY, (0, 0)),
                conditions=(injured(Injury.LEG), injured(Injury.BLINDED)))
    game = fight(a, fighter("b", Side.ENEMY, (3, 0)))
    assert SYSTEM.fresh_budget(game.state, "a")["pace"] == 5
    shoot = Command.build("shooting", "a", targets=["b"], weapon="Pistol")
    assert Modifier("Injury", -2) in game.preview(shoot).modifiers
    game.apply(shoot, GivenDice([6, 1, 1]))  # damage 2: shrugged off
    assert "4 (Trait die 6 -2) against 4 - hit" in texts(game)[-3]


def test_the_gm_may_give_and_take_every_injury_from_the_token_menu() -> None:
    offered = {spec.name for spec in SYSTEM.conditions}
    assert {str(i) for i in Injury} <= offered
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (3, 0)))
    game.apply(Command.build("gm_condition", targets=["a"], condition=str(Injury.LEG)))
    assert game.state.token("a").has_condition(str(Injury.LEG))
