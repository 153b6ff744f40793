"""What a point or a token sees: the visibility polygon and the squares inside it.

The polygon is exact for straight walls. The only places where its outline can turn are
wall ends and points where two walls cross (the map's "vertices", found once per map).
Each vertex within the radius that the origin sees gets two rays slipping a hair past it on
either side; more rays fan around the circle so that arcs of the radius come out round.
Each ray stops at the nearest thing that blocks sight, and the stops and seen vertices,
taken in angle order, outline the region, which is then clipped to the map.

A token sees a square when, by the line-of-sight rule of ``engine.geometry.los``, some
corner of one of its squares sees some corner of that square: that is, when a corner of
the square lies in the region seen from one of the token's sight corners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.battlemap import BattleMap
from engine.geometry._index import FloatArray, SightIndex, sight_index, squares_at
from engine.geometry._march import (
    KERNEL_BUILT,
    IntArray,
    first_hits,
    seen_squares_kernel,
    touches,
    visibility_rings_kernel,
)
from engine.geometry._scanline import lattice_runs
from engine.geometry.los import CORNER_INSET, check_token, sight_corners
from engine.grid import Point, Square
from engine.tokens import Token

#: Angle either side of a wall end at which extra rays pass it, in radians.
_SLIP = 1e-7
#: Rays around the circle, so that arcs of the radius come out round.
_ARC_RAYS = 180


def visibility_polygon(battlemap: BattleMap, origin: Point, radius: float) -> shapely.Geometry:
    """The region seen from ``origin`` within ``radius`` squares, clipped to the map."""
    return visibility_polygons(battlemap, [origin], radius)[0]


def visibility_polygons(
    battlemap: BattleMap, origins: Sequence[Point], radius: float
) -> list[shapely.Geometry]:
    """``visibility_polygon`` for several origins at once (the walks share their rounds)."""
    index = sight_index(battlemap)
    rings = _rings(index, battlemap, origins, radius)
    return _polygons(index, rings, origins)


def _polygons(
    index: SightIndex, rings: Sequence[FloatArray], origins: Sequence[Point] | None = None
) -> list[shapely.Geometry]:
    """The rings as polygons, mended where a ring touches itself, clipped to the map.

    With the ``origins`` the rings were seen from, a ring that winds once around its
    origin, every point strictly further round than the last, is left as it is: such a
    ring is simple, so mending would return it unchanged after GEOS's validity check,
    which costs about as much as the rest of the call.
    """
    polygons = np.array([shapely.Polygon(r) for r in rings], dtype=object)
    mend = np.ones(len(polygons), dtype=bool)
    if origins is not None:
        mend = np.array([not _winds_once(r, o) for r, o in zip(rings, origins, strict=True)])
    if mend.any():
        polygons[mend] = shapely.make_valid(polygons[mend])
    # The map is a rectangle: GEOS's rectangle clip gives the same region as a general
    # intersection with it (a property test checks) at a third of the cost, except seen
    # from the map's very edge (a token in the first column: its corners lie on it), where
    # it can fold the outline back onto the edge beside the origin. Those few take the
    # general intersection.
    on_edge = np.zeros(len(polygons), dtype=bool) if origins is None else _on_edge(index, origins)
    clipped = np.empty(len(polygons), dtype=object)
    clipped[~on_edge] = shapely.clip_by_rect(polygons[~on_edge], *index.bounds.bounds)
    if on_edge.any():
        clipped[on_edge] = shapely.intersection(polygons[on_edge], index.bounds)
    return list(clipped)


#: How near the map's edge (squares) an origin is "on the edge" for ``_polygons``.
_EDGE_MARGIN = 1e-3


def _on_edge(index: SightIndex, origins: Sequence[Point]) -> NDArray[np.bool_]:
    left, top, right, bottom = index.bounds.bounds
    xy = np.asarray(origins, dtype=np.float64).reshape(-1, 2)
    near: NDArray[np.bool_] = (
        (np.abs(xy[:, 0] - left) < _EDGE_MARGIN) | (np.abs(xy[:, 0] - right) < _EDGE_MARGIN)
        | (np.abs(xy[:, 1] - top) < _EDGE_MARGIN) | (np.abs(xy[:, 1] - bottom) < _EDGE_MARGIN)
    )
    return near


#: How far round (the sine of the angle) each point of a ring must be from the last, seen
#: from the origin, for ``_winds_once``: far above floating-point error, far below the
#: outline's own spacing (rays slip 1e-7 past a corner).
_TURN_MARGIN = 1e-9


def _winds_once(ring: FloatArray, origin: Point) -> bool:
    """Whether ``ring`` goes once round ``origin`` anticlockwise (y down: as the outline
    is sorted by angle), each point strictly further round than the one before.

    Each edge then lies in its own wedge from the origin, and wedges of edges that are not
    neighbours share no point, so the ring is simple.
    """
    if len(ring) < 3:
        return False
    here = ring - np.asarray(origin, dtype=np.float64)
    there = np.roll(here, -1, axis=0)
    cross = here[:, 0] * there[:, 1] - here[:, 1] * there[:, 0]
    lengths = np.hypot(here[:, 0], here[:, 1])
    if not np.all(cross > _TURN_MARGIN * lengths * np.roll(lengths, -1)):
        return False
    turned = float(np.arctan2(cross, (here * there).sum(axis=1)).sum())
    return abs(turned - 2 * np.pi) < 1.0  # once round, not twice or more


def _rings(
    index: SightIndex, battlemap: BattleMap, origins: Sequence[Point], radius: float
) -> list[FloatArray]:
    """Each origin's outline of what it sees (not yet clipped to the map), in angle order."""
    return _split(_outlines(index, battlemap, origins, radius))


