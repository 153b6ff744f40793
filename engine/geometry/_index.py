"""Per-map derived structures (sight blockers, their spatial index), cached by map identity.

A ``BattleMap`` is immutable, so whatever we derive from it stays valid as long as the
map does. Hashing a map with thousands of walls costs milliseconds, so the cache looks
maps up by identity first and only falls back to hashing for an equal copy.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import pairwise
from typing import Generic, TypeVar

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry._march import WallGrid, build_wall_grid, rebucket
from engine.grid import Point, Square

#: A wall end that no other sight-blocking segment shares is pulled back by this much, so a
#: line that only touches the very end of a wall is not blocked (a grazing line sees past it).
FREE_END_TOLERANCE = 1e-4

FloatArray = NDArray[np.float64]
K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Candidates:
    """Every segment of a map that may block sight, whatever its doors' states.

    Walls and cover edges block or not for good; a door or window blocks while it is
    shut. Rows keep the order the index lists blockers in (walls, portals, cover), so the
    index of a map is the candidates that block now, in this order.
    """

    raw: FloatArray  # (n, 4) ends as drawn, before free ends are pulled back
    descriptions: tuple[str, ...]
    #: each row's place in the map's portals, -1 for walls and cover
    portal_of: NDArray[np.intp]
    #: (n, 2): which distinct point (rounded to 6 decimals) each end is, and how many there are
    end_keys: NDArray[np.intp]
    keys: int


@dataclass(frozen=True)
class Meets:
    """Where pairs of blocking segments meet: the pairs (candidate rows, lower first), and
    for each point of ``points``, the pair it belongs to."""

    pairs: NDArray[np.intp]  # (m, 2)
    points: FloatArray  # (k, 2)
    owner: NDArray[np.intp]  # (k,) row of ``pairs``


@dataclass(frozen=True, eq=False)
class SightIndex:
    """What blocks sight on one map, as Shapely geometry and as plain segment arrays.

    ``segments`` has one row ``(x1, y1, x2, y2)`` per sight-blocking segment (walls,
    closed doors, and the edges of sight-blocking cover objects), free ends pulled back.
    ``tree`` is an STRtree over ``lines``, the same segments as LineStrings (both made on
    first use: a sight line needs neither).
    ``vertices`` are the segments' ends and the points where two segments cross: the only
    places where the outline of what a point sees can turn.
    ``grid`` buckets the segments for the marching tests of ``_march``. ``vertices``
    are made on first use too (a visibility polygon needs them, a sight line does not).
    ``descriptions`` names each segment for the GM ("wall", "door 'd1'", "crates").
    ``rows`` are the segments' rows among the map's ``candidates``, and ``meets`` where
    they cross: what a door toggle needs to derive the next map's index in place.
    """

    segments: FloatArray
    bounds: shapely.Polygon
    grid: WallGrid
    candidates: Candidates
    rows: NDArray[np.intp]
    meets: Meets

    @cached_property
    def descriptions(self) -> tuple[str, ...]:
        return tuple(self.candidates.descriptions[i] for i in self.rows.tolist())

    @cached_property
    def vertices(self) -> FloatArray:
        return _vertices_of(self.segments, self.meets)

    @cached_property
    def lines(self) -> NDArray[np.object_]:
        if not len(self.segments):
            return np.empty(0, object)
        return np.asarray(shapely.linestrings(self.segments.reshape(-1, 2, 2)), dtype=object)

    @cached_property
    def tree(self) -> shapely.STRtree:
        return shapely.STRtree(self.lines)


def _candidates(battlemap: BattleMap) -> Candidates:
    raw: list[tuple[Point, Point]] = []
    descriptions: list[str] = []
    portal_of: list[int] = []
    for wall in battlemap.walls:
        if wall.blocks_sight:
            raw.append((wall.start, wall.end))
            descriptions.append("a wall")
            portal_of.append(-1)
    for number, portal in enumerate(battlemap.portals):
        if portal.start != portal.end:
            raw.append((portal.start, portal.end))
            descriptions.append(f"the closed {portal.label}")
            portal_of.append(number)
    for item in battlemap.cover:
        if item.blocks_sight:
            ring = (*item.outline, item.outline[0])
            for a, b in pairwise(ring):
                if a != b:
                    raw.append((a, b))
                    descriptions.append(f"the {item.name}")
                    portal_of.append(-1)
    rows = np.array([(*a, *b) for a, b in raw], dtype=np.float64).reshape(-1, 4)
    end_keys, keys = _end_keys(rows)
    portals = np.asarray(portal_of, dtype=np.intp)
    return Candidates(rows, tuple(descriptions), portals, end_keys, keys)


def _end_keys(raw: FloatArray) -> tuple[NDArray[np.intp], int]:
    """Number the distinct ends of the rows, matched rounded to 6 decimals."""
    if not len(raw):
        return np.zeros((0, 2), np.intp), 0
    # Python's round (correctly rounded) on each distinct value, as ends were always matched.
    values, back = np.unique(raw, return_inverse=True)
    rounded = np.array([round(v, 6) for v in values.tolist()], dtype=np.float64)
    ends = rounded[back.reshape(-1)].reshape(-1, 2)
    # One complex number per end: a far quicker unique than rows of an (n, 2) array.
    distinct, inverse = np.unique(ends[:, 0] + 1j * ends[:, 1], return_inverse=True)
    return inverse.reshape(-1, 2).astype(np.intp), len(distinct)


def _blocking_rows(candidates: Candidates, battlemap: BattleMap) -> NDArray[np.intp]:
    """The candidate rows that block sight on this map (its doors' states)."""
    shut = np.array([p.blocks_sight for p in battlemap.portals] + [True], dtype=bool)
    # Index -1 (walls and cover) reads the final True.
    return np.flatnonzero(shut[candidates.portal_of]).astype(np.intp)


def _pulled_back(candidates: Candidates, rows: NDArray[np.intp]) -> FloatArray:
    """The rows' segments with every free end (one no other row shares) pulled back.

    Ends are matched rounded to 6 decimals (``Candidates.end_keys``); the pull is
    FREE_END_TOLERANCE, or a quarter of the segment for a shorter one.
    """
    raw = candidates.raw[rows]
    if not len(raw):
        return raw
    keys = candidates.end_keys[rows]
    free = np.bincount(keys.reshape(-1), minlength=candidates.keys)[keys] == 1
    x1, y1, x2, y2 = (raw[:, k] for k in range(4))
    length = np.hypot(x2 - x1, y2 - y1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shift = np.minimum(FREE_END_TOLERANCE, length / 4) / length
    dx, dy = (x2 - x1) * shift, (y2 - y1) * shift
    out = raw.copy()
    out[:, 0] = np.where(free[:, 0], x1 + dx, x1)
    out[:, 1] = np.where(free[:, 0], y1 + dy, y1)
    out[:, 2] = np.where(free[:, 1], x2 - dx, x2)
    out[:, 3] = np.where(free[:, 1], y2 - dy, y2)
    return out


def _meets_of(
    lines: NDArray[np.object_],
    rows: NDArray[np.intp],
    first: NDArray[np.intp],
    second: NDArray[np.intp],
) -> Meets:
    """Meets of the line pairs (first[i], second[i]) (positions in ``lines``, first lower)."""
    if not len(first):
        return Meets(np.zeros((0, 2), np.intp), np.zeros((0, 2)), np.zeros(0, np.intp))
    shapes = shapely.intersection(lines[first], lines[second])
    points, owner = shapely.get_coordinates(shapes, return_index=True)
    pairs = np.column_stack([rows[first], rows[second]]).astype(np.intp)
    return Meets(pairs, points, owner.astype(np.intp))


def _join(kept: Meets, keep: NDArray[np.bool_], fresh: Meets) -> Meets:
    """``kept``'s pairs where ``keep`` holds, then ``fresh``'s."""
    renumber = np.cumsum(keep) - 1
    point_kept = keep[kept.owner]
    return Meets(
        np.vstack([kept.pairs[keep], fresh.pairs]),
        np.vstack([kept.points[point_kept], fresh.points]),
        np.concatenate([renumber[kept.owner[point_kept]], fresh.owner + int(keep.sum())]),
    )


def _vertices_of(segments: FloatArray, meets: Meets) -> FloatArray:
    if len(segments) == 0:
        return np.zeros((0, 2))
    points = np.vstack([segments.reshape(-1, 2), meets.points])
    # As np.unique(points, axis=0) (rows sorted by x, then y), done on complex numbers.
    distinct = np.unique(points[:, 0] + 1j * points[:, 1])
    unique: FloatArray = np.column_stack([distinct.real, distinct.imag])
    return unique


def _index(
    battlemap: BattleMap,
    candidates: Candidates,
    rows: NDArray[np.intp],
    segments: FloatArray,
    meets: Meets,
    grid: WallGrid | None = None,
) -> SightIndex:
    return SightIndex(
        segments=segments,
        bounds=shapely.box(0, 0, battlemap.width, battlemap.height),
        grid=grid
        if grid is not None
        else build_wall_grid(segments, battlemap.width, battlemap.height),
        candidates=candidates,
        rows=rows,
        meets=meets,
    )


def _build(battlemap: BattleMap) -> SightIndex:
    candidates = _candidates(battlemap)
    rows = _blocking_rows(candidates, battlemap)
    segments = _pulled_back(candidates, rows)
    if not len(segments):
        return _index(battlemap, candidates, rows, segments, _no_meets())
    lines = np.asarray(shapely.linestrings(segments.reshape(-1, 2, 2)), dtype=object)
    tree = shapely.STRtree(lines)
    first, second = tree.query(lines, predicate="intersects")
    keep = first < second
    index = _index(
        battlemap, candidates, rows, segments, _meets_of(lines, rows, first[keep], second[keep])
    )
    index.__dict__.update(lines=lines, tree=tree)  # what the cached properties would make
    return index


def _no_meets() -> Meets:
    return Meets(np.zeros((0, 2), np.intp), np.zeros((0, 2)), np.zeros(0, np.intp))


def _derive(old: SightIndex, battlemap: BattleMap) -> SightIndex:
    """The index of ``battlemap``, a map whose only difference from ``old``'s is the state of
    some doors: rows that did not move keep their crossings and buckets; only the rows a
    door added or whose free ends changed are intersected and bucketed afresh. The result
    equals ``_build``'s."""
    candidates = old.candidates
    rows = _blocking_rows(candidates, battlemap)
    segments = _pulled_back(candidates, rows)
    # A row is unchanged when it blocked before with the very same (pulled-back) ends.
    before = np.full(len(candidates.raw), -1, dtype=np.intp)
    before[old.rows] = np.arange(len(old.rows))
    was = before[rows]
    same = was >= 0
    same[same] = np.all(old.segments[was[same]] == segments[same], axis=1)
    steady = np.zeros(len(candidates.raw), dtype=bool)
    steady[rows[same]] = True
    keep = steady[old.meets.pairs[:, 0]] & steady[old.meets.pairs[:, 1]]
    changed = np.flatnonzero(~same)
    fresh = _crossings(segments, rows, changed) if len(changed) else _no_meets()
    meets = _join(old.meets, keep, fresh)
    if not len(old.segments) or not len(segments):
        return _index(battlemap, candidates, rows, segments, meets)
    after = np.full(len(candidates.raw), -1, dtype=np.intp)
    after[rows] = np.arange(len(rows))
    renumber = after[old.rows]
    dropped = (renumber < 0) | ~steady[old.rows]
    grid = rebucket(old.grid, segments, renumber, dropped, changed)
    return _index(battlemap, candidates, rows, segments, meets, grid)


def _crossings(segments: FloatArray, rows: NDArray[np.intp], changed: NDArray[np.intp]) -> Meets:
    """Meets of every pair with at least one ``changed`` segment (positions in ``segments``)."""
    low = np.minimum(segments[:, :2], segments[:, 2:])
    high = np.maximum(segments[:, :2], segments[:, 2:])
    lines: dict[int, shapely.LineString] = {}

    def line(i: int) -> shapely.LineString:
        if i not in lines:
            lines[i] = shapely.LineString(segments[i].reshape(2, 2))
        return lines[i]

    pairs: set[tuple[int, int]] = set()
    for a in changed.tolist():
        # Candidates by bounding box, then the exact test (as the R-tree query does).
        near = np.flatnonzero(np.all(low <= high[a], axis=1) & np.all(high >= low[a], axis=1))
        near = near[near != a]
        if not len(near):
            continue
        others = np.array([line(b) for b in near.tolist()], dtype=object)
        hits = near[shapely.intersects(line(a), others)]
        pairs.update((min(a, b), max(a, b)) for b in hits.tolist())
    ordered = np.array(sorted(pairs), dtype=np.intp).reshape(-1, 2)
    table = np.empty(len(segments), dtype=object)
    for i in set(ordered.reshape(-1).tolist()):
        table[i] = line(i)
    return _meets_of(table, rows, ordered[:, 0], ordered[:, 1])


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


#: The last few maps indexed, newest last: a door toggle derives from one of them.
_recent: deque[tuple[BattleMap, SightIndex]] = deque(maxlen=4)


def _doors_differ_only(old: BattleMap, new: BattleMap) -> bool:
    """Same walls and cover (the very tuples, as door changes keep them), size and doors."""
    if old.walls is not new.walls or old.cover is not new.cover:
        return False
    if (old.width, old.height) != (new.width, new.height) or len(old.portals) != len(new.portals):
        return False
    return all(
        (p.id, p.start, p.end, p.kind) == (q.id, q.start, q.end, q.kind)
        for p, q in zip(old.portals, new.portals, strict=True)
    )


def _lookup(battlemap: BattleMap) -> SightIndex:
    """A map's index: derived in place from a recent map that differs only in its doors
    (a door opened or closed), else built (or found by value)."""
    for old_map, old_index in reversed(_recent):
        if _doors_differ_only(old_map, battlemap):
            index = _derive(old_index, battlemap)
            break
    else:
        index = _by_value(battlemap)
    _recent.append((battlemap, index))
    return index


class IdentityCache(Generic[K, V]):
    """A small cache keyed by object identity, for immutable values that are slow to hash.

    Holding the key keeps its id from being reused while the entry lives.
    """

    def __init__(self, build: Callable[[K], V], slots: int = 8) -> None:
        self._build = build
        self._slots = slots
        self._entries: OrderedDict[int, tuple[K, V]] = OrderedDict()
        # A background thread may warm an entry (the desktop does, after its first frame).
        self._lock = threading.RLock()

    def __call__(self, key: K) -> V:
        with self._lock:
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
sight_index: IdentityCache[BattleMap, SightIndex] = IdentityCache(_lookup)


def _occupancy(encounter: EncounterState) -> dict[Square, str]:
    return {square: token.id for token in encounter.tokens for square in token.squares}


def _token_order(encounter: EncounterState) -> dict[str, int]:
    return {token.id: number for number, token in enumerate(encounter.tokens)}


#: Which token id stands on each square of an encounter (cached per encounter value).
occupancy_of: IdentityCache[EncounterState, dict[Square, str]] = IdentityCache(_occupancy)
#: Each token id's place in the encounter's token order.
token_order: IdentityCache[EncounterState, dict[str, int]] = IdentityCache(_token_order)
