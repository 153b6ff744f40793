"""Named areas from the rules: Spycraft Brace, d20 Aiming and Covering Fire, range bands.

Each returns the shape (square units), the squares it covers and the tokens it concerns with
their modifiers. Cones start at the centre of the acting token's space and leave its own
squares out. Summaries are in our own words; the rule names are the books'.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import shapely

from engine.encounter import EncounterState
from engine.geometry.results import AffectedToken, Modifier, TemplateResult
from engine.geometry.templates import Inclusion, cone_shape, covered_squares, default_inclusion
from engine.grid import Point, Square, distance_squares
from engine.tokens import Token, Weapon, are_opponents

#: Spycraft Brace: a 90 degree cone; +1 to Standard Attack and Autofire checks inside it.
BRACE_ANGLE = 90.0
BRACE_BONUS = 1
#: d20 Aiming: a 60 ft cone (a d20 cone is a quarter circle); +5 Perception in, -5 out.
AIMING_LENGTH_FT = 60.0
AIMING_ANGLE = 90.0
AIMING_PERCEPTION = 5
#: d20 Covering Fire: a cone as long as the weapon's range increment; Reflex DC 15 to duck.
COVERING_FIRE_ANGLE = 90.0
COVERING_FIRE_REFLEX_DC = 15


def token_centre(token: Token) -> Point:
    """The centre of a token's space, in square units."""
    return (token.square.x + token.size / 2, token.square.y + token.size / 2)


def _cone_from(
    encounter: EncounterState,
    token: Token,
    direction: float,
    length: float,
    angle: float,
    inclusion: Inclusion | None,
) -> tuple[shapely.Polygon, frozenset[Square]]:
    shape = cone_shape(token_centre(token), direction, length, angle)
    rule = inclusion or default_inclusion(encounter.system)
    return shape, covered_squares(encounter, shape, rule) - set(token.squares)


def _map_reach(encounter: EncounterState) -> float:
    return math.hypot(encounter.battlemap.width, encounter.battlemap.height)


def brace_area(
    encounter: EncounterState,
    token_id: str,
    direction: float,
    *,
    inclusion: Inclusion | None = None,
) -> TemplateResult:
    """Spycraft Brace: the 90 degree cone a bracing shooter covers, reaching across the map.

    Opponents inside get the shooter's +1 (Standard Attack and Autofire checks against them).
    """
    token = encounter.token(token_id)
    shape, squares = _cone_from(
        encounter, token, direction, _map_reach(encounter), BRACE_ANGLE, inclusion
    )
    bonus = Modifier(
        "Brace",
        BRACE_BONUS,
        "to the bracing shooter's Standard Attack and Autofire checks against this target",
    )
    tokens = tuple(
        AffectedToken(other.id, under, (bonus,))
        for other in encounter.others(token_id)
        if are_opponents(token.side, other.side)
        and (under := tuple(s for s in other.squares if s in squares))
    )
    return TemplateResult(shape, squares, tokens)


def aiming_area(
    encounter: EncounterState,
    token_id: str,
    direction: float,
    *,
    inclusion: Inclusion | None = None,
) -> TemplateResult:
    """d20 Aiming: a 60 ft cone; the aimer's Perception is +5 inside it and -5 outside.

    Every other token is listed, with the modifier the aimer has to notice it.
    """
    token = encounter.token(token_id)
    length = AIMING_LENGTH_FT / _feet_per_square(encounter)
    shape, squares = _cone_from(encounter, token, direction, length, AIMING_ANGLE, inclusion)
    inside = Modifier("Aiming", AIMING_PERCEPTION, "to the aimer's Perception to notice this token")
    outside = Modifier(
        "Aiming",
        -AIMING_PERCEPTION,
        "to the aimer's Perception to notice this token (outside the cone)",
    )
    tokens = []
    for other in encounter.others(token_id):
        under = tuple(s for s in other.squares if s in squares)
        tokens.append(AffectedToken(other.id, under, (inside if under else outside,)))
    return TemplateResult(shape, squares, tuple(tokens))


def covering_fire_area(
    encounter: EncounterState,
    token_id: str,
    direction: float,
    weapon_name: str,
    *,
    inclusion: Inclusion | None = None,
) -> TemplateResult:
    """d20 Covering Fire: a cone as long as the weapon's range increment.

    Opponents inside may be attacked (once per attack action) and may dive for cover
    with a Reflex save against DC 15. Not allowed with melee weapons or weapons that
    fire only single shots.
    """
    token = encounter.token(token_id)
    weapon = token.weapon(weapon_name)
    reasons = _covering_fire_problems(weapon)
    length = max(weapon.range_increment, 1e-6) / encounter.scale.square_size
    shape, squares = _cone_from(encounter, token, direction, length, COVERING_FIRE_ANGLE, inclusion)
    save = Modifier(
        "Covering Fire",
        COVERING_FIRE_REFLEX_DC,
        "Reflex save DC to take cover after the first attack action",
    )
    tokens = tuple(
        AffectedToken(other.id, under, (save,))
        for other in encounter.others(token_id)
        if are_opponents(token.side, other.side)
        and (under := tuple(s for s in other.squares if s in squares))
    )
    return TemplateResult(shape, squares, tokens, reasons, allowed=not reasons)


def _covering_fire_problems(weapon: Weapon) -> tuple[str, ...]:
    if weapon.melee or weapon.range_increment <= 0:
        return (
            f"Covering Fire needs a firearm with a range increment; the {weapon.name} has none",
        )
    modes = " ".join(weapon.modes).lower()
    if weapon.modes and not any(word in modes for word in ("semi", "auto", "burst")):
        return (
            f"Covering Fire needs a semi-automatic or automatic weapon; the {weapon.name} "
            f"fires {', '.join(weapon.modes)}",
        )
    return ()


