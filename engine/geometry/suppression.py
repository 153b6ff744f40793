"""Suppressive Fire areas, each system its own, and which squares are suppressed by whom.

* Spycraft: one empty square within the weapon's maximum range and the shooter's sight,
  5 warning shots. For a round, each opponent who moves through it draws a final attack
  (-4, no Aim bonus, one more shot each) and takes -4 on attack and skill checks until the
  shooter's next Initiative Count.
* d20 firearms rules: a 10 ft by 10 ft area (2 x 2 squares), attacked against Defense 10
  (-4 without Advanced Firearms Proficiency); needs and spends 10 rounds. On a hit, everyone
  inside takes -4 to Perception and attacks and saves (Reflex DC 15) or takes damage.
* Savage Worlds: a Medium Blast Template, 3 x the bullets of its Rate of Fire, one Shooting roll to
  the centre. Success Distracts a target beneath it, a raise hits; at most Rate of Fire
  targets are hit. Each target's own cover counts (from the shooter).

``suppressed_squares`` answers, for route finding, which squares are suppressed and by whom.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from engine.encounter import EncounterState
from engine.geometry.areas import range_bands
from engine.geometry.cover import cover_between
from engine.geometry.los import squares_see_each_other
from engine.geometry.results import AffectedToken, Modifier, squares_shape
from engine.geometry.templates import Inclusion, blast_template
from engine.grid import Point, Square, distance_squares
from engine.tokens import Token, are_opponents

SPYCRAFT_WARNING_SHOTS = 5
SPYCRAFT_PENALTY = -4
D20_ROUNDS = 10
D20_AREA_SIDE = 2  # squares: 10 ft
D20_DEFENSE = 10
D20_NO_FEAT_PENALTY = -4
D20_REFLEX_DC = 15
D20_PENALTY = -4
#: Savage Worlds: bullets a weapon normally spends per attack at each Rate of Fire (the core
#: rule book's table; our text only says "three times the usual"), and that multiplier.
SAVAGE_BULLETS_PER_ROF: Mapping[int, int] = {1: 1, 2: 5, 3: 10, 4: 20, 5: 40, 6: 50}
SAVAGE_SUPPRESSIVE_MULTIPLIER = 3


def savage_suppressive_bullets(rate_of_fire: int) -> int:
    """Bullets Savage Worlds Suppressive Fire spends at a Rate of Fire (the table's top row
    serves any higher rate)."""
    rate = min(max(1, rate_of_fire), max(SAVAGE_BULLETS_PER_ROF))
    return SAVAGE_BULLETS_PER_ROF[rate] * SAVAGE_SUPPRESSIVE_MULTIPLIER


@dataclass(frozen=True)
class SuppressionArea:
    """One Suppressive Fire: where, by whom, what it costs and what it does.

    ``tokens`` are those inside now, with their modifiers; ``movers`` are the modifiers
    for an opponent who enters or crosses the area while it lasts. ``attack`` holds what
    the shooter's roll needs (a target Defense, a penalty). ``reasons`` say why it is not
    allowed, when ``allowed`` is False.
    """

    system: str
    shooter_id: str
    weapon: str
    shape: shapely.Geometry
    squares: frozenset[Square]
    shots: int
    tokens: tuple[AffectedToken, ...]
    movers: tuple[Modifier, ...]
    attack: tuple[Modifier, ...]
    reasons: tuple[str, ...]
    max_casualties: int | None = None

    @property
    def allowed(self) -> bool:
        return not self.reasons


def _sight_reasons(encounter: EncounterState, shooter: Token, squares: list[Square]) -> list[str]:
    sees = np.zeros(len(squares), dtype=bool)
    for own in shooter.squares:
        sees |= squares_see_each_other(encounter.battlemap, [own] * len(squares), squares)
    if sees.any():
        return []
    return ["the shooter cannot see the area"]


def spycraft_suppressive_fire(
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
    if weapon.ammo < SPYCRAFT_WARNING_SHOTS:
        reasons.append(
            f"the {weapon.name} has {weapon.ammo} shots left; Suppressive Fire "
            f"needs {SPYCRAFT_WARNING_SHOTS}"
        )
    maximum = range_bands(encounter, shooter_id, weapon_name).maximum
    distance = min(distance_squares(s, square, encounter.scale.diagonal) for s in shooter.squares)
    if distance > maximum:
        reasons.append(
            f"square {square} is {encounter.scale.describe(distance)} away, beyond "
            f"the {weapon.name}'s maximum range of {encounter.scale.describe(maximum)}"
        )
    reasons += _sight_reasons(encounter, shooter, [square])
    movers = (
        Modifier(
            "Suppressive Fire",
            SPYCRAFT_PENALTY,
            "to the shooter's final attack against an opponent moving through (no Aim)",
        ),
        Modifier(
            "Suppressive Fire",
            SPYCRAFT_PENALTY,
            "to the mover's attack and skill checks until the shooter's next Initiative Count",
        ),
    )
    return SuppressionArea(
        "spycraft",
        shooter.id,
        weapon.name,
        squares_shape([square]),
        frozenset([square]),
        SPYCRAFT_WARNING_SHOTS,
        (),
        movers,
        (),
        tuple(reasons),
    )


def d20_suppressive_fire(
    encounter: EncounterState,
    shooter_id: str,
    top_left: Square,
    weapon_name: str,
    *,
    advanced_firearms_proficiency: bool = False,
) -> SuppressionArea:
    """d20 Suppressive Fire on the 10 ft by 10 ft area whose top-left square is given."""
    shooter = encounter.token(shooter_id)
    weapon = shooter.weapon(weapon_name)
    top_left = Square(*top_left)
    squares = [
        top_left.offset(dx, dy) for dy in range(D20_AREA_SIDE) for dx in range(D20_AREA_SIDE)
    ]
    off = [s for s in squares if not encounter.battlemap.in_bounds(s)]
    if off:
        raise ValueError(f"the suppressed area reaches off the map at {off[0]}")
    reasons: list[str] = []
    if weapon.ammo < D20_ROUNDS:
        reasons.append(
            f"the {weapon.name} has {weapon.ammo} rounds; Suppressive Fire needs {D20_ROUNDS}"
        )
    modes = " ".join(weapon.modes).lower()
    if weapon.melee or (weapon.modes and not any(w in modes for w in ("semi", "auto", "burst"))):
        reasons.append(
            f"Suppressive Fire needs at least a semi-automatic weapon; the {weapon.name} is not"
        )
    reasons += _sight_reasons(encounter, shooter, squares)
    attack = [Modifier("Suppressive Fire", D20_DEFENSE, "Defense of the area")]
    if not advanced_firearms_proficiency:
        attack.append(
            Modifier("No Advanced Firearms Proficiency", D20_NO_FEAT_PENALTY, "to the attack roll")
        )
    effects = (
        Modifier("Suppressive Fire", D20_PENALTY, "to Perception checks"),
        Modifier("Suppressive Fire", D20_PENALTY, "to attack rolls"),
        Modifier("Suppressive Fire", D20_REFLEX_DC, "Reflex save DC or take the weapon's damage"),
    )
    inside = frozenset(squares)
    tokens = tuple(
        AffectedToken(t.id, under, effects)
        for t in encounter.others(shooter.id)
        if (under := tuple(s for s in t.squares if s in inside))
    )
    return SuppressionArea(
        "d20-firearms",
        shooter.id,
        weapon.name,
        squares_shape(squares),
        inside,
        D20_ROUNDS,
        tokens,
        effects,
        tuple(attack),
        tuple(reasons),
    )


def savage_suppressive_fire(
    encounter: EncounterState, shooter_id: str, centre: Point, weapon_name: str
) -> SuppressionArea:
    """Savage Worlds Suppressive Fire: a Medium Blast Template centred on ``centre``."""
    shooter = encounter.token(shooter_id)
    weapon = shooter.weapon(weapon_name)
    bullets = savage_suppressive_bullets(weapon.rate_of_fire)
    reasons: list[str] = []
    if weapon.uses_ammunition and weapon.ammo < bullets:
        reasons.append(
            f"the {weapon.name} has {weapon.ammo} bullets; Suppressive Fire at Rate "
            f"of Fire {weapon.rate_of_fire} needs {bullets}"
        )
    template = blast_template(encounter, centre, "medium", inclusion=Inclusion.PARTIAL)
    if template.squares:
        reasons += _sight_reasons(encounter, shooter, sorted(template.squares))
    tokens = []
    for affected in template.tokens:
        if affected.token_id == shooter.id:
            continue
        target = encounter.token(affected.token_id)
        cover = cover_between(encounter.battlemap, shooter, target, "savage-worlds")
        modifiers = [
            Modifier("Suppressive Fire", 0, "success: Distracted; raise: hit (no bonus damage)")
        ]
        if cover.modifier is not None and cover.modifier.value:
            modifiers.append(cover.modifier)
        tokens.append(AffectedToken(affected.token_id, affected.squares, tuple(modifiers)))
    return SuppressionArea(
        "savage-worlds",
        shooter.id,
        weapon.name,
        template.shape,
        template.squares,
        bullets,
        tuple(tokens),
        (),
        (),
        tuple(reasons),
        max_casualties=weapon.rate_of_fire,
    )


def suppressed_squares(areas: Iterable[SuppressionArea]) -> Mapping[Square, tuple[str, ...]]:
    """Every suppressed square and the ids of the shooters suppressing it (allowed areas only)."""
    found: dict[Square, list[str]] = {}
    for area in areas:
        if not area.allowed:
            continue
        for square in area.squares:
            shooters = found.setdefault(square, [])
            if area.shooter_id not in shooters:
                shooters.append(area.shooter_id)
    return {square: tuple(ids) for square, ids in found.items()}


def suppression_against(
    encounter: EncounterState, areas: Iterable[SuppressionArea], mover_id: str, square: Square
) -> tuple[SuppressionArea, ...]:
    """The areas that would punish ``mover_id`` for moving through ``square`` (opponents only)."""
    mover = encounter.token(mover_id)
    hits = []
    for area in areas:
        if not area.allowed or square not in area.squares:
            continue
        try:
            shooter = encounter.token(area.shooter_id)
        except KeyError:
            continue  # the shooter has left the fight
        if are_opponents(shooter.side, mover.side):
            hits.append(area)
    return tuple(hits)
