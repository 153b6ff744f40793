"""Cave walls simplified by at most a tenth of a square; portal merging and doorway cutting."""

from __future__ import annotations

import math
import random
from pathlib import Path

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.files.uvtt_shapes import (
    SIMPLIFY_TOLERANCE,
    cut_out,
    merge_overlapping,
    polygon_outlines,
    simplify_polylines,
)
from engine.grid import Point
from tests.engine.files.uvtt_builders import document, import_map, point, write


def cave(seed: int, points: int = 600, radius: float = 8.0) -> list[Point]:
    """A rough cave outline: hundreds of tiny segments jittering around a circle."""
    rng = random.Random(seed)
    outline = []
    for i in range(points):
        angle = 2 * math.pi * i / points
        r = radius + 0.6 * math.sin(5 * angle) + rng.uniform(-0.08, 0.08)
        outline.append((10 + r * math.cos(angle), 10 + r * math.sin(angle)))
    return [*outline, outline[0]]


def _farthest(a: shapely.Geometry, b: shapely.Geometry) -> float:
    """How far any point of ``a`` lies from ``b`` (densified, so not just the vertices)."""
    dense = shapely.segmentize(a, 0.02)
    return float(max(b.distance(shapely.points(shapely.get_coordinates(dense)))))


def test_the_tolerance_is_under_a_tenth_of_a_square() -> None:
    assert 0 < SIMPLIFY_TOLERANCE <= 0.1


def test_a_cave_wall_of_600_segments_is_simplified_within_a_tenth_of_a_square(
    tmp_path: Path,
) -> None:
    outline = cave(seed=1)
    doc = document(size=(20, 20), line_of_sight=[[point(x, y) for x, y in outline]],
                   portals=[], objects_line_of_sight=[])
    imported = import_map(write(tmp_path / "cave.dd2vtt", doc))
    walls = shapely.MultiLineString([[w.start, w.end] for w in imported.state.battlemap.walls])
    original = shapely.LineString(outline)
    assert len(imported.state.battlemap.walls) < 600 / 2
    assert shapely.hausdorff_distance(original, walls, densify=0.1) <= 0.1
    assert _farthest(original, walls) <= 0.1 and _farthest(walls, original) <= 0.1


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    # Jitter small enough to make subnormal points is covered by the test below.
    jitter=st.just(0.0) | st.floats(1e-200, 0.5),
    count=st.integers(3, 300),
)
def test_no_simplified_wall_moves_more_than_a_tenth_of_a_square(
    seed: int, jitter: float, count: int
) -> None:
    rng = random.Random(seed)
    line = [(i * 0.05, rng.uniform(-jitter, jitter)) for i in range(count)]
    other = [(0.0, 3.0), *((i * 0.07, 3 + rng.uniform(-jitter, jitter)) for i in range(1, count))]
    simplified = simplify_polylines([line, other])
    assert len(simplified) == 2
    for before, after in zip([line, other], simplified, strict=True):
        assert after[0] == before[0] and after[-1] == before[-1]  # the ends never move
        assert set(after) <= set(before)  # only vertices are dropped
        a, b = shapely.LineString(before), shapely.LineString(after)
        assert _farthest(a, b) <= 0.1 and _farthest(b, a) <= 0.1  # the Hausdorff distance


def test_simplified_lines_never_cross_each_other() -> None:
    # A wall with a bump smaller than the tolerance, and a short wall ending under the bump.
    bumpy = [(0.0, 0.0), (4.8, 0.0), (5.0, 0.09), (5.2, 0.0), (10.0, 0.0)]
    spur = [(5.0, 0.05), (5.0, -1.0)]
    assert not shapely.LineString(bumpy).intersects(shapely.LineString(spur))
    (alone,) = simplify_polylines([bumpy])
    assert shapely.LineString(alone).intersects(shapely.LineString(spur))  # the bump is gone
    together, short = simplify_polylines([bumpy, spur])
    assert not shapely.LineString(together).intersects(shapely.LineString(short))


def test_a_small_polygon_keeps_an_area() -> None:
    (ring,) = polygon_outlines([(0.0, 0.0), (0.12, 0.0), (0.12, 0.12), (0.0, 0.12)])
    assert shapely.Polygon(ring).area > 0.0


def test_merging_keeps_double_door_leaves_apart() -> None:
    groups = merge_overlapping([
        ((0.0, 0.0), (1.0, 0.0)),
        ((1.0, 0.0), (2.0, 0.0)),      # touches the first end to end
        ((0.5, 0.0), (1.0, 0.0)),      # inside the first
        ((0.0, 1.0), (1.0, 1.0)),      # parallel, another line
    ])
    assert [(segment, sources) for segment, sources in groups] == [
        (((0.0, 0.0), (1.0, 0.0)), [0, 2]),
        (((1.0, 0.0), (2.0, 0.0)), [1]),
        (((0.0, 1.0), (1.0, 1.0)), [3]),
    ]


def test_cutting_leaves_walls_that_only_touch_a_door_alone() -> None:
    wall = ((0.0, 0.0), (4.0, 0.0))
    assert cut_out(wall, [((4.0, 0.0), (5.0, 0.0))]) == [wall]
    assert cut_out(wall, [((4.0, 0.0), (4.0, 1.0))]) == [wall]
    assert cut_out(wall, [((1.0, 0.0), (2.0, 0.0)), ((3.0, 0.0), (5.0, 0.0))]) == [
        ((0.0, 0.0), (1.0, 0.0)), ((2.0, 0.0), (3.0, 0.0)),
    ]


def test_a_piece_that_bridges_two_portals_merges_all_three() -> None:
    groups = merge_overlapping([
        ((0.0, 0.0), (1.0, 0.0)),
        ((2.0, 0.0), (3.0, 0.0)),
        ((0.5, 0.0), (2.5, 0.0)),  # overlaps both
    ])
    assert groups == [(((0.0, 0.0), (3.0, 0.0)), [0, 1, 2])]


def test_subnormal_coordinates_read_as_zero_instead_of_hanging_the_simplifier() -> None:
    # GEOS never returned on these (found by Hypothesis: a jitter of 5e-324).
    line = [(i * 0.05, 5e-324 if i % 2 else 0.0) for i in range(115)]
    (simplified,) = simplify_polylines([line])
    assert simplified == [(0.0, 0.0), (5.7, 0.0)]
    assert polygon_outlines([(0.0, 5e-324), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]) != []
