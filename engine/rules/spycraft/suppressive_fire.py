"""Spycraft Suppressive Fire: the area (one empty square in range and sight) and its numbers.

5 warning shots at one empty square within the weapon's maximum range and the shooter's
sight. For a round, each opponent who moves through it draws a final attack (-4, no Aim
bonus, one more shot each) and takes -4 on attack and skill checks until the shooter's next
Initiative Count.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.geometry.areas import range_bands
from engine.geometry.results import Modifier, squares_shape
from engine.geometry.suppression import SuppressionArea, sight_reasons
from engine.grid import Square, distance_squares
from engine.overlay import Modifier as OverlayModifier
from engine.overlay import Overlay, OverlayToken, Role
from engine.rules.overlays import area_overlay
from engine.rules.spycraft.tables import RANGES
from engine.words import counted

WARNING_SHOTS = 5
PENALTY = -4


def suppressive_fire_area(
    encounter: EncounterState, shooter_id: str, square: Square, weapon_name: str
) -> SuppressionArea:
    """Spycraft Suppressive Fire on one empty square in range and in sight."""
    shooter = encounter.token(shooter_id)
    weapon = shooter.weapon(weapon_name)
    square = Square(*square)
    reasons: list[str] = []
    if not encounter.battlemap.in_bounds(square):
        raise ValueError(f"square {square} lies outside the map")
    occupant = encounter.token_at(square)
    if occupant is not None:
        reasons.append(
            f"square {square} is occupied by {occupant.name}; Suppressive Fire "
            "needs an empty square"
        )
    if weapon.ammo < WARNING_SHOTS:
        reasons.append(
            f"the {weapon.name} has {counted(weapon.ammo, 'shot')} left; Suppressive Fire "
            f"needs {WARNING_SHOTS}"
        )
    maximum = range_bands(encounter, shooter_id, weapon_name, RANGES).maximum
    distance = min(distance_squares(s, square, encounter.scale.diagonal) for s in shooter.squares)
    if distance > maximum:
        reasons.append(
            f"square {square} is {encounter.scale.describe(distance)} away, beyond "
            f"the {weapon.name}'s maximum range of {encounter.scale.describe(maximum)}"
        )
    reasons += sight_reasons(encounter, shooter, [square])
    movers = (
        Modifier(
            "Suppressive Fire",
            PENALTY,
            "to the shooter's final attack against an opponent moving through (no Aim)",
        ),
        Modifier(
            "Suppressive Fire",
            PENALTY,
            "to the mover's attack and skill checks until the shooter's next Initiative Count",
        ),
    )
    return SuppressionArea(
        shooter.id,
        weapon.name,
        squares_shape([square]),
        frozenset([square]),
        WARNING_SHOTS,
        (),
        movers,
        (),
        tuple(reasons),
    )


def suppression_overlay(area: SuppressionArea) -> Overlay:
    """The suppressed square; nobody stands in it (the rule needs it empty), so what a foe
    crossing it will face rides on the shooter, whose zone it is."""
    crossing = tuple(OverlayModifier(m.rule, m.value, m.applies_to) for m in area.movers)
    shooter = OverlayToken(area.shooter_id, Role.ACTOR, crossing, "for a foe crossing the square")
    return area_overlay(
        "Suppressive Fire", area.squares, outline=area.shape, reasons=area.reasons
    ).plus(Overlay(tokens=(shooter,)))
