"""Areas around a token: cones from its centre, and a weapon's range bands.

Each returns the shape (square units), the squares it covers and, for range bands, the
tokens it concerns with their modifiers. Cones start at the centre of the acting token's
space and leave its own squares out. The numbers (a cone's length and angle, a system's
range table) are parameters: rule systems hand them over.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

import shapely

from engine.encounter import EncounterState
from engine.geometry.results import AffectedToken, Modifier
from engine.geometry.templates import Inclusion, cone_shape, covered_squares
from engine.grid import Point, Square, distance_squares
from engine.tokens import Token, Weapon


def token_centre(token: Token) -> Point:
    """The centre of a token's space, in square units."""
    return (token.square.x + token.size / 2, token.square.y + token.size / 2)


def token_cone(
    encounter: EncounterState,
    token_id: str,
    direction: float,
    length: float,
    angle: float,
    *,
    inclusion: Inclusion,
) -> tuple[shapely.Polygon, frozenset[Square]]:
    """A cone ``length`` squares long and ``angle`` degrees wide from the token's centre,
    and the squares it covers under ``inclusion`` (the token's own squares left out)."""
    token = encounter.token(token_id)
    shape = cone_shape(token_centre(token), direction, length, angle)
    return shape, covered_squares(encounter, shape, inclusion) - set(token.squares)


def map_reach(encounter: EncounterState) -> float:
    """A length in squares that reaches across the whole map (its diagonal)."""
    return math.hypot(encounter.battlemap.width, encounter.battlemap.height)


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

    ``cqb`` and ``half_maximum`` are reaches in squares (CQB Range, when the table has one,
    and half the maximum range, rounded down); ``maximum`` is the last square
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


@dataclass(frozen=True)
class RangeTable:
    """A system's range bands, counted in range increments of the weapon.

    Either named ``bands`` (name, up to so many increments, modifier), or one band per
    increment with ``penalty_per_increment`` from the second on, up to
    ``maximum_increments`` (``thrown_maximum_increments`` for thrown weapons) with CQB
    Range reaching ``cqb_increments``.
    """

    applies_to: str
    bands: tuple[tuple[str, float, int], ...] = ()
    penalty_per_increment: int = 0
    maximum_increments: int = 0
    thrown_maximum_increments: int = 0
    cqb_increments: float | None = None

    def specs(self, weapon: Weapon) -> tuple[list[tuple[str, float, int]], float | None]:
        """The bands for this weapon (name, increments, modifier) and the CQB reach."""
        if self.bands:
            return list(self.bands), None
        thrown = "thrown" in weapon.traits
        most = self.thrown_maximum_increments if thrown else self.maximum_increments
        step = self.penalty_per_increment
        specs = [(f"Increment {k}", float(k), step * (k - 1)) for k in range(1, most + 1)]
        return specs, self.cqb_increments


def range_table_from(raw: object, where: str) -> RangeTable:
    """A range table from JSON data, checked; ``where`` names the source in errors."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a range table must be an object")
    applies_to = str(raw.get("applies_to", ""))
    try:
        if "bands" in raw:
            bands = tuple((str(n), float(k), int(m)) for n, k, m in raw["bands"])
            if not bands:
                raise ValueError("'bands' is empty")
            return RangeTable(applies_to, bands)
        return RangeTable(
            applies_to,
            penalty_per_increment=int(raw["penalty_per_increment"]),
            maximum_increments=int(raw["maximum_increments"]),
            thrown_maximum_increments=int(raw["thrown_maximum_increments"]),
            cqb_increments=float(raw["cqb_increments"]),
        )
    except KeyError as error:
        raise ValueError(f"{where}: missing {error.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None


def load_range_table(package: str, resource: str = "range_bands.json") -> RangeTable:
    """The range table a package ships as JSON (a rule system keeps its own)."""
    source = resources.files(package).joinpath(resource)
    where = f"{package}/{resource}"
    try:
        raw: Any = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{where}: not JSON ({error})") from None
    return range_table_from(raw, where)


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


def range_bands(
    encounter: EncounterState, token_id: str, weapon_name: str, table: RangeTable
) -> RangeBands:
    """The range bands of a token's weapon under ``table``, with every token's band.

    Distances are counted in squares with the map's diagonal rule, from the nearest square of
    the shooter to the nearest square of the target.
    """
    token = encounter.token(token_id)
    weapon = token.weapon(weapon_name)
    if weapon.range_increment <= 0:
        raise ValueError(f"the {weapon.name} has no range increment, so it has no range bands")
    specs, cqb_increments = table.specs(weapon)
    applies_to = table.applies_to
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
