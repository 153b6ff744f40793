"""Line of sight properties: symmetry, walls only take sight away, rotation, fast == plain."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.geometry._index import sight_index
from engine.geometry._march import cuts_between, first_hits, touch_any, touches_16
from engine.geometry.los import (
    CORNER_INSET,
    has_line_of_sight,
    lines_blocked,
    segments_blocked,
    sight_corners,
    squares_see_each_other,
)
from engine.grid import Square
from tests.engine.geometry.reference_sight import segments_blocked_reference
from tests.engine.geometry.strategies import maps, rotate_map, rotate_square, squares, walls


@settings(max_examples=80, deadline=None)
@given(maps, squares, squares)
def test_line_of_sight_is_symmetric(battlemap: BattleMap, a: Square, b: Square) -> None:
    assert has_line_of_sight(battlemap, a, b) == has_line_of_sight(battlemap, b, a)


@settings(max_examples=80, deadline=None)
@given(maps, walls, squares, squares)
def test_adding_a_wall_never_adds_sight(
    battlemap: BattleMap, wall: Wall, a: Square, b: Square
) -> None:
    walled = BattleMap(battlemap.width, battlemap.height, walls=(*battlemap.walls, wall))
    if has_line_of_sight(walled, a, b):
        assert has_line_of_sight(battlemap, a, b)


@settings(max_examples=60, deadline=None)
@given(maps, squares, squares)
def test_rotating_the_map_rotates_line_of_sight(battlemap: BattleMap, a: Square, b: Square) -> None:
    turned = rotate_map(battlemap)
    assert has_line_of_sight(battlemap, a, b) == has_line_of_sight(
        turned, rotate_square(a), rotate_square(b)
    )


@settings(max_examples=60, deadline=None)
@given(maps, st.lists(st.tuples(squares, squares), min_size=1, max_size=20))
def test_bulk_answers_match_single_answers(
    battlemap: BattleMap, pairs: list[tuple[Square, Square]]
) -> None:
    bulk = squares_see_each_other(battlemap, [a for a, _ in pairs], [b for _, b in pairs])
    assert list(bulk) == [has_line_of_sight(battlemap, a, b) for a, b in pairs]


@settings(max_examples=60, deadline=None)
@given(maps, st.lists(st.tuples(squares, squares), min_size=1, max_size=20))
def test_grid_walk_agrees_with_the_rtree(
    battlemap: BattleMap, pairs: list[tuple[Square, Square]]
) -> None:
    # Odd offsets, different per axis, keep lines off the exact wall ends and joints, where
    # rounding (ours or GEOS's) may break the tie either way.
    starts = np.array([a.centre for a, _ in pairs]) + np.array([0.2137, 0.1291])
    ends = np.array([b.centre for _, b in pairs]) - np.array([0.3071, 0.2719])
    assert list(segments_blocked(battlemap, starts, ends)) == list(
        segments_blocked_reference(battlemap, starts, ends)
    )


@settings(max_examples=60, deadline=None)
@given(maps, st.lists(st.tuples(squares, squares), min_size=1, max_size=20))
def test_box_test_agrees_with_the_grid_walk(
    battlemap: BattleMap, pairs: list[tuple[Square, Square]]
) -> None:
    # Corner lines (the inset corners), tested both ways with the same touch test.
    grid = sight_index(battlemap).grid
    starts = np.array([a for a, _ in pairs], dtype=float) + CORNER_INSET
    ends = np.array([b for _, b in pairs], dtype=float) + (1 - CORNER_INSET)
    every_wall = np.arange(len(grid.x1))
    by_box = touch_any(grid, starts[:, 0], starts[:, 1], ends[:, 0], ends[:, 1], every_wall)
    by_walk = np.isfinite(first_hits(grid, starts, ends)[0])
    assert list(by_box) == list(by_walk)
    assert list(lines_blocked(grid, starts, ends)) == list(by_walk)


@settings(max_examples=50, deadline=None)
@given(maps, st.lists(st.tuples(squares, squares), min_size=17, max_size=40))
def test_large_batches_agree_with_every_corner_line_through_the_rtree(
    battlemap: BattleMap, pairs: list[tuple[Square, Square]]
) -> None:
    # More pairs than the small-batch path takes: the rounds with the shared-wall test.
    a = np.array([p for p, _ in pairs], dtype=float)
    b = np.array([q for _, q in pairs], dtype=float)
    corners = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=float)
    inset = CORNER_INSET * (1 - 2 * corners)
    starts = (a[:, None, :] + (corners + inset)[np.arange(16) // 4]).reshape(-1, 2)
    ends = (b[:, None, :] + (corners + inset)[np.arange(16) % 4]).reshape(-1, 2)
    blocked = segments_blocked_reference(battlemap, starts, ends).reshape(-1, 16)
    expected = ~blocked.all(axis=1) | (a == b).all(axis=1)
    assert list(squares_see_each_other(battlemap, a, b)) == list(expected)


@settings(max_examples=80, deadline=None)
@given(maps, squares, squares)
def test_a_wall_right_across_the_way_blocks_all_sixteen_lines(
    battlemap: BattleMap, a: Square, b: Square
) -> None:
    grid = sight_index(battlemap).grid
    walls = np.arange(len(grid.x1))
    first = np.tile(np.array([a], dtype=float), (len(walls), 1))
    second = np.tile(np.array([b], dtype=float), (len(walls), 1))
    cut = cuts_between(grid, walls, first, second)
    corners = sight_corners([a]), sight_corners([b])
    touched = touches_16(
        grid,
        walls,
        np.tile(corners[0][:, 0], (len(walls), 1)),
        np.tile(corners[0][:, 1], (len(walls), 1)),
        np.tile(corners[1][:, 0], (len(walls), 1)),
        np.tile(corners[1][:, 1], (len(walls), 1)),
    )
    assert touched[cut].all()
