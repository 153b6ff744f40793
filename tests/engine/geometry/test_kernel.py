"""The compiled sight kernel gives the same answers as the NumPy reference it replaces."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.geometry import _march, visibility
from engine.geometry._index import sight_index
from engine.geometry._march import (
    KERNEL_BUILT,
    build_wall_grid,
    first_hits,
    first_hits_numpy,
    seen_squares_kernel,
    squares_see_kernel,
    touches,
    visibility_rings_kernel,
)
from engine.geometry.los import CORNER_INSET, squares_see_numpy
from tests.benchmarks.synthetic_map import make_big_map
from tests.engine.geometry.strategies import SIZE, maps

needs_kernel = pytest.mark.skipif(not KERNEL_BUILT, reason="the sight kernel is not compiled")

#: Segments from inside the map to anywhere near it (rays of the visibility polygon reach
#: past the edge), on a lattice fine enough to hit wall ends, joints and grid lines.
_points = st.tuples(
    st.integers(-8, SIZE * 8 + 8).map(lambda v: v / 8),
    st.integers(-8, SIZE * 8 + 8).map(lambda v: v / 8),
)
_segments = st.lists(st.tuples(_points, _points), min_size=1, max_size=20)


def test_the_kernel_is_compiled_where_a_compiler_is() -> None:
    """A failed build would only make Killbox slow, so say so loudly where it matters."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
    if not (compiler and headers):
        pytest.skip("no C compiler or Python headers here: Killbox runs its NumPy path")
    assert KERNEL_BUILT, "engine/geometry/_kernel.c was not compiled at install time"


def _as_arrays(
    segments: list[tuple[tuple[float, float], tuple[float, float]]],
) -> tuple[np.ndarray, np.ndarray]:
    array = np.asarray(segments, dtype=np.float64)
    return array[:, 0], array[:, 1]


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(maps, _segments, st.sampled_from([1.0, 2.0, 4.0]))
def test_first_hits_agree_with_numpy(
    battlemap: BattleMap,
    segments: list[tuple[tuple[float, float], tuple[float, float]]],
    cell: float,
) -> None:
    grid = build_wall_grid(sight_index(battlemap).segments, SIZE, SIZE, cell)
    starts, ends = _as_arrays(segments)
    # Any touch: the same segments are blocked, each by a wall that really touches it.
    t, wall = first_hits(grid, starts, ends)
    reference, _ = first_hits_numpy(grid, starts, ends)
    assert np.array_equal(np.isfinite(t), np.isfinite(reference))
    blocked = np.flatnonzero(wall >= 0)
    assert touches(grid, starts[blocked], ends[blocked], wall[blocked]).all()
    # The nearest touch: the same place along the segment.
    t, wall = first_hits(grid, starts, ends, nearest=True)
    reference, _ = first_hits_numpy(grid, starts, ends, nearest=True)
    assert np.array_equal(t, reference)
    assert np.array_equal(wall >= 0, np.isfinite(t))


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(
    maps,
    st.lists(
        st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)), min_size=2, max_size=40
    ),
)
def test_square_pairs_agree_with_numpy(battlemap: BattleMap, cells: list[tuple[int, int]]) -> None:
    grid = sight_index(battlemap).grid
    squares = np.asarray(cells, dtype=np.float64)
    a, b = squares[:-1], squares[1:]
    assert np.array_equal(
        squares_see_kernel(grid, a[:, 0], a[:, 1], b[:, 0], b[:, 1]), squares_see_numpy(grid, a, b)
    )


