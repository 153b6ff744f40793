"""The Injury Table: what a Wild Card taken out by a hit keeps of it.

Our rule text (002) holds only the Special Actions, so this is the edition's core rule as
published, in our own words, with these choices (the numbers are named below):

* **When.** A Wild Card a hit takes out rolls on the table right after its Vigor roll
  against Incapacitation, through the encounter's dice, unless that roll killed it: 2d6
  for the place, then 1d6 on the Guts and Head subtables. An Extra rolls none (what
  became of him is the GM's after the fight), nor does the GM's damage (no dice).
* **The places and what they do in a fight**, as conditions on the token:
  2 Unmentionables (no effect in a fight); 3-4 Arm (the GM says which; that arm is
  useless); 5-9 Guts: 1-2 Broken (Agility a die lower), 3-4 Battered (Vigor a die lower),
  5-6 Busted (Strength a die lower); 10 Leg (Slow: Pace 1" less); 11-12 Head: 1-2
  Hideous Scar (Ugly: -2 to Persuasion), 3-4 Blinded (an eye lost: -2 to Shooting, which
  needs depth), 5-6 Brain Damage (Smarts a die lower). A lowered die stops at d4.
* **How long.** A failed Incapacitation roll makes the injury permanent; a success, until
  every Wound is healed (the GM's healing to no Wounds takes it off); a raise, 24 hours or
  every Wound healed (the same here: a fight is shorter than a day). The log says which;
  the GM takes any off by hand.
* **A Soak** that takes back the hit takes back its injury too (the Soak comes first in
  the book); the engine has no hands, so an Arm injury does not stop a two-handed weapon:
  its summary tells the GM.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.dice import Dice
from engine.tokens import Token

#: The smallest Trait die an injury lowers a Trait to.
LOWEST_DIE = 4
#: One die type, in die sides.
DIE_STEP = 2
#: Pace lost to a Leg injury (Slow), in inches.
LEG_PACE = 1
#: The penalty of a Hideous Scar (Ugly) to Persuasion and of a lost eye to Shooting.
SCAR_PENALTY = -2
EYE_PENALTY = -2
#: The source an injury condition names (its ``value`` is 1 when permanent).
SOURCE = "Injury Table"
#: The table's dice: 2d6 for the place, 1d6 on a subtable.
PLACE_DICE = "2d6"
SUBTABLE_DIE = "1d6"


class Injury(StrEnum):
    UNMENTIONABLES = "Injury: Unmentionables"
    ARM = "Injury: Arm"
    BROKEN = "Injury: Guts (Broken)"
    BATTERED = "Injury: Guts (Battered)"
    BUSTED = "Injury: Guts (Busted)"
    LEG = "Injury: Leg"
    SCAR = "Injury: Head (Hideous Scar)"
    BLINDED = "Injury: Head (Blinded)"
    BRAIN = "Injury: Head (Brain Damage)"


@dataclass(frozen=True, slots=True)
class InjuryRule:
    """What an injury does in a fight, as data. Summaries are our own words."""

    name: Injury
    #: The place as the table names it ("Guts, Battered").
    place: str
    #: What it does, in a few words ("Vigor one die type lower").
    effect: str
    #: The Trait whose die is one type lower.
    lowered: str = ""
    #: A penalty to every roll of one Trait: (trait, modifier).
    penalty: tuple[str, int] = ("", 0)
    #: Pace lost, in inches.
    pace: int = 0

    @property
    def summary(self) -> str:
        return f"{self.place} (Injury Table): {self.effect}."


RULES: dict[Injury, InjuryRule] = {rule.name: rule for rule in (
    InjuryRule(Injury.UNMENTIONABLES, "Unmentionables",
               "painful and embarrassing; no effect in a fight"),
    InjuryRule(Injury.ARM, "Arm", "one arm, the GM says which, is useless: nothing held in "
               "it, no two-handed weapon (the GM holds the table to it)"),
    InjuryRule(Injury.BROKEN, "Guts, Broken", "Agility one die type lower", lowered="agility"),
    InjuryRule(Injury.BATTERED, "Guts, Battered", "Vigor one die type lower", lowered="vigor"),
    InjuryRule(Injury.BUSTED, "Guts, Busted", "Strength one die type lower",
               lowered="strength"),
    InjuryRule(Injury.LEG, "Leg", f"Slow, Pace {LEG_PACE}\" less", pace=LEG_PACE),
    InjuryRule(Injury.SCAR, "Head, Hideous Scar", f"Ugly, {SCAR_PENALTY} to Persuasion",
               penalty=("persuasion", SCAR_PENALTY)),
    InjuryRule(Injury.BLINDED, "Head, Blinded", f"an eye lost, {EYE_PENALTY} to Shooting "
               "(it needs depth)", penalty=("shooting", EYE_PENALTY)),
    InjuryRule(Injury.BRAIN, "Head, Brain Damage", "Smarts one die type lower",
               lowered="smarts"),
)}

_GUTS = (Injury.BROKEN, Injury.BROKEN, Injury.BATTERED, Injury.BATTERED, Injury.BUSTED,
         Injury.BUSTED)
_HEAD = (Injury.SCAR, Injury.SCAR, Injury.BLINDED, Injury.BLINDED, Injury.BRAIN, Injury.BRAIN)


def place(total: int) -> Injury | tuple[Injury, ...]:
    """The 2d6 place: an injury, or the subtable (by 1d6) it sends to."""
    if total <= 2:
        return Injury.UNMENTIONABLES
    if total <= 4:
        return Injury.ARM
    if total <= 9:
        return _GUTS
    return Injury.LEG if total == 10 else _HEAD


def roll(dice: Dice, name: str) -> Injury:
    """A roll on the table (and its subtable) through the encounter's dice."""
    found = place(dice.roll(PLACE_DICE, f"{name} Injury Table").total)
    if isinstance(found, Injury):
        return found
    face = dice.roll(SUBTABLE_DIE, f"{name} Injury Table (subtable)").total
    return found[min(max(face, 1), len(found)) - 1]  # a typed face past the die reads as its end


def held(token: Token) -> list[InjuryRule]:
    found = []
    for condition in token.conditions:
        try:
            found.append(RULES[Injury(condition.name)])
        except ValueError:
            continue
    return found


def lowered_die(token: Token, trait: str, die: int) -> int:
    """``die`` one type lower for each injury lowering ``trait``, not below d4."""
    steps = sum(1 for rule in held(token) if rule.lowered == trait)
    return max(LOWEST_DIE, die - DIE_STEP * steps) if steps else die


def trait_penalty(token: Token, trait: str) -> int:
    return sum(rule.penalty[1] for rule in held(token) if rule.penalty[0] == trait)


def pace_lost(token: Token) -> int:
    return sum(rule.pace for rule in held(token))
