"""Which steps between neighbouring squares a map's walls, doors and cover cut.

A step from one square to a neighbour is the segment between the two square centres.
A wall (or a door, or the outline of a movement-blocking cover object) cuts the step when
it touches that segment anywhere, ends included. Because a diagonal step passes exactly
through the corner the four squares share, any wall touching that corner cuts it: this is
the "no cutting a wall corner" rule, and it also forbids squeezing diagonally past the end
of a wall.

Everything here is vectorised with NumPy: a 200x200 map with 2,000 walls is a few hundred
thousand segment tests, done in one pass instead of a Python loop.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.battlemap import BattleMap
from engine.grid import NEIGHBOUR_STEPS, Square

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: Index in ``NEIGHBOUR_STEPS`` of the step in the opposite direction.
OPPOSITE: tuple[int, ...] = tuple(NEIGHBOUR_STEPS.index((-dx, -dy)) for dx, dy in NEIGHBOUR_STEPS)
#: The four steps that reach every undirected edge once: east, south, south-east, south-west.
FORWARD: tuple[int, ...] = tuple(
    NEIGHBOUR_STEPS.index(step) for step in ((1, 0), (0, 1), (1, 1), (-1, 1))
)

_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Cuts:
    """The static result: per square, a bit per open step; plus the steps doors cross.

    ``open_bits[y * width + x]`` has bit ``k`` set when the step ``NEIGHBOUR_STEPS[k]``
    from square (x, y) stays on the map and no wall or blocking cover cuts it.
    ``portal_edges`` maps each undirected step (the two squares, sorted) to the ids of
    the doors and windows it crosses; ``impassable`` lists squares inside blocking cover.
    """

    width: int
    height: int
    open_bits: list[int]
    portal_edges: dict[tuple[Square, Square], tuple[str, ...]]
    impassable: frozenset[Square]


def _segments_touch(
    p1: FloatArray, p2: FloatArray, q1: FloatArray, q2: FloatArray
) -> NDArray[np.bool_]:
    """Closed segment intersection, row by row (touching ends count)."""

    def cross(a: FloatArray, b: FloatArray, c: FloatArray) -> FloatArray:
        result: FloatArray = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (
            c[:, 0] - a[:, 0]
        )
        return result

    d1, d2 = cross(q1, q2, p1), cross(q1, q2, p2)
    d3, d4 = cross(p1, p2, q1), cross(p1, p2, q2)
    proper = (d1 * d2 <= _EPS) & (d3 * d4 <= _EPS)
    collinear = (np.abs(d1) <= _EPS) & (np.abs(d2) <= _EPS)
    overlap = (
        (np.maximum(p1[:, 0], p2[:, 0]) >= np.minimum(q1[:, 0], q2[:, 0]) - _EPS)
        & (np.maximum(q1[:, 0], q2[:, 0]) >= np.minimum(p1[:, 0], p2[:, 0]) - _EPS)
        & (np.maximum(p1[:, 1], p2[:, 1]) >= np.minimum(q1[:, 1], q2[:, 1]) - _EPS)
        & (np.maximum(q1[:, 1], q2[:, 1]) >= np.minimum(p1[:, 1], p2[:, 1]) - _EPS)
    )
    touched: NDArray[np.bool_] = np.where(collinear, overlap, proper)
    return touched


def cut_steps(
    segments: FloatArray, width: int, height: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Every forward step cut by a segment: (segment index, x, y, step index) arrays.

    ``segments`` has one row ``(x1, y1, x2, y2)`` per wall, in square units.
    """
    empty = np.zeros(0, dtype=np.int64)
    if len(segments) == 0:
        return empty, empty, empty, empty
    # Squares whose forward steps could touch the segment. A forward step from square
    # (x, y) spans x - 0.5 .. x + 1.5 across and y + 0.5 .. y + 1.5 down.
    low_x = np.minimum(segments[:, 0], segments[:, 2])
    high_x = np.maximum(segments[:, 0], segments[:, 2])
    low_y = np.minimum(segments[:, 1], segments[:, 3])
    high_y = np.maximum(segments[:, 1], segments[:, 3])
    x0 = np.clip(np.ceil(low_x - 1.5 - _EPS), 0, width - 1)
    x1 = np.clip(np.floor(high_x + 0.5 + _EPS), 0, width - 1)
    y0 = np.clip(np.ceil(low_y - 1.5 - _EPS), 0, height - 1)
    y1 = np.clip(np.floor(high_y - 0.5 + _EPS), 0, height - 1)
    # A segment off the map on one side leaves an empty range: count it as none.
    x1 = np.maximum(x1, x0 - 1)
    y1 = np.maximum(y1, y0 - 1)
    spans_x = (x1 - x0 + 1).astype(np.int64)
    spans_y = (y1 - y0 + 1).astype(np.int64)
    counts = spans_x * spans_y
    owner = np.repeat(np.arange(len(segments)), counts)
    offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    sx = x0.astype(np.int64)[owner] + offsets % spans_x[owner]
    sy = y0.astype(np.int64)[owner] + offsets // spans_x[owner]

    steps = np.array([NEIGHBOUR_STEPS[k] for k in FORWARD], dtype=np.int64)
    n = len(owner)
    owner4 = np.tile(owner, 4)
    sx4, sy4 = np.tile(sx, 4), np.tile(sy, 4)
    step4 = np.repeat(np.arange(4), n)
    tx, ty = sx4 + steps[step4, 0], sy4 + steps[step4, 1]
    on_map = (tx >= 0) & (tx < width) & (ty < height)
    owner4, sx4, sy4, step4, tx, ty = (a[on_map] for a in (owner4, sx4, sy4, step4, tx, ty))

    p1 = np.stack([sx4 + 0.5, sy4 + 0.5], axis=1)
    p2 = np.stack([tx + 0.5, ty + 0.5], axis=1)
    seg = segments[owner4]
    hit = _segments_touch(p1, p2, seg[:, 0:2], seg[:, 2:4])
    forward = np.array(FORWARD, dtype=np.int64)
    return owner4[hit], sx4[hit], sy4[hit], forward[step4[hit]]


