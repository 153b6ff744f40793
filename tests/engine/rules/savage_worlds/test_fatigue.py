"""Fatigue (the edition's core rule, ``fatigue``): Fatigued is -1 and Exhausted -2 to every
Trait roll; one level past Exhausted is Incapacitated; the GM gives and takes the levels as
conditions, and an older file's ``fatigue`` stat becomes the condition at load."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import GivenDice
from engine.rules import get_system
from engine.rules.base import Command, Modifier
from engine.rules.savage_worlds import fatigue
from engine.rules.savage_worlds.health import FATIGUE_GAUGE
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import fight, fighter

SHOOT_B = Command.build("shooting", "a", targets=["b"], weapon="Pistol")
SYSTEM = get_system("savage-worlds")


def gm_gives(game: Encounter, name: str, present: bool = True) -> None:
    game.apply(Command.build("gm_condition", targets=["a"], condition=name, present=present))


def duel() -> Encounter:
    return fight(fighter("a", Side.PARTY, (0, 0), wild_card=True),
                 fighter("b", Side.ENEMY, (3, 0)))


def test_fatigued_is_minus_one_and_exhausted_minus_two_on_a_trait_roll() -> None:
    game = duel()
    assert not [m for m in game.preview(SHOOT_B).modifiers if m.name in fatigue.LEVELS]
    gm_gives(game, "Fatigued")
    assert Modifier("Fatigued", -1) in game.preview(SHOOT_B).modifiers
    gm_gives(game, "Exhausted")
    mods = game.preview(SHOOT_B).modifiers
    assert Modifier("Exhausted", -2) in mods and all(m.name != "Fatigued" for m in mods)
    # Shooting d6 rolls 5, Wild Die 2: 5 - 2 = 3 misses the 4 it would have hit.
    game.apply(SHOOT_B, GivenDice([5, 2]))
    assert "3 (Trait die 5, Wild Die 2 -2) against 4 - miss" in game.log[-1].text


def test_the_gm_tires_a_token_a_level_at_a_time_and_past_exhausted_it_is_incapacitated() -> None:
    game = duel()
    gm_gives(game, "Fatigued")
    a = game.state.token("a")
    assert fatigue.level(a) == 1 and a.has_condition("Fatigued")
    gm_gives(game, "Exhausted")
    a = game.state.token("a")
    assert fatigue.level(a) == 2 and not a.has_condition("Fatigued")
    gm_gives(game, "Fatigued")  # one level more than Exhausted
    a = game.state.token("a")
    assert a.has_condition("Incapacitated") and a.has_condition("Exhausted")
    assert not a.has_condition("Bleeding Out")  # no Vigor roll for Fatigue
    assert "Fatigue past Exhausted" in game.log[-1].text
    game.undo()
    assert not game.state.token("a").has_condition("Incapacitated")


def test_removing_the_condition_ends_the_penalty() -> None:
    game = duel()
    gm_gives(game, "Exhausted")
    gm_gives(game, "Exhausted", present=False)
    a = game.state.token("a")
    assert fatigue.level(a) == 0
    assert all(m.name != "Exhausted" for m in game.preview(SHOOT_B).modifiers)


def test_fatigue_pips_read_the_condition_and_are_not_a_count_the_gm_sets() -> None:
    game = duel()
    gm_gives(game, "Exhausted")
    gauges = {g.key: g for g in SYSTEM.gauges(game.state, game.state.token("a"))}
    assert gauges[FATIGUE_GAUGE].value == 2 and gauges[FATIGUE_GAUGE].maximum == 2
    assert FATIGUE_GAUGE not in {spec.name for spec in SYSTEM.stats}


def test_the_soak_roll_carries_fatigue() -> None:
    game = fight(fighter("b", Side.ENEMY, (3, 0)),
                 fighter("a", Side.PARTY, (0, 0), wild_card=True, bennies=1, vigor=6))
    game.apply(Command.build("gm_condition", targets=["a"], condition="Fatigued"))
    # b shoots a: hit (6), damage 9 against Toughness 5 is a raise: a Wound.
    game.apply(Command.build("shooting", "b", targets=["a"], weapon="Pistol"),
               GivenDice([6, 5, 4]))
    game.apply(Command("soak", "a"), GivenDice([4, 1]))
    assert "Vigor 3 (Trait die 4, Wild Die 1 -1)" in game.log[-2].text


def test_an_older_files_fatigue_stat_becomes_the_condition() -> None:
    game = duel()
    a = game.state.token("a")
    old = game.state.with_token(replace(a, stats={**a.stats, "fatigue": 2}))
    upgraded = SYSTEM.upgrade_state(old)
    a = upgraded.token("a")
    assert a.has_condition("Exhausted") and "fatigue" not in a.stats
    assert SYSTEM.upgrade_state(upgraded) == upgraded
