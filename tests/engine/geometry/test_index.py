"""The per-map sight index: built afresh, and derived in place after a door toggle.

The reference is the index as it was first written (a Python loop per segment for the
free-end pull-back and the bucket grid, NumPy row uniques for the vertices): the fast
build and the in-place derivation must give exactly its arrays.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, CoverGrade, CoverObject, Portal, PortalKind, PortalState
from engine.geometry import _index
from engine.geometry._index import FREE_END_TOLERANCE, sight_index
from engine.geometry._march import BUCKET_MARGIN, CELL
from tests.engine.geometry.strategies import SIZE, walls

STATES = st.sampled_from([PortalState.OPEN, PortalState.CLOSED, PortalState.LOCKED])


@st.composite
def portals(draw: st.DrawFn, number: int) -> Portal:
    """A door or window on a grid line, one square long, or along a free diagonal."""
    x, y = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
    end = draw(st.sampled_from([(x + 1, y), (x, y + 1), (x + 1, y + 1)]))
    kind = draw(st.sampled_from([PortalKind.DOOR, PortalKind.WINDOW]))
    return Portal(f"p{number}", (float(x), float(y)), end, kind, draw(STATES))


@st.composite
def maps_with_doors(draw: st.DrawFn) -> BattleMap:
    count = draw(st.integers(1, 5))
    doors = tuple(draw(portals(n)) for n in range(count))
    cover: tuple[CoverObject, ...] = ()
    if draw(st.booleans()):
        x, y = draw(st.integers(0, SIZE - 2)), draw(st.integers(0, SIZE - 2))
        outline = ((x, y), (x + 1.5, y), (x + 1.5, y + 1), (x, y + 1))
        cover = (CoverObject("c1", "crates", outline, CoverGrade.TOTAL, blocks_sight=True),)
    return BattleMap(
        SIZE, SIZE, walls=tuple(draw(st.lists(walls, max_size=12))), portals=doors, cover=cover
    )


def reference_segments(battlemap: BattleMap) -> tuple[np.ndarray, tuple[str, ...]]:
    raw = []
    for wall in battlemap.walls:
        if wall.blocks_sight:
            raw.append((wall.start, wall.end, "a wall"))
    for portal in battlemap.portals:
        if portal.blocks_sight and portal.start != portal.end:
            raw.append((portal.start, portal.end, f"the closed {portal.label}"))
    for item in battlemap.cover:
        if item.blocks_sight:
            for a, b in pairwise((*item.outline, item.outline[0])):
                if a != b:
                    raw.append((a, b, f"the {item.name}"))

    def key(point: tuple[float, float]) -> tuple[float, float]:
        return (round(point[0], 6), round(point[1], 6))

    degree = Counter(key(p) for start, end, _ in raw for p in (start, end))
    rows = []
    for start, end, _ in raw:
        (x1, y1), (x2, y2) = start, end
        length = float(np.hypot(x2 - x1, y2 - y1))
        shift = min(FREE_END_TOLERANCE, length / 4) / length
        dx, dy = (x2 - x1) * shift, (y2 - y1) * shift
        if degree[key(start)] == 1:
            x1, y1 = x1 + dx, y1 + dy
        if degree[key(end)] == 1:
            x2, y2 = x2 - dx, y2 - dy
        rows.append((x1, y1, x2, y2))
    return np.array(rows, dtype=np.float64).reshape(-1, 4), tuple(d for *_, d in raw)


def reference_vertices(segments: np.ndarray) -> np.ndarray:
    if not len(segments):
        return np.zeros((0, 2))
    lines = shapely.linestrings(segments.reshape(-1, 2, 2))
    first, second = shapely.STRtree(lines).query(lines, predicate="intersects")
    keep = first < second
    meets = shapely.intersection(lines[first[keep]], lines[second[keep]])
    points = np.vstack([segments.reshape(-1, 2), shapely.get_coordinates(meets)])
    return np.unique(points, axis=0)


def reference_buckets(segments: np.ndarray, width: int, height: int) -> tuple[list[int], list[int]]:
    columns, rows = max(1, int(np.ceil(width / CELL))), max(1, int(np.ceil(height / CELL)))
    entries = []
    for wall, (x1, y1, x2, y2) in enumerate(segments.tolist()):
        lo_x = int(np.clip(np.floor((min(x1, x2) - BUCKET_MARGIN) / CELL), 0, columns - 1))
        hi_x = int(np.clip(np.floor((max(x1, x2) + BUCKET_MARGIN) / CELL), 0, columns - 1))
        lo_y = int(np.clip(np.floor((min(y1, y2) - BUCKET_MARGIN) / CELL), 0, rows - 1))
        hi_y = int(np.clip(np.floor((max(y1, y2) + BUCKET_MARGIN) / CELL), 0, rows - 1))
        for cy in range(lo_y, hi_y + 1):
            for cx in range(lo_x, hi_x + 1):
                entries.append((cy * columns + cx, wall))
    entries.sort()
    counts = np.bincount([c for c, _ in entries], minlength=columns * rows)
    return [0, *np.cumsum(counts).tolist()], [w for _, w in entries]


def assert_matches_reference(battlemap: BattleMap, index: _index.SightIndex) -> None:
    segments, descriptions = reference_segments(battlemap)
    assert np.array_equal(index.segments, segments)
    assert index.descriptions == descriptions
    assert np.array_equal(index.vertices, reference_vertices(segments))
    start, walls_by_cell = reference_buckets(segments, battlemap.width, battlemap.height)
    assert index.grid.cell_start.tolist() == start
    assert index.grid.cell_walls.tolist() == walls_by_cell
    assert np.array_equal(index.grid.x1, segments[:, 0])


@settings(max_examples=120, deadline=None)
@given(maps_with_doors())
def test_a_fresh_index_matches_the_reference(battlemap: BattleMap) -> None:
    assert_matches_reference(battlemap, _index._build(battlemap))


@settings(max_examples=120, deadline=None)
@given(maps_with_doors(), st.lists(st.tuples(st.integers(0, 4), STATES), min_size=1, max_size=6))
def test_an_index_derived_after_door_changes_matches_a_fresh_one(
    battlemap: BattleMap, changes: list[tuple[int, PortalState]]
) -> None:
    index = _index._build(battlemap)
    for number, state in changes:
        portal = battlemap.portals[number % len(battlemap.portals)]
        battlemap = battlemap.with_portal_state(portal.id, state)
        index = _index._derive(index, battlemap)
        assert_matches_reference(battlemap, index)


def test_sight_index_derives_a_toggled_door_s_map_from_the_last_one() -> None:
    # The lookup path the app takes: the map after a toggle shares the walls tuple.
    door = Portal("d", (2.0, 0.0), (2.0, 1.0), PortalKind.DOOR, PortalState.CLOSED)
    battlemap = BattleMap(4, 4, walls=(), portals=(door,))
    closed = sight_index(battlemap)
    opened_map = battlemap.with_portal_state("d", PortalState.OPEN)
    opened = sight_index(opened_map)
    assert len(closed.segments) == 1 and len(opened.segments) == 0
    assert opened.candidates is closed.candidates  # derived, not rebuilt
    assert_matches_reference(opened_map, opened)
