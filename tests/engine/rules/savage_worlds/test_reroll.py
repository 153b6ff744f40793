"""A Benny's reroll (the edition's core rule, ``rerolls`` and ``reroll_actions``): right
after a missed attack or a failed Vigor or Healing roll its roller may spend a Benny to roll
it again, the better roll counting; the Bennies count down, the log says so, undo gives the
Benny back, and the chance goes with the next action (an action's roll also with its turn)."""

from __future__ import annotations

from engine.dice import GivenDice, SeededDice
from engine.rules.base import Command
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import fight, fighter
from .test_bleeding_out import DOWN, STABILISE, shot_down, texts, wild_b

REROLL_A = Command("reroll", "a")
SHOOT_B = Command.build("shooting", "a", targets=["b"], weapon="Pistol")


def a_misses(faces: tuple[int, int] = (2, 3), bennies: int = 2) -> Encounter:
    """a (a Wild Card, Shooting d6) shoots at b (an Extra, Toughness 5) and misses."""
    game = fight(fighter("a", Side.PARTY, (0, 0), wild_card=True, bennies=bennies),
                 fighter("b", Side.ENEMY, (3, 0)))
    game.apply(SHOOT_B, GivenDice(list(faces)))
    return game


def test_a_missed_shot_rerolled_to_a_hit_rolls_its_damage_and_undo_gives_the_benny_back() -> None:
    game = a_misses()
    preview = game.preview(REROLL_A)
    assert preview.legal, preview.reasons
    assert "Shooting d6 +0 against 4; the better roll (3 so far) counts" in preview.summary
    game.apply(REROLL_A, GivenDice([5, 2, 4, 4]))  # Shooting 5; damage 4 + 4 = 8
    assert game.state.token("a").stats["bennies"] == 1
    lines = texts(game)
    assert ("A spends a Benny (1 left) to reroll the missed attack: Shooting 5 (Trait die 5, "
            "Wild Die 2); 5 counts.") in lines
    assert "A hits B after all." in lines
    assert "B takes 8 damage against Toughness 5." in lines
    assert game.state.token("b").has_condition("Shaken")
    assert not game.preview(REROLL_A).legal  # a hit is settled: nothing left to reroll
    game.undo()
    assert game.state.token("a").stats["bennies"] == 2
    assert not game.state.token("b").has_condition("Shaken")


def test_the_better_roll_counts_and_another_benny_may_follow() -> None:
    game = a_misses((2, 3))
    game.apply(REROLL_A, GivenDice([1, 2]))  # 2 is worse than 3: the 3 still counts
    assert texts(game)[-2].endswith("; 3 counts.")
    assert texts(game)[-1] == "A still misses B."
    assert game.preview(REROLL_A).legal  # a second Benny on the same roll
    game.apply(REROLL_A, GivenDice([4, 1, 1, 1]))  # 4 hits; damage 2
    assert "A hits B after all." in texts(game)
    assert game.state.token("a").stats["bennies"] == 0


def test_a_raise_on_the_reroll_adds_the_raise_die() -> None:
    game = a_misses()
    game.apply(REROLL_A, GivenDice([8, 2, 3, 3, 4]))  # 6 aces: 6 + 2 = 8, a raise
    lines = texts(game)
    assert "A hits with a raise B after all." in lines
    assert "B takes 10 damage against Toughness 5." in lines  # 3 + 3 + 4


def test_no_benny_rerolls_a_critical_failure_and_one_without_bennies_cannot() -> None:
    assert a_misses((1, 1)).preview(REROLL_A).reasons == (
        "A's roll was a critical failure: no Benny rerolls it",)
    assert a_misses(bennies=0).preview(REROLL_A).reasons == ("A has no Benny to spend",)


def test_the_chance_goes_with_the_next_action_and_with_the_turn() -> None:
    moved = a_misses()
    moved.apply(Command.build("move", "a", squares=[(0, 1)]))
    assert moved.preview(REROLL_A).reasons == (
        "A has no roll to reroll (a Benny rerolls a missed attack or a failed Vigor or "
        "Healing roll, right after it)",)
    ended = a_misses()
    ended.apply(Command("end_turn"), GivenDice([]))
    assert not ended.preview(REROLL_A).legal


def test_a_failed_incapacitation_roll_rerolled_to_a_success_is_stable() -> None:
    game = shot_down((2, 3), wild_b(bennies=1))  # 3 - 3 = 0: Bleeding Out
    reroll = Command("reroll", "b")
    assert game.preview(reroll).legal  # out of the fight, and not his turn
    game.apply(reroll, GivenDice([7, 2]))  # 7 - 3 = 4
    b = game.state.token("b")
    assert b.has_condition("Incapacitated") and not b.has_condition("Bleeding Out")
    assert texts(game)[-1] == ("B is stable after all: no longer Bleeding Out, still "
                               "Incapacitated.")
    assert b.stats["bennies"] == 0


def test_a_bleeding_out_death_rerolled_is_taken_back_and_outlives_the_ended_turn() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(*DOWN, wounds=4, bennies=1),
                 fighter("c", Side.ENEMY, (4, 0)))
    game.apply(Command("end_turn"), GivenDice([2, 3]))  # b's turn: 3 - 3 fails: dead
    assert game.state.token("b").has_condition("Dead")
    assert game.state.combat.active == "c"  # his turn ended at once; the roll is still his
    game.apply(Command("reroll", "b"), GivenDice([11, 2]))  # d6 aces: 11 - 3 = 8, a raise
    b = game.state.token("b")
    assert not b.has_condition("Dead") and not b.has_condition("Bleeding Out")
    assert texts(game)[-1] == "B does not die after all: stabilises, still Incapacitated."


def test_a_failed_stabilise_rerolled_stops_the_bleeding() -> None:
    game = fight(fighter("c", Side.ENEMY, (4, 0), healing=8, bennies=1),
                 wild_b(*DOWN, wounds=4), fighter("a", Side.PARTY, (0, 0)))
    game.apply(STABILISE, GivenDice([6]))  # 6 - 3 = 3: still bleeding
    game.apply(Command("reroll", "c"), GivenDice([7]))  # 7 - 3 = 4
    b = game.state.token("b")
    assert not b.has_condition("Bleeding Out") and b.has_condition("Incapacitated")
    assert texts(game)[-1] == "B stops bleeding (stable, still Incapacitated)."


def test_a_reroll_turns_a_wild_card_d6_miss_into_a_hit_as_often_as_the_odds_say() -> None:
    """Shooting d6 with the Wild Die at 4: a roll succeeds 3/4 of the time, so a Benny on a
    miss hits 3/4 of the time (600 seeded rerolls of the same miss)."""
    game = a_misses()
    system, missed = game.system, game.state
    dice = SeededDice(11)
    hits = 0
    for _ in range(600):
        _, events = system.apply(missed, REROLL_A, dice)
        hits += any(e.text.startswith("A hits") for e in events)
    assert abs(hits / 600 - 0.75) < 0.06
