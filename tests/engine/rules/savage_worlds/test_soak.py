"""Soak: a Wild Card spends a Benny and rolls Vigor to take back the last hit's Wounds.

Found by a GM running the night street: Det. Vega took two Wounds from an Uzi and the app
had no way to soak them; the GM had to heal by hand and take the Benny off the stat form.
"""

from __future__ import annotations

from engine.dice import GivenDice
from engine.rules.base import Command
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import fight, fighter

SOAK = Command("soak", "b")


def shot_twice_wounded(bennies: int = 2, wounds: int = 0,
                       vigor: tuple[int, ...] = ()) -> Encounter:
    """a (first to act) hits the Wild Card b (Toughness 5, Vigor d6) for 14: two Wounds;
    ``vigor``: his Vigor and Wild Die against Incapacitation, when they take him out, and
    the Injury Table's dice."""
    b = fighter("b", Side.ENEMY, (3, 0), wild_card=True, vigor=6, bennies=bennies,
                wounds=wounds)
    game = fight(fighter("a", Side.PARTY, (0, 0)), b)
    # Shooting 6 (a is an Extra: no Wild Die); damage 2d6, each die aced to 7: 14 against
    # Toughness 5 is two raises.
    game.apply(Command.build("shooting", "a", targets=["b"], weapon="Pistol"),
               GivenDice([6, 7, 7, *vigor]))
    return game


def test_a_hit_on_a_wild_card_can_be_soaked_out_of_turn_with_a_benny() -> None:
    game = shot_twice_wounded()
    b = game.state.token("b")
    assert b.stats["wounds"] == 2 and b.has_condition("Shaken")
    assert game.state.combat.active == "a"  # the hit came in a's turn
    assert game.preview(SOAK).legal
    game.apply(SOAK, GivenDice([8, 2]))  # Vigor 8 (a raise): both Wounds taken back
    b = game.state.token("b")
    assert b.stats["wounds"] == 0 and b.stats["bennies"] == 1
    assert not b.has_condition("Shaken")  # the hit's Shaken goes with all its Wounds
    assert "B soaks 2 of the hit's 2 Wounds." in [e.text for e in game.log]


def test_a_plain_success_soaks_one_wound_and_the_token_stays_shaken() -> None:
    game = shot_twice_wounded()
    game.apply(SOAK, GivenDice([5, 1]))
    b = game.state.token("b")
    assert b.stats["wounds"] == 1 and b.has_condition("Shaken")
    game.apply(SOAK, GivenDice([4, 2]))  # a second Benny against what is left of the hit
    b = game.state.token("b")
    assert b.stats["wounds"] == 0 and b.stats["bennies"] == 0 and not b.has_condition("Shaken")
    assert "no Wounds from the last hit" in " ".join(game.preview(SOAK).reasons)


def test_a_failed_soak_spends_the_benny_and_keeps_the_wounds() -> None:
    game = shot_twice_wounded()
    game.apply(SOAK, GivenDice([3, 2]))
    b = game.state.token("b")
    assert b.stats["wounds"] == 2 and b.stats["bennies"] == 1


def test_soaking_needs_a_benny_and_a_hit() -> None:
    game = shot_twice_wounded(bennies=0)
    assert "no Benny" in " ".join(game.preview(SOAK).reasons)
    fresh = fight(fighter("a", Side.PARTY, (0, 0)),
                  fighter("b", Side.ENEMY, (3, 0), wild_card=True, bennies=3, wounds=1))
    assert "no Wounds from the last hit" in " ".join(fresh.preview(SOAK).reasons)


def test_a_soak_brings_back_the_wild_card_the_hit_took_out() -> None:
    """Two Wounds on top of two already: Incapacitated (over three). Soaking the hit is
    allowed though he is out of the fight, and the roll takes the -2 of the Wounds he had."""
    game = shot_twice_wounded(wounds=2, vigor=(2, 3, 10))  # 3 - 3: Bleeding Out; a Leg
    b = game.state.token("b")
    assert b.stats["wounds"] == 4 and b.has_condition("Incapacitated")
    assert b.has_condition("Bleeding Out") and b.has_condition("Injury: Leg")
    assert game.preview(SOAK).legal
    game.apply(SOAK, GivenDice([6, 1]))  # 6 - 2 = 4: one Wound back, three left
    b = game.state.token("b")
    assert b.stats["wounds"] == 3 and not b.has_condition("Incapacitated")
    assert not b.has_condition("Bleeding Out")  # the soak came before that roll
    assert not b.has_condition("Injury: Leg")  # and before the injury
    assert any("Vigor" in e.text and "-2" in e.text for e in game.log)
