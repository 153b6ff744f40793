"""Visibility polygon and the squares a token sees, checked against line of sight."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.geometry._index import sight_index
from engine.geometry.los import has_line_of_sight, sight_corners
from engine.geometry.visibility import (
    _outlines,
    _split,
    _winds_once,
    visibility_polygon,
    visibility_polygons,
    visible_squares,
)
from engine.grid import Square
from engine.tokens import Side, Token
from tests.engine.geometry.strategies import SIZE, maps, squares


def test_open_map_polygon_is_the_disc_clipped_to_the_map() -> None:
    polygon = visibility_polygon(BattleMap(20, 20), (10.0, 10.0), 5.0)
    assert polygon.area == pytest.approx(3.14159 * 25, rel=0.01)
    corner = visibility_polygon(BattleMap(20, 20), (0.5, 0.5), 5.0)
    assert corner.bounds[0] == 0 and corner.bounds[1] == 0


def test_wall_casts_a_shadow() -> None:
    # Wall along x = 6 from y = 0 to y = 20 hides everything east of it.
    battlemap = BattleMap(20, 20, walls=(Wall((6, 0), (6, 20)),))
    polygon = visibility_polygon(battlemap, (3.0, 10.0), 10.0)
    assert polygon.bounds[2] == pytest.approx(6.0)
    assert not polygon.contains(shapely.Point(7, 10))


def test_radius_must_be_positive() -> None:
    with pytest.raises(ValueError, match="vision radius"):
        visibility_polygon(BattleMap(5, 5), (1.0, 1.0), 0)


def test_visible_squares_stop_at_the_radius_and_the_wall() -> None:
    battlemap = BattleMap(20, 20, walls=(Wall((6, 0), (6, 20)),))
    token = Token("a", "Agent", Side.PARTY, Square(2, 10))
    seen = visible_squares(battlemap, token, 3).squares
    assert Square(5, 10) in seen and Square(2, 13) in seen
    assert Square(6, 10) not in seen  # behind the wall
    assert Square(2, 14) not in seen  # beyond 3 squares


@settings(max_examples=40, deadline=None)
@given(maps, squares, squares)
def test_visible_squares_follow_the_line_of_sight_rule(
    battlemap: BattleMap, viewer: Square, other: Square
) -> None:
    token = Token("v", "Viewer", Side.PARTY, viewer)
    seen = visible_squares(battlemap, token, 30).squares
    assert (other in seen) == has_line_of_sight(battlemap, viewer, other)


@settings(max_examples=40, deadline=None)
@given(maps, squares)
def test_shared_walks_of_close_origins_change_no_polygon(
    battlemap: BattleMap, viewer: Square
) -> None:
    # A token's sight corners share hint walks; each alone walks every line itself.
    corners = [(x, y) for x, y in sight_corners([viewer]).tolist()]
    together = visibility_polygons(battlemap, corners, 6.0)
    for corner, polygon in zip(corners, together, strict=True):
        alone = visibility_polygon(battlemap, corner, 6.0)
        assert shapely.equals_exact(shapely.normalize(polygon), shapely.normalize(alone), 0)


@settings(max_examples=60, deadline=None)
@given(
    maps,
    st.tuples(st.floats(0, SIZE), st.floats(0, SIZE)),
    st.sampled_from([0.5, 3.0, 7.5, 2.0 * SIZE]),
)
def test_the_rectangle_clip_keeps_the_region_of_the_general_intersection(
    battlemap: BattleMap, origin: tuple[float, float], radius: float
) -> None:
    # The polygon is clipped to the map by GEOS's rectangle clip: the same region as the
    # general intersection with the map it replaced, and a valid geometry. (A viewer at the
    # end of a wall on the map's edge may see no area at all: there the general
    # intersection left a point, the rectangle clip leaves an empty geometry.)
    index = sight_index(battlemap)
    ring = _split(_outlines(index, battlemap, [origin], radius))[0]
    general = shapely.intersection(shapely.make_valid(shapely.Polygon(ring)), index.bounds)
    ours = visibility_polygon(battlemap, origin, radius)
    assert shapely.is_valid(ours)
    differ = shapely.area(shapely.symmetric_difference(ours, general))
    assert differ <= 1e-9 * max(general.area, 1.0)


@settings(max_examples=80, deadline=None)
@given(
    maps,
    st.tuples(st.floats(0, SIZE), st.floats(0, SIZE)),
    st.sampled_from([0.5, 3.0, 7.5, 2.0 * SIZE]),
)
def test_a_ring_left_unmended_is_a_valid_polygon_already(
    battlemap: BattleMap, origin: tuple[float, float], radius: float
) -> None:
    # Rings that wind once round their origin skip make_valid: GEOS must find them valid,
    # and mending them must change nothing.
    ring = _split(_outlines(sight_index(battlemap), battlemap, [origin], radius))[0]
    if _winds_once(ring, origin):
        polygon = shapely.Polygon(ring)
        assert shapely.is_valid(polygon)
        assert shapely.equals_exact(shapely.make_valid(polygon), polygon, 0)


def test_only_a_ring_once_round_its_origin_in_one_direction_winds_once() -> None:
    ring = visibility_polygon(BattleMap(20, 20), (10.0, 10.0), 5.0).exterior
    outline = _split(_outlines(sight_index(BattleMap(20, 20)), BattleMap(20, 20),
                               [(10.0, 10.0)], 5.0))[0]
    assert len(ring.coords) > 100
    assert _winds_once(outline, (10.0, 10.0))
    assert not _winds_once(outline[::-1], (10.0, 10.0))  # the other way round
    assert not _winds_once(np.concatenate([outline, outline]), (10.0, 10.0))  # twice
    assert not _winds_once(outline, (20.0, 20.0))  # the origin outside it
    spike = np.insert(outline, 5, outline[4], axis=0)  # a point repeated: no turn
    assert not _winds_once(spike, (10.0, 10.0))


@pytest.mark.parametrize("origin", [(0.0, 1.0), (0.0, 0.0), (0.0, 2e-214), (10.0, 5.0)])
def test_seen_from_the_maps_edge_the_polygon_is_valid_and_inside_the_map(
    origin: tuple[float, float],
) -> None:
    # A token in the first column has sight corners on the map's edge; there GEOS's
    # rectangle clip folded the outline back onto the edge (found by the property above).
    walls = tuple(
        Wall(start=a, end=b, blocks_sight=True, blocks_movement=True)
        for a, b in (((0, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 0), (3, 0)))
    )
    battlemap = BattleMap(SIZE, SIZE, walls=walls)
    seen = visibility_polygon(battlemap, origin, 0.5)
    assert shapely.is_valid(seen)
    assert seen.area <= math.pi * 0.25 / 2 + 1e-9  # at most half a disc: the rest is off the map