def _blocking_segments(battlemap: BattleMap) -> FloatArray:
    rows = [(*w.start, *w.end) for w in battlemap.walls if w.blocks_movement]
    for cover in battlemap.cover:
        if cover.blocks_movement:
            ring = (*cover.outline, cover.outline[0])
            rows.extend((*a, *b) for a, b in itertools.pairwise(ring))
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


def _squares_inside_cover(battlemap: BattleMap) -> frozenset[Square]:
    inside: set[Square] = set()
    for cover in battlemap.cover:
        if not cover.blocks_movement:
            continue
        polygon = shapely.Polygon(cover.outline)
        minx, miny, maxx, maxy = polygon.bounds
        xs, ys = np.meshgrid(
            np.arange(max(0, int(minx)), min(battlemap.width, int(np.ceil(maxx)))),
            np.arange(max(0, int(miny)), min(battlemap.height, int(np.ceil(maxy)))),
        )
        column, row = xs.ravel(), ys.ravel()
        within = shapely.contains_xy(polygon, column + 0.5, row + 0.5)
        inside.update(
            Square(int(x), int(y)) for x, y in zip(column[within], row[within], strict=True)
        )
    return frozenset(inside)


#: The last few maps' cuts, by their fixed parts (walls, cover, size, doors' places): a
#: door toggle keeps them, and the movement graph and the rules' step checks share them.
_RECENT_CUTS: list[tuple[tuple[object, ...], Cuts]] = []
CUTS_KEPT = 4


def _fixed_parts(battlemap: BattleMap) -> tuple[object, ...]:
    portals = tuple((p.id, p.start, p.end) for p in battlemap.portals)
    return (battlemap.width, battlemap.height, battlemap.walls, battlemap.cover, portals)


def compute_cuts(battlemap: BattleMap) -> Cuts:
    """Walls and cover cut steps for good; doors and windows are listed per step.

    The answer is kept for the last few maps (``_RECENT_CUTS``): the walls and cover
    tuples are matched by identity first, as door changes and new states keep them.
    """
    key = _fixed_parts(battlemap)
    for known, cuts in _RECENT_CUTS:
        if all(a is b for a, b in zip(known[2:4], key[2:4], strict=True)) and known == key:
            return cuts
    cuts = _compute_cuts(battlemap)
    _RECENT_CUTS.insert(0, (key, cuts))
    del _RECENT_CUTS[CUTS_KEPT:]
    return cuts


def _compute_cuts(battlemap: BattleMap) -> Cuts:
    width, height = battlemap.width, battlemap.height
    cut = np.zeros((len(NEIGHBOUR_STEPS), height, width), dtype=bool)
    # Steps off the map are cut.
    for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
        if dx == 1:
            cut[k, :, width - 1] = True
        if dx == -1:
            cut[k, :, 0] = True
        if dy == 1:
            cut[k, height - 1, :] = True
        if dy == -1:
            cut[k, 0, :] = True
    _, sx, sy, step = cut_steps(_blocking_segments(battlemap), width, height)
    cut[step, sy, sx] = True
    steps = np.array(NEIGHBOUR_STEPS, dtype=np.int64)
    opposite = np.array(OPPOSITE, dtype=np.int64)
    cut[opposite[step], sy + steps[step, 1], sx + steps[step, 0]] = True

    weights = (1 << np.arange(len(NEIGHBOUR_STEPS), dtype=np.int64)).reshape(-1, 1, 1)
    bits = ((~cut).astype(np.int64) * weights).sum(axis=0)

    portal_edges: dict[tuple[Square, Square], tuple[str, ...]] = {}
    portal_rows = np.array(
        [(*p.start, *p.end) for p in battlemap.portals], dtype=np.float64
    ).reshape(-1, 4)
    owners, px, py, pstep = cut_steps(portal_rows, width, height)
    for owner, x, y, k in zip(
        owners.tolist(), px.tolist(), py.tolist(), pstep.tolist(), strict=True
    ):
        dx, dy = NEIGHBOUR_STEPS[k]
        key = edge_key(Square(x, y), Square(x + dx, y + dy))
        portal_edges[key] = (*portal_edges.get(key, ()), battlemap.portals[owner].id)
    return Cuts(
        width, height, bits.ravel().tolist(), portal_edges, _squares_inside_cover(battlemap)
    )


def edge_key(a: Square, b: Square) -> tuple[Square, Square]:
    """An undirected step as a sorted pair of squares."""
    return (a, b) if a <= b else (b, a)