@needs_kernel
def test_kernel_agrees_on_the_benchmark_map() -> None:
    """Long lines through 2,000 walls, where the walk crosses many cells."""
    battlemap = make_big_map()
    grid = sight_index(battlemap).grid
    rng = np.random.default_rng(7)
    starts = rng.uniform(0, 200, size=(3000, 2))
    ends = rng.uniform(-20, 220, size=(3000, 2))
    for nearest in (False, True):
        t, _ = first_hits(grid, starts, ends, nearest)
        reference, _ = first_hits_numpy(grid, starts, ends, nearest)
        if nearest:
            assert np.array_equal(t, reference)
        else:
            assert np.array_equal(np.isfinite(t), np.isfinite(reference))
    a = rng.integers(0, 200, size=(3000, 2)).astype(np.float64)
    b = rng.integers(0, 200, size=(3000, 2)).astype(np.float64)
    seen = squares_see_kernel(grid, a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    assert np.array_equal(seen, squares_see_numpy(grid, a, b))
    assert 0 < seen.sum() < len(seen)  # the map has both answers


@needs_kernel
def test_a_corrupt_wall_grid_is_refused_not_read() -> None:
    grid = sight_index(BattleMap(4, 4)).grid
    kernel = _march._kernel
    assert kernel is not None
    no_walls = np.zeros(0)
    cell_start = np.zeros(grid.columns * grid.rows + 1, dtype=np.intp)
    cell_start[-1] = 1  # one wall listed...
    cell_walls = np.array([5], dtype=np.intp)  # ...that does not exist
    point = np.zeros(1)
    with pytest.raises(ValueError, match="names a wall that does not exist"):
        kernel.first_hits(
            no_walls, no_walls, no_walls, no_walls, cell_start, cell_walls,
            grid.columns, grid.rows, grid.cell,
            point, point, point, point, False, np.empty(1), np.empty(1, dtype=np.intp),
        )  # fmt: skip
    with pytest.raises(TypeError, match="items of 8 bytes"):
        kernel.first_hits(
            no_walls, no_walls, no_walls, no_walls, cell_start.astype(np.int32), cell_walls,
            grid.columns, grid.rows, grid.cell,
            point, point, point, point, False, np.empty(1), np.empty(1, dtype=np.intp),
        )  # fmt: skip


@needs_kernel
def test_outputs_and_cell_offsets_too_short_or_out_of_order_are_refused() -> None:
    """Review: out_t's length was never checked (only out_wall's), and cell_start was
    checked only at its two ends, so an offset past cell_walls was read. The arrays here
    are views into larger ones, so that today's stray writes and reads stay harmless."""
    grid = sight_index(BattleMap(4, 4)).grid
    kernel = _march._kernel
    assert kernel is not None
    one_wall = np.array([1.0])
    wall_end = np.array([3.0])
    points = np.array([0.5, 0.5])
    far = np.array([3.5, 3.5])
    room = np.full(4, -7.0)
    one_listed = np.r_[np.zeros(grid.columns * grid.rows, np.intp), 1]
    with pytest.raises(ValueError, match="too short"):
        kernel.first_hits(
            one_wall, one_wall, wall_end, wall_end, one_listed,
            np.zeros(1, np.intp), grid.columns, grid.rows, grid.cell,
            points, points, far, far, False, room[:1], np.empty(2, dtype=np.intp),
        )  # fmt: skip
    assert (room[1:] == -7.0).all()
    listed = np.zeros(8, dtype=np.intp)  # wall ids past the (empty) list: read if reached
    cell_start = np.array([0, 5, 5, 5, 0], dtype=np.intp)  # 2 x 2 cells: ends fine, middle not
    with pytest.raises(ValueError, match="cell_start"):
        kernel.first_hits(
            one_wall, one_wall, wall_end, wall_end, cell_start, listed[:0], 2, 2, 4.0,
            points, points, far, far, False, np.empty(2), np.empty(2, dtype=np.intp),
        )  # fmt: skip


@needs_kernel
def test_the_nearest_touch_ignores_a_wall_along_the_line_further_on() -> None:
    """Review: a line along a wall touched it "at t = 0" wherever the wall began.

    The line (3, 10) -> (3, 4) first meets the wall across it at y = 7 (t = 0.5); the wall
    lying along the same line (y = 5 to 4) comes later. With the collinear touch reported
    as t = 0 the answer hung on the order cells are visited: on 2-square cells the kernel
    said 0.5 and NumPy 0, on 4-square cells (the default) both said 0, so a visibility
    ray from a point on a wall's line (a burst centred on a grid point) fell back to its
    origin and the outline lost a wedge. Fix: a collinear touch is where the overlap starts.
    """
    battlemap = BattleMap(SIZE, SIZE, walls=(Wall((2, 7), (4, 7)), Wall((3, 4), (3, 5))))
    segments = sight_index(battlemap).segments
    across = int(np.flatnonzero(segments[:, 1] == segments[:, 3])[0])
    start, end = np.array([[3.0, 10.0]]), np.array([[3.0, 4.0]])
    for cell in (1.0, 2.0, 4.0):
        grid = build_wall_grid(segments, SIZE, SIZE, cell)
        for finder in (first_hits, first_hits_numpy):
            t, wall = finder(grid, start, end, nearest=True)
            assert (t[0], wall[0]) == (pytest.approx(0.5), across), (cell, finder.__name__)


_origins = st.tuples(
    st.integers(0, SIZE * 8).map(lambda v: v / 8 + 0.003),
    st.integers(0, SIZE * 8).map(lambda v: v / 8 + 0.007),
)


@needs_kernel
@settings(max_examples=100, deadline=None)
@given(maps, st.lists(_origins, min_size=1, max_size=4), st.sampled_from([2.0, 5.5, 30.0]))
def test_visibility_rings_agree_with_numpy(
    battlemap: BattleMap, origins: list[tuple[float, float]], radius: float
) -> None:
    index = sight_index(battlemap)
    centre = np.asarray(origins)
    outlines = visibility_rings_kernel(index.grid, index.vertices, centre, radius, 180, 1e-7)
    compiled = visibility._split(outlines)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(visibility, "first_hits", first_hits_numpy)
        reference = visibility._rings_numpy(index, centre, radius)
    assert len(compiled) == len(reference)
    for ours, theirs in zip(compiled, reference, strict=True):
        assert ours.shape == theirs.shape
        assert np.allclose(ours, theirs, rtol=0, atol=1e-9)


@needs_kernel
def test_the_numpy_fallback_passes_the_sight_tests() -> None:
    """Where no compiler is at hand Killbox runs the NumPy path: it must keep the rules."""
    files = ["test_los.py", "test_los_properties.py", "test_visibility.py", "test_rotation.py"]
    here = Path(__file__).parent
    result = subprocess.run(
        # -n 0: the suite already keeps every core busy; worker processes would only add
        # their start-up.
        [sys.executable, "-m", "pytest", "-x", "-n", "0", "-p", "no:cacheprovider"]
        + [str(here / name) for name in files],
        env={**os.environ, "KILLBOX_NO_KERNEL": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


@needs_kernel
@settings(max_examples=100, deadline=None)
@given(
    maps,
    st.lists(_origins, min_size=1, max_size=4),
    st.sampled_from([2.0, 5.5, 30.0]),
    st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(1, SIZE), st.integers(1, SIZE)),
)
def test_squares_seen_agree_with_numpy(
    battlemap: BattleMap,
    origins: list[tuple[float, float]],
    radius: float,
    box: tuple[int, int, int, int],
) -> None:
    index = sight_index(battlemap)
    outlines = visibility_rings_kernel(
        index.grid, index.vertices, np.asarray(origins), radius, 180, 1e-7
    )
    centre, within = origins[0], radius * 0.7  # a smaller radius, so that it cuts some squares
    compiled = seen_squares_kernel(outlines, box, CORNER_INSET, centre, within)
    reference = visibility._seen_squares_numpy(visibility._split(outlines), box, centre, within)
    assert np.array_equal(compiled, reference)
