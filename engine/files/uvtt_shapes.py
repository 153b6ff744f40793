"""Shape clean-up for imported maps: simplify cave walls, merge duplicate portals, open doorways.

Everything here is in square units. Simplification is Douglas-Peucker as Shapely's
topology-preserving simplifier does it, with a tolerance under a tenth of a square, so no
wall moves by more than that (it only ever drops vertices; the ends of every polyline stay).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import MultiLineString, Polygon
from shapely.geometry.base import BaseGeometry

from engine.grid import Point
from engine.limits import MAX_OUTLINE_CROSSINGS

Segment = tuple[Point, Point]

#: Douglas-Peucker tolerance in squares: no simplified wall lies further than this from
#: the original (the issue allows a tenth of a square; a margin keeps rounding inside it).
SIMPLIFY_TOLERANCE = 0.095

#: Points closer than this (in squares) are the same point.
EPSILON = 1e-6

#: Two portals on one line are duplicates when they share more than this length.
OVERLAP = 0.01

#: Segments looked up in the spatial index at once (bounds the memory of one query).
_QUERY_CHUNK = 2048


def without_repeats(points: Sequence[Point]) -> list[Point]:
    """The points with consecutive duplicates dropped (exporters often repeat a vertex)."""
    kept: list[Point] = []
    for point in points:
        if not kept or math.dist(kept[-1], point) > EPSILON:
            kept.append(point)
    return kept


def without_subnormals(points: Sequence[Point]) -> list[Point]:
    """The points with subnormal coordinates (below 2.2e-308) read as 0.

    GEOS's topology-preserving simplifier never returns on such coordinates; a distance of
    1e-308 of a square is 0 for every purpose here.
    """
    tiny = sys.float_info.min
    return [(x if abs(x) >= tiny else 0.0, y if abs(y) >= tiny else 0.0) for x, y in points]


def simplify_polylines(lines: Sequence[Sequence[Point]]) -> list[list[Point]]:
    """Each polyline with redundant vertices dropped, none moving more than the tolerance.

    All lines are simplified together, so a simplified line never crosses another one it
    did not cross before. Each line needs at least two distinct points.
    """
    if not lines:
        return []
    source = MultiLineString([without_subnormals(line) for line in lines])
    simplified = source.simplify(SIMPLIFY_TOLERANCE, preserve_topology=True)
    parts = list(getattr(simplified, "geoms", [simplified]))
    if len(parts) != len(lines):  # never seen; keep the lines as they came rather than guess
        return [list(line) for line in lines]
    return [[(float(x), float(y)) for x, y in part.coords] for part in parts]


def polygon_outlines(points: Sequence[Point], simplify: bool = True) -> list[list[Point]]:
    """A closed or open outline as (simplified) valid polygon rings (without the repeat).

    A self-crossing outline (a figure of eight) is split into its valid parts. Nothing is
    returned when the outline encloses no area.
    """
    if len(points) < 3:
        return []
    shape: BaseGeometry = Polygon(without_subnormals(points))
    if not shape.is_valid:
        crossings = self_crossings(points, MAX_OUTLINE_CROSSINGS)
        if crossings > MAX_OUTLINE_CROSSINGS:
            raise TooTangled(
                f"the outline crosses itself more than {MAX_OUTLINE_CROSSINGS} times, the "
                f"limit (an outline this tangled is damaged)"
            )
        shape = shapely.make_valid(shape)
    rings: list[list[Point]] = []
    for part in _polygons(shape):
        if part.area <= EPSILON:
            continue
        simple = Polygon(part.exterior)
        if simplify:
            simple = simple.simplify(SIMPLIFY_TOLERANCE, preserve_topology=True)
        for polygon in _polygons(simple):
            coords = [(float(x), float(y)) for x, y in polygon.exterior.coords][:-1]
            if len(coords) >= 3:
                rings.append(coords)
    return rings


class TooTangled(ValueError):
    """An outline that crosses itself too often to be repaired in bounded time."""


def self_crossings(ring: Sequence[Point], most: int) -> int:
    """How many times the closed ``ring`` crosses itself (counting stops past ``most``).

    Neighbouring edges share a corner and do not count. Each edge is tested against all
    later ones at once with numpy, so even a thousand points take milliseconds.
    """
    corners = np.asarray(ring, dtype=float)
    starts, ends = corners, np.roll(corners, -1, axis=0)
    count = len(corners)
    found = 0
    for i in range(count - 2):
        last = count - 1 if i == 0 else count  # the first and last edges are neighbours
        a, b = starts[i], ends[i]
        c, d = starts[i + 2:last], ends[i + 2:last]
        if len(c) == 0:
            continue
        found += int(np.count_nonzero(_properly_cross(a, b, c, d)))
        if found > most:
            break
    return found


def _properly_cross(a: Any, b: Any, c: Any, d: Any) -> Any:
    """Whether segment a-b crosses each segment c[k]-d[k] at a point inside both."""

    def side(p: Any, q: Any, r: Any) -> Any:
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))

    return (side(a, b, c) * side(a, b, d) < 0) & (side(c, d, a) * side(c, d, b) < 0)


def _polygons(shape: BaseGeometry) -> Iterable[Polygon]:
    if isinstance(shape, Polygon):
        yield shape
    else:
        for part in getattr(shape, "geoms", ()):
            yield from _polygons(part)


def segments(line: Sequence[Point]) -> list[Segment]:
    return [(a, b) for a, b in pairwise(line) if math.dist(a, b) > EPSILON]


def merge_overlapping(items: Sequence[Segment]) -> list[tuple[Segment, list[int]]]:
    """Collinear segments that overlap merged into one: (merged segment, source indices).

    Segments that only touch end to end (the two leaves of a double door) stay apart; a
    piece that overlaps two others joins all three. The first segment of a group keeps
    its direction; groups come in the order of their first segment. The overlapping pairs
    are found through a spatial index, so thousands of portals take no quadratic time.
    """
    parent = list(range(len(items)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for i, j in overlapping_pairs(items, items):
        if i != j:
            parent[max(root(i), root(j))] = min(root(i), root(j))
    members: dict[int, list[int]] = {}
    for index in range(len(items)):
        members.setdefault(root(index), []).append(index)
    groups: list[tuple[Segment, list[int]]] = []
    for first in sorted(members):
        sources = members[first]
        merged = items[sources[0]]
        for index in sources[1:]:
            merged = _span(merged, items[index])
        groups.append((merged, sources))
    return groups


def overlapping_pairs(
    bases: Sequence[Segment], others: Sequence[Segment]
) -> list[tuple[int, int]]:
    """Every (i, j) where ``others[j]`` lies along ``bases[i]`` and overlaps it by more
    than OVERLAP (as ``cut_out`` and ``merge_overlapping`` read overlap).

    A spatial index proposes the pairs within OVERLAP of each other; numpy tests them all
    at once, so the work grows with the pairs that are close, not with every pair.
    """
    if not bases or not others:
        return []
    base_lines = shapely.linestrings(np.asarray(bases, dtype=float))
    other_lines = shapely.linestrings(np.asarray(others, dtype=float))
    tree = shapely.STRtree(other_lines)
    found: list[tuple[int, int]] = []
    for start in range(0, len(bases), _QUERY_CHUNK):
        chunk = base_lines[start:start + _QUERY_CHUNK]
        near_base, near_other = tree.query(chunk, predicate="dwithin", distance=OVERLAP)
        if near_base.size == 0:
            continue
        near_base = near_base + start
        keep = _overlaps(np.asarray(bases, dtype=float)[near_base],
                         np.asarray(others, dtype=float)[near_other])
        found.extend(zip(near_base[keep].tolist(), near_other[keep].tolist(), strict=True))
    return found


def _overlaps(base: npt.NDArray[np.float64], other: npt.NDArray[np.float64]) -> Any:
    """``_interval_on(base[k], other[k]) is not None`` for every row k, as numpy does it."""
    origin = base[:, 0, :]
    direction = base[:, 1, :] - origin
    length = np.hypot(direction[:, 0], direction[:, 1])
    usable = length > EPSILON
    safe = np.where(usable, length, 1.0)
    ux, uy = direction[:, 0] / safe, direction[:, 1] / safe
    dx = other[:, :, 0] - origin[:, None, 0]
    dy = other[:, :, 1] - origin[:, None, 1]
    across = np.abs(dx * uy[:, None] - dy * ux[:, None])
    along = dx * ux[:, None] + dy * uy[:, None]
    start = np.maximum(0.0, along.min(axis=1))
    end = np.minimum(length, along.max(axis=1))
    return usable & (across <= OVERLAP).all(axis=1) & (end - start > OVERLAP)


def cut_out(wall: Segment, openings: Sequence[Segment]) -> list[Segment]:
    """The parts of a wall segment not covered by collinear openings (doors, windows).

    A wall drawn straight across a doorway would keep the door shut for sight forever.
    """
    length = math.dist(wall[0], wall[1])
    spans: list[tuple[float, float]] = []
    for opening in openings:
        interval = _interval_on(wall, opening)
        if interval is not None:
            spans.append(interval)
    if not spans:
        return [wall]
    pieces: list[Segment] = []
    position = 0.0
    for start, end in sorted(spans):
        if start > position + EPSILON:
            pieces.append((_at(wall, position / length), _at(wall, start / length)))
        position = max(position, end)
    if position < length - EPSILON:
        pieces.append((_at(wall, position / length), wall[1]))
    return pieces


class WallIndex:
    """Answers whether a point lies on a wall, for many points against one set of walls."""

    def __init__(self, walls: Sequence[Segment], tolerance: float = 0.05) -> None:
        self.tolerance = tolerance
        self.lines = shapely.multilinestrings([[a, b] for a, b in walls]) if walls else None
        if self.lines is not None:
            shapely.prepare(self.lines)

    def touches(self, point: Point) -> bool:
        if self.lines is None:
            return False
        return bool(shapely.dwithin(self.lines, shapely.Point(point), self.tolerance))


def _interval_on(base: Segment, other: Segment) -> tuple[float, float] | None:
    """Where ``other`` overlaps ``base`` along it (distances from base's start), if collinear."""
    length = math.dist(base[0], base[1])
    if length <= EPSILON:
        return None
    ux, uy = (base[1][0] - base[0][0]) / length, (base[1][1] - base[0][1]) / length
    along: list[float] = []
    for px, py in other:
        dx, dy = px - base[0][0], py - base[0][1]
        if abs(dx * uy - dy * ux) > OVERLAP:  # off the base line
            return None
        along.append(dx * ux + dy * uy)
    start, end = max(0.0, min(along)), min(length, max(along))
    if end - start <= OVERLAP:
        return None
    return (start, end)


def _span(a: Segment, b: Segment) -> Segment:
    """The segment along ``a`` (in its direction) reaching every end of ``a`` and ``b``."""
    length = math.dist(a[0], a[1])
    ux, uy = (a[1][0] - a[0][0]) / length, (a[1][1] - a[0][1]) / length
    ends = [
        (px - a[0][0]) * ux + (py - a[0][1]) * uy for px, py in (*a, *b)
    ]
    low, high = min(ends), max(ends)
    start = (a[0][0] + ux * low, a[0][1] + uy * low)
    end = (a[0][0] + ux * high, a[0][1] + uy * high)
    return (start, end)


def _at(segment: Segment, fraction: float) -> Point:
    (ax, ay), (bx, by) = segment
    return (ax + (bx - ax) * fraction, ay + (by - ay) * fraction)

