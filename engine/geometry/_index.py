"""Per-map derived structures (sight blockers, their spatial index), cached by map identity.

A ``BattleMap`` is immutable, so whatever we derive from it stays valid as long as the
map does. Hashing a map with thousands of walls costs milliseconds, so the cache looks
maps up by identity first and only falls back to hashing for an equal copy.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Generic, TypeVar

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry._march import WallGrid, build_wall_grid
from engine.grid import Point, Square

#: A wall end that no other sight-blocking segment shares is pulled back by this much, so a
#: line that only touches the very end of a wall is not blocked (a grazing line sees past it).
FREE_END_TOLERANCE = 1e-4

FloatArray = NDArray[np.float64]
K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, eq=False)
class SightIndex:
    """What blocks sight on one map, as Shapely geometry and as plain segment arrays.

    ``segments`` has one row ``(x1, y1, x2, y2)`` per sight-blocking segment (walls,
    closed doors, and the edges of sight-blocking cover objects), free ends pulled back.
    ``tree`` is an STRtree over ``lines``, the same segments as LineStrings.
    ``vertices`` are the segments' ends and the points where two segments cross: the only
    places where the outline of what a point sees can turn.
    ``grid`` buckets the segments for the marching tests of ``_march``.
    ``descriptions`` names each segment for the GM ("wall", "door 'd1'", "crates").
    """

    segments: FloatArray
    lines: NDArray[np.object_]
    tree: shapely.STRtree
    descriptions: tuple[str, ...]
    bounds: shapely.Polygon
    grid: WallGrid
    vertices: FloatArray


def _pull_back(start: Point, end: Point, move_start: bool, move_end: bool) -> tuple[Point, Point]:
    (x1, y1), (x2, y2) = start, end
    length = float(np.hypot(x2 - x1, y2 - y1))
    shift = min(FREE_END_TOLERANCE, length / 4) / length
    dx, dy = (x2 - x1) * shift, (y2 - y1) * shift
    if move_start:
        x1, y1 = x1 + dx, y1 + dy
    if move_end:
        x2, y2 = x2 - dx, y2 - dy
    return (x1, y1), (x2, y2)


def _key(point: Point) -> tuple[float, float]:
    return (round(point[0], 6), round(point[1], 6))


def _build(battlemap: BattleMap) -> SightIndex:
    raw: list[tuple[Point, Point, str]] = []
    for wall in battlemap.walls:
        if wall.blocks_sight:
            raw.append((wall.start, wall.end, "a wall"))
    for portal in battlemap.portals:
        if portal.blocks_sight and portal.start != portal.end:
            raw.append((portal.start, portal.end, f"the closed {portal.label}"))
    for item in battlemap.cover:
        if item.blocks_sight:
            ring = (*item.outline, item.outline[0])
            for a, b in pairwise(ring):
                if a != b:
                    raw.append((a, b, f"the {item.name}"))
    degree = Counter(_key(p) for start, end, _ in raw for p in (start, end))
    rows: list[tuple[float, float, float, float]] = []
    for start, end, _ in raw:
        (x1, y1), (x2, y2) = _pull_back(
            start, end, degree[_key(start)] == 1, degree[_key(end)] == 1
        )
        rows.append((x1, y1, x2, y2))
    segments = np.array(rows, dtype=np.float64).reshape(-1, 4)
    lines = shapely.linestrings(segments.reshape(-1, 2, 2)) if len(rows) else np.empty(0, object)
    bounds = shapely.box(0, 0, battlemap.width, battlemap.height)
    return SightIndex(
        segments=segments,
        lines=np.asarray(lines, dtype=object),
        tree=shapely.STRtree(lines),
        descriptions=tuple(d for _, _, d in raw),
        bounds=bounds,
        grid=build_wall_grid(segments, battlemap.width, battlemap.height),
        vertices=_vertices(segments, lines),
    )


def _vertices(segments: FloatArray, lines: NDArray[np.object_]) -> FloatArray:
    if len(segments) == 0:
        return np.zeros((0, 2))
    tree = shapely.STRtree(lines)
    first, second = tree.query(lines, predicate="intersects")
    keep = first < second
    meets = shapely.intersection(lines[first[keep]], lines[second[keep]])
    points = np.vstack([segments.reshape(-1, 2), shapely.get_coordinates(meets)])
    unique: FloatArray = np.unique(points, axis=0)
    return unique


@lru_cache(maxsize=4)
def square_table(width: int, height: int) -> NDArray[np.object_]:
    """Every ``Square`` of a width x height map, made once: ``table[y, x] == Square(x, y)``.

    Turning many index pairs into squares is then one lookup, not a constructor call each
    (which costs about a microsecond: a visibility answer can hold thousands).
    """
    every = (Square(x, y) for y in range(height) for x in range(width))
    table = np.fromiter(every, dtype=object, count=width * height).reshape(height, width)
    table.flags.writeable = False
    return table


def squares_at(
    battlemap: BattleMap, xs: NDArray[np.intp], ys: NDArray[np.intp]
) -> frozenset[Square]:
    """The squares ``(xs[i], ys[i])`` of the map (all on it), as a set, via ``square_table``."""
    table = square_table(battlemap.width, battlemap.height)
    return frozenset(table[ys, xs].tolist())


@lru_cache(maxsize=8)
def _by_value(battlemap: BattleMap) -> SightIndex:
    return _build(battlemap)


class IdentityCache(Generic[K, V]):
    """A small cache keyed by object identity, for immutable values that are slow to hash.

    Holding the key keeps its id from being reused while the entry lives.
    """

    def __init__(self, build: Callable[[K], V], slots: int = 8) -> None:
        self._build = build
        self._slots = slots
        self._entries: OrderedDict[int, tuple[K, V]] = OrderedDict()

    def __call__(self, key: K) -> V:
        hit = self._entries.get(id(key))
        if hit is not None and hit[0] is key:
            self._entries.move_to_end(id(key))
            return hit[1]
        value = self._build(key)
        self._entries[id(key)] = (key, value)
        while len(self._entries) > self._slots:
            self._entries.popitem(last=False)
        return value


#: The sight index of a map, built once per map (by identity first, then by value).
sight_index: IdentityCache[BattleMap, SightIndex] = IdentityCache(_by_value)


def _occupancy(encounter: EncounterState) -> dict[Square, str]:
    return {square: token.id for token in encounter.tokens for square in token.squares}


def _token_order(encounter: EncounterState) -> dict[str, int]:
    return {token.id: number for number, token in enumerate(encounter.tokens)}


#: Which token id stands on each square of an encounter (cached per encounter value).
occupancy_of: IdentityCache[EncounterState, dict[Square, str]] = IdentityCache(_occupancy)
#: Each token id's place in the encounter's token order.
token_order: IdentityCache[EncounterState, dict[str, int]] = IdentityCache(_token_order)
