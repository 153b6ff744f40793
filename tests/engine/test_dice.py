"""engine.dice: seeded, isolated, typed-in rolls."""

import random
import re

import pytest

from engine.dice import (
    DiceError,
    GivenDice,
    SeededDice,
    bounds_of,
    check_expression,
    dice_words,
    modifier_of,
    roll_expression,
)


def test_same_seed_and_counter_give_the_same_rolls() -> None:
    first = [SeededDice(42).roll("3d6+2", "x").total for _ in range(1)]
    dice = SeededDice(42)
    rolls = [dice.roll("1d20", "x").total for _ in range(20)]
    again = SeededDice(42)
    assert [again.roll("1d20", "x").total for _ in range(20)] == rolls
    assert first[0] == SeededDice(42).roll("3d6+2", "x").total


def test_a_roll_depends_on_its_position_not_on_what_came_before() -> None:
    dice = SeededDice(5)
    dice.roll("1d100", "a")
    tenth = [dice.roll("1d20", "b").total for _ in range(3)][-1]
    assert SeededDice(5, start=3).roll("1d20", "c").total == tenth


def test_rolling_leaves_the_global_random_stream_alone() -> None:
    random.seed(99)
    expected = random.random()
    random.seed(99)
    SeededDice(1).roll("10d6", "x")
    assert random.random() == expected


def test_different_seeds_differ_somewhere() -> None:
    a = [SeededDice(1, i).roll("1d20", "x").total for i in range(20)]
    b = [SeededDice(2, i).roll("1d20", "x").total for i in range(20)]
    assert a != b


def test_natural_die_face_is_reported() -> None:
    roll = SeededDice(3).roll("1d20+5", "x")
    assert roll.natural is not None and roll.total == roll.natural + 5


def test_given_dice_use_typed_totals_then_fall_back() -> None:
    dice = GivenDice([17, 4], fallback=SeededDice(0))
    first = dice.roll("1d20+5", "a")
    assert (first.total, first.natural) == (22, 17)
    assert dice.roll("1d20", "b").given
    assert not dice.roll("1d20", "c").given


def test_given_dice_without_fallback_name_the_missing_roll() -> None:
    with pytest.raises(DiceError, match="damage"):
        GivenDice([]).roll("2d6", "damage")


def test_bad_expression_is_a_dice_error() -> None:
    with pytest.raises(DiceError, match="1d"):
        check_expression("1d")


def test_an_exploding_die_counts_as_one_die_asked_for() -> None:
    # Whatever the die explodes into, the smallest typed face is one per die asked for.
    assert modifier_of("1d4e4") == (0, 1)
    assert modifier_of("2d6e6+1") == (1, 2)


def test_dice_words_say_acing_for_an_exploding_die() -> None:
    assert dice_words("1d6e6+1") == "1d6 acing+1"
    assert dice_words("2d8") == "2d8"


def test_bounds_of_a_sum_of_dice_and_constants() -> None:
    assert bounds_of("1d4+1") == (2, 5)
    assert bounds_of("2d6-1") == (1, 11)
    assert bounds_of("3") == (3, 3)


def test_a_rolls_working_reads_as_faces_and_total_without_markdown() -> None:
    # d20's own text marked a 1 or a 20 as **1** and the total as `7`, which the log showed.
    texts = [str(roll_expression("1d20+6", random.Random(seed))) for seed in range(60)]
    assert all(re.fullmatch(r"1d20 \((\d+)\) \+ 6 = (\d+)", text) for text in texts), texts
    for text in texts:
        face, total = map(int, re.findall(r"\d+", text)[2::2])
        assert total == face + 6
    aced = next(
        text
        for seed in range(500)
        if "," in (text := str(roll_expression("1d6e6", random.Random(seed))))
    )
    assert re.fullmatch(r"1d6 acing \(6(, 6)*, [1-5]\) = \d+", aced), aced
    kept = str(roll_expression("4d6kh3", random.Random(1)))
    assert kept.count("dropped") == 1 and "~" not in kept, kept


def test_a_draw_takes_no_typed_face_but_comes_from_the_fallback() -> None:
    from engine.dice import draw

    given = GivenDice([5], SeededDice(3))
    drawn = draw(given, "1d20", "shuffling")
    assert drawn.total == SeededDice(3).roll("1d20", "x").total and not drawn.given
    assert given.roll("1d20+1", "attack").total == 6  # the typed face waited for a roll
    assert draw(SeededDice(3), "1d20", "x").total == drawn.total  # plain dice roll a draw
    assert draw(GivenDice([4]), "1d20", "x").total == 4  # nothing else to draw from