#: Rings as flat arrays: the x and y of every point, one ring after the other, and how
#: many points each ring has (the compiled kernel's form).
Outlines = tuple[FloatArray, FloatArray, IntArray]


def _split(outlines: Outlines) -> list[FloatArray]:
    xs, ys, counts = outlines
    return np.split(np.column_stack([xs, ys]), np.cumsum(counts)[:-1])


def _outlines(
    index: SightIndex, battlemap: BattleMap, origins: Sequence[Point], radius: float
) -> Outlines:
    """``_rings`` as flat arrays (see ``Outlines``)."""
    if not (np.isfinite(radius) and radius > 0):
        raise ValueError(f"vision radius must be a positive number of squares, not {radius}")
    for ox, oy in origins:
        if not (0 <= ox <= battlemap.width and 0 <= oy <= battlemap.height):
            raise ValueError(f"viewpoint {(ox, oy)} lies outside the map")
    centre = np.asarray(origins, dtype=np.float64).reshape(-1, 2)
    if KERNEL_BUILT:
        return visibility_rings_kernel(index.grid, index.vertices, centre, radius, _ARC_RAYS, _SLIP)
    points = _rings_numpy(index, centre, radius)
    flat = np.concatenate(points)
    counts = np.array([len(ring) for ring in points], dtype=np.intp)
    return np.ascontiguousarray(flat[:, 0]), np.ascontiguousarray(flat[:, 1]), counts


def _rings_numpy(index: SightIndex, centre: FloatArray, radius: float) -> list[FloatArray]:
    """``_rings`` in NumPy (the fallback without the compiled kernel)."""
    arc = np.linspace(-np.pi, np.pi, _ARC_RAYS, endpoint=False)
    # Per origin: the vertices near it (corners where the outline may turn).
    owners, vertex_ids = [], []
    for number, (ox, oy) in enumerate(centre.tolist()):
        dx, dy = index.vertices[:, 0] - ox, index.vertices[:, 1] - oy
        near = (dx * dx + dy * dy <= radius * radius) & (
            (np.abs(dx) > 1e-12) | (np.abs(dy) > 1e-12)
        )
        vertex_ids.append(np.flatnonzero(near))
        owners.append(np.full(int(near.sum()), number))
    owner = np.concatenate(owners)
    vertex_id = np.concatenate(vertex_ids)
    corner = index.vertices[vertex_id]
    # Only corners an origin sees can bend its outline; stop a hair short of each corner
    # so that its own walls do not count as blocking it.
    short_of = centre[owner] + (corner - centre[owner]) * (1 - 1e-9)
    seen = ~_blocked_from(index, centre, owner, vertex_id, short_of)
    owner, corner = owner[seen], corner[seen]
    corner_angle = np.arctan2(corner[:, 1] - centre[owner, 1], corner[:, 0] - centre[owner, 0])
    ray_owner = np.concatenate([owner, owner, np.repeat(np.arange(len(centre)), _ARC_RAYS)])
    ray_angle = np.concatenate(
        [corner_angle - _SLIP, corner_angle + _SLIP, np.tile(arc, len(centre))]
    )
    starts = centre[ray_owner]
    far = starts + radius * np.column_stack([np.cos(ray_angle), np.sin(ray_angle)])
    t, _ = first_hits(index.grid, starts, far, nearest=True)
    t = np.where(np.isfinite(t), t, 1.0)[:, None]
    points = np.vstack([starts + (far - starts) * t, corner])
    point_owner = np.concatenate([ray_owner, owner])
    point_angle = np.concatenate([ray_angle, corner_angle])
    # By origin, then by angle: a seen corner sorts between the rays slipping past it.
    order = np.lexsort((point_angle, point_owner))
    points, point_owner = points[order], point_owner[order]
    splits = np.searchsorted(point_owner, np.arange(1, len(centre)))
    return np.split(points, splits)


#: Origins within this many squares of each other share one hint walk per vertex.
_HINT_SPREAD = 2.0


