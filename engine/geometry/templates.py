"""Area templates at any angle and position: cone, circle (burst), square, line, blasts.

Sizes are in squares; directions are in degrees clockwise on screen from east (see the
package conventions).

Which squares a template covers is the caller's ``Inclusion`` (a rule system hands over its
own): either a square whose centre lies in the template (on its edge counts), or a square
any part of which lies beneath it (merely touching an edge does not). A token is affected
when any of its squares is covered. With ``clip_to_walls`` the template is cut to what its
point of origin sees, so a blast does not pass through a wall.

``TemplateSpec`` describes a template a rule system offers the GM (its form, size, where its
origin snaps); ``lay_template`` lays one. ``STANDARD_TEMPLATES`` are cone, burst, square and
line, for a system that offers nothing of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.encounter import EncounterState
from engine.geometry._index import occupancy_of, squares_at, token_order
from engine.geometry.results import AffectedToken, TemplateResult
from engine.geometry.visibility import visibility_polygon
from engine.grid import Point, Square


class Inclusion(StrEnum):
    """Which squares a template covers."""

    CENTRE = "centre"  # the square's centre lies in the template
    PARTIAL = "partial"  # some part of the square lies beneath it


IntArray = NDArray[np.int_]
BoolArray = NDArray[np.bool_]

#: Tolerance for squares on a template's edge, in squares.
_EDGE = 1e-7
#: Points used to draw a quarter circle of an arc.
_ARC_STEPS = 16


def _check_positive(value: float, what: str) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{what} must be a positive number of squares, not {value}")


def _unit(direction: float) -> tuple[float, float]:
    radians = math.radians(direction)
    return math.cos(radians), math.sin(radians)


def cone_shape(
    origin: Point, direction: float, length: float, angle: float = 90.0
) -> shapely.Polygon:
    """A circular sector from ``origin``: ``length`` squares long, ``angle`` degrees wide."""
    _check_positive(length, "cone length")
    if not 0 < angle <= 360:
        raise ValueError(f"cone angle must be between 0 and 360 degrees, not {angle}")
    steps = max(2, math.ceil(_ARC_STEPS * angle / 90))
    angles = np.radians(np.linspace(direction - angle / 2, direction + angle / 2, steps + 1))
    arc = np.column_stack(
        [origin[0] + length * np.cos(angles), origin[1] + length * np.sin(angles)]
    )
    if angle >= 360:
        return shapely.polygons(arc)
    return shapely.polygons(np.vstack([np.asarray(origin, dtype=np.float64), arc]))


def circle_shape(centre: Point, radius: float) -> shapely.Polygon:
    """A burst or blast: a disc of ``radius`` squares (drawn as a 64-sided polygon)."""
    _check_positive(radius, "radius")
    return shapely.polygons(np.asarray(centre) + radius * _UNIT_CIRCLE)


_UNIT_CIRCLE = np.column_stack(
    [
        np.cos(np.linspace(0, 2 * np.pi, 4 * _ARC_STEPS + 1)),
        np.sin(np.linspace(0, 2 * np.pi, 4 * _ARC_STEPS + 1)),
    ]
)


def square_shape(centre: Point, side: float, direction: float = 0.0) -> shapely.Polygon:
    """A square area ``side`` squares wide centred on ``centre``, turned by ``direction``."""
    _check_positive(side, "square side")
    (ux, uy), half = _unit(direction), side / 2
    vx, vy = -uy, ux
    cx, cy = centre
    return shapely.Polygon(
        [
            (cx + sx * half * ux + sy * half * vx, cy + sx * half * uy + sy * half * vy)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
    )


def line_shape(
    origin: Point, direction: float, length: float, width: float = 1.0
) -> shapely.Polygon:
    """A line ``length`` squares long and ``width`` squares wide starting at ``origin``."""
    _check_positive(length, "line length")
    _check_positive(width, "line width")
    (ux, uy), half = _unit(direction), width / 2
    vx, vy = -uy * half, ux * half
    x, y = origin
    ex, ey = x + ux * length, y + uy * length
    return shapely.Polygon(
        [(x + vx, y + vy), (ex + vx, ey + vy), (ex - vx, ey - vy), (x - vx, y - vy)]
    )


def teardrop_shape(
    origin: Point, direction: float, length: float, end_radius: float
) -> shapely.Polygon:
    """A teardrop from ``origin``: ``length`` squares to the far edge of its round end of
    ``end_radius`` squares."""
    _check_positive(length, "teardrop length")
    _check_positive(end_radius, "teardrop end radius")
    if end_radius * 2 > length:
        raise ValueError(f"a teardrop {length} long cannot end in a round of radius {end_radius}")
    ux, uy = _unit(direction)
    reach = length - end_radius
    end = shapely.Point(origin[0] + ux * reach, origin[1] + uy * reach)
    return shapely.convex_hull(
        shapely.union(end.buffer(end_radius, quad_segs=_ARC_STEPS), shapely.Point(origin))
    )


#: An exact test of which squares (given by their top-left corners) a template covers under
#: an inclusion rule, or None when it has no exact answer for that rule.
SquareTest = Callable[[IntArray, IntArray, Inclusion], "BoolArray | None"]


def _circle_test(centre: Point, radius: float) -> SquareTest:
    cx, cy = centre

    def test(xs: IntArray, ys: IntArray, rule: Inclusion) -> BoolArray:
        if rule is Inclusion.CENTRE:
            dx, dy = xs + 0.5 - cx, ys + 0.5 - cy
            inside: BoolArray = dx * dx + dy * dy <= radius * radius + _EDGE
            return inside
        # Nearest point of each square to the centre, strictly inside the disc.
        dx = np.maximum(np.abs(xs + 0.5 - cx) - 0.5, 0.0)
        dy = np.maximum(np.abs(ys + 0.5 - cy) - 0.5, 0.0)
        under: BoolArray = dx * dx + dy * dy < radius * radius - _EDGE
        return under

    return test


def _cone_test(origin: Point, direction: float, length: float, angle: float) -> SquareTest:
    ox, oy = origin
    ux, uy = _unit(direction)
    cos_half = math.cos(math.radians(angle / 2))

    def test(xs: IntArray, ys: IntArray, rule: Inclusion) -> BoolArray | None:
        if rule is not Inclusion.CENTRE:
            return None
        dx, dy = xs + 0.5 - ox, ys + 0.5 - oy
        distance = np.hypot(dx, dy)
        along = (dx * ux + dy * uy) / np.maximum(distance, 1e-12)
        inside: BoolArray = (distance <= length + _EDGE) & (
            (along >= cos_half - _EDGE) | (distance < _EDGE) | (angle >= 360)
        )
        return inside

    return test


def _rectangle_test(
    origin: Point, direction: float, along: tuple[float, float], across: float
) -> SquareTest:
    """Centres within ``along`` (from, to) of ``origin`` on the axis and ``across`` either side."""
    ox, oy = origin
    ux, uy = _unit(direction)

    def test(xs: IntArray, ys: IntArray, rule: Inclusion) -> BoolArray | None:
        if rule is not Inclusion.CENTRE:
            return None
        dx, dy = xs + 0.5 - ox, ys + 0.5 - oy
        a = dx * ux + dy * uy
        b = -dx * uy + dy * ux
        inside: BoolArray = (
            (a >= along[0] - _EDGE) & (a <= along[1] + _EDGE) & (np.abs(b) <= across + _EDGE)
        )
        return inside

    return test


def covered_squares(
    encounter: EncounterState,
    shape: shapely.Geometry,
    inclusion: Inclusion,
    exact: SquareTest | None = None,
) -> frozenset[Square]:
    """The map squares a shape covers under an inclusion rule.

    ``exact`` answers from the template's own geometry (a true circle rather than the
    drawn polygon) when it can; otherwise the shape decides.
    """
    battlemap = encounter.battlemap
    if shape.is_empty:
        return frozenset()
    minx, miny, maxx, maxy = shape.bounds
    lo_x, lo_y = max(0, math.floor(minx)), max(0, math.floor(miny))
    hi_x = min(battlemap.width - 1, math.ceil(maxx) - 1)
    hi_y = min(battlemap.height - 1, math.ceil(maxy) - 1)
    if hi_x < lo_x or hi_y < lo_y:
        return frozenset()
    columns, rows = np.arange(lo_x, hi_x + 1), np.arange(lo_y, hi_y + 1)
    xs, ys = np.tile(columns, len(rows)), np.repeat(rows, len(columns))
    known = exact(xs, ys, inclusion) if exact is not None else None
    if known is not None:
        return squares_at(battlemap, xs[known], ys[known])
    shapely.prepare(shape)
    # A hair of tolerance keeps a centre lying on the edge inside however the template turns,
    # and a square whose edge only touches the template outside.
    if inclusion is Inclusion.CENTRE:
        inside = shapely.dwithin(shape, shapely.points(xs + 0.5, ys + 0.5), _EDGE)
    else:
        inside = shapely.intersects(
            shape, shapely.box(xs + _EDGE, ys + _EDGE, xs + 1 - _EDGE, ys + 1 - _EDGE)
        )
    return squares_at(battlemap, xs[inside], ys[inside])


def touched_tokens(
    encounter: EncounterState, squares: frozenset[Square]
) -> tuple[AffectedToken, ...]:
    """Every token with at least one square among ``squares``, with those squares."""
    occupancy = occupancy_of(encounter)
    under: dict[str, list[Square]] = {}
    for square in squares:
        token_id = occupancy.get(square)
        if token_id is not None:
            under.setdefault(token_id, []).append(square)
    order = token_order(encounter)
    return tuple(
        AffectedToken(token_id, tuple(sorted(found, key=lambda s: (s.y, s.x))))
        for token_id, found in sorted(under.items(), key=lambda item: order[item[0]])
    )


def apply_template(
    encounter: EncounterState,
    shape: shapely.Geometry,
    *,
    origin: Point,
    inclusion: Inclusion,
    clip_to_walls: bool = False,
    exact: SquareTest | None = None,
) -> TemplateResult:
    """Squares and tokens under a template shape; optionally cut to what ``origin`` sees.

    ``exact`` is an optional exact square test for the unclipped template.
    """
    rule = inclusion
    reasons: tuple[str, ...] = ()
    if clip_to_walls:
        minx, miny, maxx, maxy = shape.bounds
        reach = math.hypot(
            max(abs(minx - origin[0]), abs(maxx - origin[0])),
            max(abs(miny - origin[1]), abs(maxy - origin[1])),
        )
        seen = visibility_polygon(encounter.battlemap, origin, max(reach, 1e-6))
        clipped = shapely.intersection(shape, seen)
        if clipped.area < shape.area - 1e-9:
            reasons = ("walls stop part of the area: it covers only what its origin can see",)
            exact = None
        shape = clipped
    squares = covered_squares(encounter, shape, rule, exact)
    return TemplateResult(shape, squares, touched_tokens(encounter, squares), reasons)


def cone_template(
    encounter: EncounterState,
    origin: Point,
    direction: float,
    length: float,
    *,
    angle: float = 90.0,
    inclusion: Inclusion,
    clip_to_walls: bool = False,
) -> TemplateResult:
    """A cone (``angle`` degrees wide, a quarter circle unless told) from ``origin``."""
    shape = cone_shape(origin, direction, length, angle)
    return apply_template(
        encounter,
        shape,
        origin=origin,
        inclusion=inclusion,
        clip_to_walls=clip_to_walls,
        exact=_cone_test(origin, direction, length, angle),
    )


def circle_template(
    encounter: EncounterState,
    centre: Point,
    radius: float,
    *,
    inclusion: Inclusion,
    clip_to_walls: bool = False,
) -> TemplateResult:
    """A burst or spread of ``radius`` squares around ``centre``."""
    return apply_template(
        encounter,
        circle_shape(centre, radius),
        origin=centre,
        inclusion=inclusion,
        clip_to_walls=clip_to_walls,
        exact=_circle_test(centre, radius),
    )


def square_template(
    encounter: EncounterState,
    centre: Point,
    side: float,
    *,
    direction: float = 0.0,
    inclusion: Inclusion,
    clip_to_walls: bool = False,
) -> TemplateResult:
    """A square area of ``side`` squares, centred on ``centre``, turned by ``direction``."""
    return apply_template(
        encounter,
        square_shape(centre, side, direction),
        origin=centre,
        inclusion=inclusion,
        clip_to_walls=clip_to_walls,
        exact=_rectangle_test(centre, direction, (-side / 2, side / 2), side / 2),
    )


def line_template(
    encounter: EncounterState,
    origin: Point,
    direction: float,
    length: float,
    *,
    width: float = 1.0,
    inclusion: Inclusion,
    clip_to_walls: bool = False,
) -> TemplateResult:
    """A line from ``origin`` at any angle."""
    return apply_template(
        encounter,
        line_shape(origin, direction, length, width),
        origin=origin,
        inclusion=inclusion,
        clip_to_walls=clip_to_walls,
        exact=_rectangle_test(origin, direction, (0.0, length), width / 2),
    )


class TemplateForm(StrEnum):
    """The shapes ``lay_template`` draws."""

    CONE = "cone"
    CIRCLE = "circle"
    SQUARE = "square"
    LINE = "line"
    TEARDROP = "teardrop"


@dataclass(frozen=True)
class TemplateSpec:
    """A template a rule system offers: its form and size, and how the GM lays it.

    ``size`` is in squares: a cone's, line's or teardrop's length, a circle's radius, a
    square's side. ``end_radius`` is a teardrop's round end, ``angle`` a cone's width.
    ``on_corner``: the origin snaps to a grid intersection (else to a square's centre);
    ``sized``: the GM may change the size; ``turns``: the GM may turn it.
    """

    key: str
    label: str
    form: TemplateForm
    size: float
    on_corner: bool
    sized: bool = True
    turns: bool = True
    end_radius: float = 0.0
    angle: float = 90.0


def lay_template(
    encounter: EncounterState,
    spec: TemplateSpec,
    origin: Point,
    direction: float,
    size: float,
    *,
    inclusion: Inclusion,
    clip_to_walls: bool = False,
) -> TemplateResult:
    """The squares and tokens under ``spec`` laid at ``origin`` (``size`` replaces the
    spec's own when the spec is ``sized``)."""
    length = size if spec.sized else spec.size
    clip = clip_to_walls
    if spec.form is TemplateForm.CONE:
        return cone_template(
            encounter, origin, direction, length, angle=spec.angle, inclusion=inclusion,
            clip_to_walls=clip,
        )
    if spec.form is TemplateForm.CIRCLE:
        return circle_template(encounter, origin, length, inclusion=inclusion, clip_to_walls=clip)
    if spec.form is TemplateForm.SQUARE:
        return square_template(
            encounter, origin, length, direction=direction, inclusion=inclusion,
            clip_to_walls=clip,
        )
    if spec.form is TemplateForm.LINE:
        return line_template(
            encounter, origin, direction, length, inclusion=inclusion, clip_to_walls=clip
        )
    shape = teardrop_shape(origin, direction, length, spec.end_radius)
    return apply_template(encounter, shape, origin=origin, inclusion=inclusion, clip_to_walls=clip)


#: Cone, burst, square and line, in sizes a GM reaches for first: what a rule system with no
#: templates of its own offers.
STANDARD_TEMPLATES: tuple[TemplateSpec, ...] = (
    TemplateSpec("cone", "Cone", TemplateForm.CONE, 3, True),
    TemplateSpec("burst", "Burst", TemplateForm.CIRCLE, 2, True, turns=False),
    TemplateSpec("square", "Square", TemplateForm.SQUARE, 2, False),
    TemplateSpec("line", "Line", TemplateForm.LINE, 6, True),
)