def _feet_per_square(encounter: EncounterState) -> float:
    unit = encounter.scale.unit.value
    per_unit = {"ft": 1.0, "m": 1 / 0.3048, "in": 6.0}[unit]  # a Savage Worlds inch is 2 yd
    return encounter.scale.square_size * per_unit


# --------------------------------------------------------------------------- range bands


@dataclass(frozen=True)
class RangeBand:
    """One band: from ``inner`` (exclusive) to ``outer`` (inclusive) squares, and its modifier.

    ``shape`` is the region of the band drawn with the grid's diagonal rule (a square ring
    when every diagonal counts one, an octagonal ring for the alternating 5/10 ft rule).
    """

    name: str
    inner: int
    outer: int
    modifier: Modifier
    shape: shapely.Geometry


@dataclass(frozen=True)
class RangeBands:
    """The range bands of one weapon around one token, and where every other token falls.

    ``cqb`` and ``half_maximum`` are reaches in squares (CQB Range and the Spycraft Cover
    Fire limit of half the maximum range, rounded down); ``maximum`` is the last square
    the weapon reaches. Tokens beyond it are listed in ``out_of_range``.
    """

    token_id: str
    weapon: str
    bands: tuple[RangeBand, ...]
    tokens: tuple[AffectedToken, ...]
    out_of_range: tuple[str, ...]
    cqb: int | None
    half_maximum: int
    maximum: int

    def band_at(self, distance: int) -> RangeBand | None:
        for band in self.bands:
            if band.inner < distance <= band.outer:
                return band
        return None


@lru_cache(maxsize=1)
def _range_tables() -> dict[str, Any]:
    source = resources.files("engine.geometry").joinpath("range_bands.json")
    tables: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return tables


def _band_specs(
    system: str, weapon: Weapon
) -> tuple[list[tuple[str, float, int]], str, float | None]:
    tables = _range_tables()
    if system not in tables or system.startswith("_"):
        known = ", ".join(sorted(k for k in tables if not k.startswith("_")))
        raise KeyError(f"no range bands for system {system!r} (known: {known})")
    table = tables[system]
    applies_to = str(table["applies_to"])
    if "bands" in table:
        return [(str(n), float(k), int(m)) for n, k, m in table["bands"]], applies_to, None
    thrown = "thrown" in weapon.traits
    most = int(table["thrown_maximum_increments" if thrown else "maximum_increments"])
    step = int(table["penalty_per_increment"])
    specs = [(f"Increment {k}", float(k), step * (k - 1)) for k in range(1, most + 1)]
    return specs, applies_to, float(table["cqb_increments"])


def _ring(centre: Point, half: float, reach: float, alternating: bool) -> shapely.Geometry:
    """Everything within ``reach`` squares of a token's edge, drawn by the diagonal rule."""
    cx, cy = centre
    if not alternating:
        r = half + reach
        return shapely.box(cx - r, cy - r, cx + r, cy + r)
    # max(|dx|, |dy|) + min(|dx|, |dy|) / 2 <= reach is an octagon with corners at (reach, 0)
    # and (2/3 reach, 2/3 reach); widened by the token's own half-size.
    h, d = half, reach * 2 / 3
    points = [
        (h + reach, -h),
        (h + reach, h),
        (h + d, h + d),
        (h, h + reach),
        (-h, h + reach),
        (-h - d, h + d),
        (-h - reach, h),
        (-h - reach, -h),
        (-h - d, -h - d),
        (-h, -h - reach),
        (h, -h - reach),
        (h + d, -h - d),
    ]
    return shapely.Polygon([(cx + x, cy + y) for x, y in points])


def range_bands(encounter: EncounterState, token_id: str, weapon_name: str) -> RangeBands:
    """The range bands of a token's weapon in the encounter's system, with every token's band.

    Distances are counted in squares with the map's diagonal rule, from the nearest square of
    the shooter to the nearest square of the target.
    """
    token = encounter.token(token_id)
    weapon = token.weapon(weapon_name)
    if weapon.range_increment <= 0:
        raise ValueError(f"the {weapon.name} has no range increment, so it has no range bands")
    specs, applies_to, cqb_increments = _band_specs(encounter.system, weapon)
    increment = weapon.range_increment / encounter.scale.square_size
    centre, half = token_centre(token), token.size / 2
    alternating = encounter.scale.diagonal.value == "alternating"
    bands: list[RangeBand] = []
    inner = 0
    for name, increments, value in specs:
        outer = math.floor(increments * increment + 1e-9)
        ring = _ring(centre, half, outer, alternating)
        if inner:
            ring = shapely.difference(ring, _ring(centre, half, inner, alternating))
        bands.append(RangeBand(name, inner, outer, Modifier(name, value, applies_to), ring))
        inner = outer
    maximum = bands[-1].outer
    result_tokens: list[AffectedToken] = []
    out_of_range: list[str] = []
    for other in encounter.others(token_id):
        distance = min(
            distance_squares(a, b, encounter.scale.diagonal)
            for a in token.squares
            for b in other.squares
        )
        found = next((b for b in bands if b.inner < distance <= b.outer), None)
        if found is None:
            out_of_range.append(other.id)
        else:
            result_tokens.append(AffectedToken(other.id, (), (found.modifier,)))
    cqb = None if cqb_increments is None else math.floor(cqb_increments * increment + 1e-9)
    return RangeBands(
        token.id,
        weapon.name,
        tuple(bands),
        tuple(result_tokens),
        tuple(out_of_range),
        cqb,
        maximum // 2,
        maximum,
    )