def _blocked_from(
    index: SightIndex,
    centre: FloatArray,
    owner: IntArray,
    vertex_id: IntArray,
    short_of: FloatArray,
) -> NDArray[np.bool_]:
    """Whether something blocks the line from each origin to (just short of) its vertex.

    Origins close together (a token's sight corners) mostly lose a vertex behind the same
    wall, so one walk from their middle to each vertex proposes a wall to try on every
    origin's line; only the lines it does not block are walked. The answer is the same as
    walking every line, because the proposed wall is checked with the same touch test
    that the walk uses, and the walk would meet it.
    """
    grid = index.grid
    starts = centre[owner]
    blocked = np.zeros(len(owner), dtype=bool)
    low, high = centre.min(axis=0), centre.max(axis=0)
    if len(centre) > 1 and len(owner) and float((high - low).max()) <= _HINT_SPREAD:
        middle = (low + high) / 2
        unique, back = np.unique(vertex_id, return_inverse=True)
        target = index.vertices[unique]
        hint_starts = np.tile(middle, (len(unique), 1))
        _, wall = first_hits(grid, hint_starts, middle + (target - middle) * (1 - 1e-9))
        hint = wall[back]
        tried = np.flatnonzero(hint >= 0)
        blocked[tried] = touches(grid, starts[tried], short_of[tried], hint[tried])
    rest = np.flatnonzero(~blocked)
    hidden, _ = first_hits(grid, starts[rest], short_of[rest])
    blocked[rest] = np.isfinite(hidden)
    return blocked


@dataclass(frozen=True)
class VisibleSquares:
    """What a token sees: the squares, and the regions seen from its sight corners.

    ``regions`` holds one polygon per sight corner and ``shape`` their union; both are
    worked out the first time they are asked for (they cost more than the squares).
    """

    squares: frozenset[Square]
    outlines: Outlines = field(repr=False, compare=False)  # one ring per sight corner
    index: SightIndex = field(repr=False, compare=False)

    @cached_property
    def regions(self) -> tuple[shapely.Geometry, ...]:
        return tuple(_polygons(self.index, _split(self.outlines)))

    @cached_property
    def shape(self) -> shapely.Geometry:
        return shapely.union_all(self.regions)


def visible_squares(battlemap: BattleMap, token: Token, radius: float) -> VisibleSquares:
    """The squares ``token`` sees whose centres lie within ``radius`` squares of its centre."""
    check_token(battlemap, token)
    index = sight_index(battlemap)
    corners = sight_corners(_outer_squares(token))
    reach = radius + token.size / 2 + 1.5  # corners of squares at the edge of the radius
    outlines = _outlines(index, battlemap, [(x, y) for x, y in corners.tolist()], reach)
    xs, ys, _ = outlines
    centre_x = token.square.x + token.size / 2
    centre_y = token.square.y + token.size / 2
    lo_x = max(0, int(np.floor(max(centre_x - radius, xs.min() - 1))))
    hi_x = min(battlemap.width - 1, int(np.ceil(min(centre_x + radius, xs.max()))))
    lo_y = max(0, int(np.floor(max(centre_y - radius, ys.min() - 1))))
    hi_y = min(battlemap.height - 1, int(np.ceil(min(centre_y + radius, ys.max()))))
    box = (lo_x, lo_y, hi_x - lo_x + 1, hi_y - lo_y + 1)
    centre = (centre_x, centre_y)
    if KERNEL_BUILT:
        seen = seen_squares_kernel(outlines, box, CORNER_INSET, centre, radius)
    else:
        seen = _seen_squares_numpy(_split(outlines), box, centre, radius)
    own = [s for s in token.squares if lo_x <= s.x <= hi_x and lo_y <= s.y <= hi_y]
    for square in own:  # a token always sees its own squares
        seen[square.y - lo_y, square.x - lo_x] = True
    rows, columns = np.nonzero(seen)
    squares = squares_at(battlemap, columns + lo_x, rows + lo_y)
    if len(own) < token.size * token.size:
        squares |= frozenset(token.squares)
    return VisibleSquares(squares, outlines, index)


def _seen_squares_numpy(
    rings: Sequence[FloatArray],
    box: tuple[int, int, int, int],
    centre: tuple[float, float],
    radius: float,
) -> NDArray[np.bool_]:
    """``seen_squares_kernel`` in NumPy: a (height, width) mask of the box's squares."""
    lo_x, lo_y, width, height = box
    columns, rows = np.arange(lo_x, lo_x + width), np.arange(lo_y, lo_y + height)
    # Each square's sight corners: two lattice columns and two lattice rows per square.
    row, first, stop = lattice_runs(
        rings, (columns[:, None] + _INSETS).ravel(), (rows[:, None] + _INSETS).ravel()
    )
    # A run of corners seen marks the squares those corners belong to.
    first_column, last_column = first // 2, (stop - 1) // 2
    lengths = last_column - first_column + 1
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    seen = np.zeros((height, width), dtype=bool)
    seen[np.repeat(row // 2, lengths), np.repeat(first_column, lengths) + offsets] = True
    dx, dy = columns + 0.5 - centre[0], rows[:, None] + 0.5 - centre[1]
    seen &= dx * dx + dy * dy <= radius * radius
    return seen


#: A sight corner's offsets within its square, along either axis (see los.CORNER_INSET).
_INSETS = np.array([CORNER_INSET, 1 - CORNER_INSET])


def _outer_squares(token: Token) -> list[Square]:
    """The squares of a token on its rim; inner squares see nothing the rim does not."""
    last = token.size - 1
    return [
        s
        for s in token.squares
        if s.x in (token.square.x, token.square.x + last)
        or s.y in (token.square.y, token.square.y + last)
    ]
