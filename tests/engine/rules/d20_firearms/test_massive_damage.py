"""d20 massive damage (d20 Modern's core rule; our texts are silent): one hit of at least the
target's Constitution score calls for a Fortitude save, DC 15, or the target drops to -1 hit
points, dying. A blank Constitution score counts as 10 + 2 x the Con modifier; a hit that
already leaves the target at -1 or below rolls no save."""

from __future__ import annotations

from engine.dice import GivenDice
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.d20_firearms import board
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import RIFLE, fight, soldier

SYSTEM = get_system("d20-firearms")
#: The attack's d20 face: a hit on Defense 12 that is no threat.
HIT = 15
SHOT = Command.build("attack", "a", targets=["b"], weapon="Assault rifle")


def duel(**target: int) -> Encounter:
    return fight(soldier("a", Side.PARTY, (1, 1), RIFLE),
                 soldier("b", Side.ENEMY, (4, 1), fortitude=2, **target))


def hp(game: Encounter) -> int:
    return SYSTEM.stat_block.number(game.state.token("b"), "hp")


def test_a_hit_of_the_con_score_and_a_failed_save_drop_the_target_to_minus_1_dying() -> None:
    game = duel(hp=20, con_score=12)
    dice = GivenDice([HIT, 12, 12])  # 12 damage; Fortitude 12 + 2 = 14 against DC 15
    events = game.apply(SHOT, dice)
    assert dice.rolls == 3
    assert hp(game) == -1
    assert game.state.token("b").has_condition(board.DYING)
    texts = [e.text for e in events]
    assert "B takes massive damage (12, Con 12) and fails the Fortitude save (14 against " \
           "DC 15): down to -1 hit points." in texts
    save = next(e for e in events if "massive damage" in e.text)
    assert save.roll is not None and save.roll.expression == "1d20+2"


def test_a_made_save_keeps_the_hit_points_the_hit_left() -> None:
    game = duel(hp=20, con_score=12)
    events = game.apply(SHOT, GivenDice([HIT, 12, 13]))  # Fortitude 13 + 2 = 15: saved
    assert hp(game) == 8
    assert not game.state.token("b").has_condition(board.DYING)
    assert "B takes massive damage (12, Con 12) and saves: Fortitude 15 against DC 15." in [
        e.text for e in events]


def test_a_hit_below_the_con_score_rolls_no_save() -> None:
    game = duel(hp=20, con_score=12)
    dice = GivenDice([HIT, 11])  # a third roll would raise: none is given
    game.apply(SHOT, dice)
    assert dice.rolls == 2 and hp(game) == 9


def test_a_blank_con_score_counts_as_10_plus_twice_the_con_modifier() -> None:
    game = duel(hp=30, con_mod=1)  # threshold 12
    dice = GivenDice([HIT, 11])
    game.apply(SHOT, dice)
    assert dice.rolls == 2 and hp(game) == 19
    game = duel(hp=30, con_mod=1)
    events = game.apply(SHOT, GivenDice([HIT, 12, 1]))
    assert hp(game) == -1
    assert any("massive damage (12, Con 12)" in e.text for e in events)


def test_a_hit_that_already_leaves_the_target_below_minus_1_rolls_no_save() -> None:
    game = duel(hp=5, con_score=10)
    dice = GivenDice([HIT, 12])
    game.apply(SHOT, dice)
    assert dice.rolls == 2 and hp(game) == -7


def test_the_gms_typed_damage_rolls_no_save() -> None:
    game = duel(hp=20, con_score=10)
    game.apply(Command.build("gm_damage", targets=["b"], amount=15), GivenDice([]))
    assert hp(game) == 5


def test_one_undo_takes_back_the_hit_and_the_failed_save() -> None:
    game = duel(hp=20, con_score=12)
    game.apply(SHOT, GivenDice([HIT, 12, 1]))
    game.undo()
    assert hp(game) == 20 and not game.state.token("b").has_condition(board.DYING)
