"""The Incapacitation and Bleeding Out rolls go through the encounter's dice, so the Roll /
Type dice dialog lists them as rows and says what the typed faces do (a Savage Worlds Wild
Card shot down, then his start-of-turn roll)."""

from __future__ import annotations

from desktop.dialogs.dice import dry_run
from engine.rules.base import Command
from engine.tokens import Side
from tests.engine.rules.savage_worlds.builders import fight, fighter
from tests.engine.rules.savage_worlds.test_bleeding_out import DOWN, SHOOT_B, wild_b


def test_the_dice_dialog_lists_the_incapacitation_roll_and_its_fate() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(), fighter("c", Side.ENEMY, (4, 0)))
    # A hit for 10 (his fourth Wound); Vigor 2, Wild Die 3; the Injury Table 7 (Guts), 3.
    typed = [5, 5, 5, 2, 3, 7, 3]
    run = dry_run(game.system, game.state, SHOOT_B, typed=typed)
    labels = [row.label for row in run.rolls]
    assert labels[3:] == ["B Vigor against Incapacitation (1d6 acing)",
                          "B Vigor against Incapacitation (Wild Die) (1d6 acing)",
                          "B Injury Table (2d6)", "B Injury Table (subtable) (1d6)"]
    assert any("against Incapacitation: fails: Bleeding Out" in line for line in run.outcome)
    assert any("Injury Table: Guts, Battered" in line for line in run.outcome)


def test_the_start_of_turn_bleeding_roll_is_a_roll_of_the_encounters_dice() -> None:
    game = fight(fighter("a", Side.PARTY, (0, 0)), wild_b(*DOWN, wounds=4),
                 fighter("c", Side.ENEMY, (4, 0)))
    run = dry_run(game.system, game.state, Command("end_turn"), typed=[2, 3])
    assert [row.label for row in run.rolls][:2] == [
        "B Vigor while Bleeding Out (1d6 acing)", "B Vigor while Bleeding Out (Wild Die) "
        "(1d6 acing)"]
    assert any("while Bleeding Out: fails and dies" in line for line in run.outcome)
