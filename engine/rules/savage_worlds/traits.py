"""Savage Worlds Trait rolls: acing dice, the Wild Die, raises and opposed rolls.

A Trait die that rolls its highest face "aces": roll it again and add. A Wild Card also
rolls a d6 Wild Die and keeps the better of the two. The target is 4; every full 4 points
above the target is a raise. In an opposed roll the defender's total is the target.

>>> from engine.dice import GivenDice
>>> trait_roll(8, GivenDice([8, 3, 2])).total   # d8 aces (8+3), Wild Die 2
11
>>> outcome(11).raises
1
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice

#: The target number of an unopposed Trait roll.
TARGET_NUMBER = 4
#: Points above the target per raise.
RAISE_STEP = 4
#: The Wild Die a Wild Card rolls beside every Trait die.
WILD_DIE = 6
TRAIT_DICE = (4, 6, 8, 10, 12)


@dataclass(frozen=True, slots=True)
class TraitResult:
    total: int
    trait_die: int
    wild_die: int | None
    modifier: int
    critical_failure: bool

    def __str__(self) -> str:
        wild = f", Wild Die {self.wild_die}" if self.wild_die is not None else ""
        mod = f" {self.modifier:+d}" if self.modifier else ""
        crit = " (critical failure)" if self.critical_failure else ""
        return f"{self.total} (Trait die {self.trait_die}{wild}{mod}){crit}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Whether a total made its target, and with how many raises."""

    success: bool
    raises: int


def acing_die(sides: int, dice: Dice, purpose: str) -> int:
    """Roll one die, rolling again and adding while it shows its highest face."""
    if sides < 2:
        raise ValueError(f"a Savage Worlds die needs at least 2 sides, not {sides}")
    # One roll for the die and its aces, so a GM rolling physical dice types one number
    # (the faces added up) and the rolls after it keep their places.
    return dice.roll(f"1d{sides}e{sides}", purpose).total


def require_trait_die(die: int) -> None:
    if die not in TRAIT_DICE:
        raise ValueError(f"a Trait die is one of d4..d12, not d{die}")


def trait_roll(
    die: int, dice: Dice, *, modifier: int = 0, wild_card: bool = True, purpose: str = "Trait"
) -> TraitResult:
    """A Trait roll: the Trait die (and the Wild Die for a Wild Card), best one, plus modifier."""
    require_trait_die(die)
    trait = acing_die(die, dice, purpose)
    wild = acing_die(WILD_DIE, dice, f"{purpose} (Wild Die)") if wild_card else None
    best = max(trait, wild) if wild is not None else trait
    critical = wild_card and trait == 1 and wild == 1
    return TraitResult(best + modifier, trait, wild, modifier, critical)


def outcome(total: int, target: int = TARGET_NUMBER) -> Outcome:
    """Success and raises of a total against a target (4 unless opposed)."""
    if total < target:
        return Outcome(False, 0)
    return Outcome(True, (total - target) // RAISE_STEP)


def opposed(attacker_total: int, defender_total: int) -> Outcome:
    """An opposed roll: the attacker needs at least 4 and to meet the defender's total.

    Ties go to the acting character (the common Savage Worlds reading); raises count from
    the defender's total.
    """
    if attacker_total < TARGET_NUMBER:
        return Outcome(False, 0)
    return outcome(attacker_total, max(defender_total, TARGET_NUMBER))
