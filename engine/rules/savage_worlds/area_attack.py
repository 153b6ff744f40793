"""Savage Worlds Area Effect Attacks: grenades, launchers and flamethrowers.

Our rule text names area effect attacks (Suppressive Fire "turns a firearm into" one) but
does not print their section, so the numbers here are the edition's usual ones, each a
named constant a table may change:

* the weapon says its template in a trait ("Small Blast", "Medium Blast", "Large Blast",
  "Cone"); a "thrown" trait rolls Athletics, anything else Shooting;
* a blast is aimed at a square the attacker can see (line of sight from any of its
  squares to the aim square, ``engine.geometry.los``: one cannot lob a grenade at a
  place one cannot see, our reading; light and fog are the GM's call). A cone's square
  only points it, so a cone needs no sight of it (walls cut the cone itself);
* a blast is aimed at a square: one roll against 4 with the attacker's own modifiers and
  the range to that square (no defence of any one target counts: the roll is against a
  place). On a miss the blast deviates: 1d6" thrown, 2d6" launched, times 2 at Medium,
  3 at Long, 4 at Extreme range, never more than half the way to the aim point, in a d8
  direction of the system's Deviation Diagram (a square grid has eight neighbours; the
  book's d12 clock has no squares to land on), stopped by walls, closed doors and cover
  that blocks sight, flying over low cover such as a car (our reading);
* a cone starts at the attacker and points at the square; a miss means nothing comes of it;
* everyone under the template is hit, the attacker and friends too, each rolling damage on
  their own; a raise adds the usual bonus die to each;
* cover between the blast's centre and a target counts as Armor equal to the cover penalty
  (Light +2 ... Near Total +8); total cover from the centre keeps the target out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from engine.routes.deviation import DeviationRule
from engine.tokens import Weapon


class AreaError(ValueError):
    pass


class AreaTemplate(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    CONE = "cone"

    @property
    def is_blast(self) -> bool:
        return self is not AreaTemplate.CONE

    @property
    def label(self) -> str:
        return "Cone Template" if self is AreaTemplate.CONE else f"{self.title()} Blast Template"


#: Weapon trait (lower case) -> its template.
TEMPLATE_TRAITS: Mapping[str, AreaTemplate] = MappingProxyType({
    "small blast": AreaTemplate.SMALL,
    "medium blast": AreaTemplate.MEDIUM,
    "large blast": AreaTemplate.LARGE,
    "cone": AreaTemplate.CONE,
    "cone template": AreaTemplate.CONE,
})
#: The weapon trait of a thrown weapon (Athletics, 1d6" deviation, no Extreme range).
THROWN = "thrown"
#: How far a missed blast deviates, in inches, and which way (the d8 diagram of engine.routes).
THROWN_DEVIATION = DeviationRule(flight="1d6")
LAUNCHED_DEVIATION = DeviationRule(flight="2d6")
#: The deviation is multiplied by the range band of the throw or shot.
DEVIATION_MULTIPLIER: Mapping[str, int] = MappingProxyType(
    {"Short": 1, "Medium": 2, "Long": 3, "Extreme": 4}
)
#: A missed blast lands at most this share of the way from the attacker to its aim point.
DEVIATION_CAP = 0.5


def template_of(weapon: Weapon) -> AreaTemplate | None:
    """The weapon's area template from its traits, or None: not an area weapon."""
    for trait in weapon.traits:
        found = TEMPLATE_TRAITS.get(trait.strip().lower())
        if found is not None:
            return found
    return None


def is_thrown(weapon: Weapon) -> bool:
    return any(t.strip().lower() == THROWN for t in weapon.traits)


def skill_of(weapon: Weapon) -> str:
    return "athletics" if is_thrown(weapon) else "shooting"


def deviation_rule(weapon: Weapon) -> DeviationRule:
    return THROWN_DEVIATION if is_thrown(weapon) else LAUNCHED_DEVIATION


def refusal(weapon: Weapon, band: str | None) -> str | None:
    """Why this weapon cannot make an area attack at this range band (None: it can)."""
    template = template_of(weapon)
    if template is None:
        return f"{weapon.name} has no area template (a Blast or Cone trait)"
    if weapon.uses_ammunition and weapon.ammo < 1:
        return f"{weapon.name}: none left"
    if template.is_blast:
        if band is None:
            return f"the aim point is out of {weapon.name}'s range"
        if band == "Extreme" and is_thrown(weapon):
            return f"{weapon.name} cannot be thrown to Extreme range"
    return None


@dataclass(frozen=True, slots=True)
class DeviationDistance:
    """How far a missed blast goes: the dice, the band's multiplier, the cap, in squares."""

    rolled: int
    multiplier: int
    squares: int
    capped: bool


def deviation_distance(rolled_inches: int, band: str, aim_squares: float,
                       squares_per_inch: float) -> DeviationDistance:
    """The rolled inches times the band's multiplier, in whole squares, at most half the
    distance (in squares) from the attacker to the aim point."""
    try:
        multiplier = DEVIATION_MULTIPLIER[band]
    except KeyError:
        raise AreaError(f"no deviation multiplier for range band {band!r}") from None
    wanted = math.floor(rolled_inches * multiplier * squares_per_inch)
    cap = math.floor(aim_squares * DEVIATION_CAP)
    return DeviationDistance(rolled_inches, multiplier, min(wanted, cap), wanted > cap)


def cover_armor(cover_penalty: int) -> int:
    """Cover from the blast's centre protects as Armor equal to its penalty."""
    return abs(cover_penalty)
