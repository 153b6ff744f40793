"""Savage Worlds Trait rolls: aces, the Wild Die, raises and opposed rolls."""

from __future__ import annotations

import pytest

from engine.dice import GivenDice
from engine.rules.savage_worlds.traits import opposed, outcome, trait_roll


def test_trait_die_aces_and_wild_die_keeps_the_best() -> None:
    # Typed dice: an acing die is one number, its faces added up (d6: 6+6+2 = 14).
    result = trait_roll(6, GivenDice([14, 3]))
    assert result.total == 14
    assert result.wild_die == 3


def test_a_seeded_die_aces_in_one_roll_with_its_faces_added() -> None:
    from engine.dice import SeededDice

    dice = SeededDice(seed=0)
    result = trait_roll(4, dice, wild_card=False)  # seed 0 rolls 4, then 3 on the d4
    assert result.total == 7 and dice.rolls == 1


def test_wild_die_can_win() -> None:
    assert trait_roll(4, GivenDice([2, 5]), modifier=-1).total == 4


def test_extras_roll_no_wild_die() -> None:
    result = trait_roll(8, GivenDice([3]), wild_card=False)
    assert result.total == 3 and result.wild_die is None


def test_double_one_is_a_critical_failure() -> None:
    assert trait_roll(8, GivenDice([1, 1])).critical_failure
    assert not trait_roll(8, GivenDice([1, 2])).critical_failure


def test_raises_every_four_over_the_target() -> None:
    assert outcome(3) == outcome(3) and not outcome(3).success
    assert outcome(7).raises == 0
    assert outcome(8).raises == 1
    assert outcome(12).raises == 2


def test_opposed_rolls_need_four_and_to_meet_the_defender() -> None:
    assert not opposed(3, 1).success
    assert opposed(6, 6).success
    assert not opposed(6, 7).success
    assert opposed(10, 6).raises == 1


def test_odd_trait_dice_are_refused() -> None:
    with pytest.raises(ValueError, match=r"d4\.\.d12"):
        trait_roll(7, GivenDice([1, 1]))
