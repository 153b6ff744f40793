"""The plan helpers that turn squares into walls, portals and cover objects."""

from __future__ import annotations

import math

import pytest

from engine.battlemap import PortalKind
from maps.layout import block, box, door, glass_run, rectangle, walls_around, windows_along
from maps.painting import _frame_of


def test_a_wall_stops_at_each_end_of_a_door_in_it() -> None:
    walls = walls_around(rectangle(0, 0, 6, 4), [door("d", (2, 4), (3, 4))])
    assert len(walls) == 5
    bottom = sorted((w.start, w.end) for w in walls if w.start[1] == 4 and w.end[1] == 4)
    assert bottom == [((2, 4), (0, 4)), ((6, 4), (3, 4))]
    covered = sum(math.dist(w.start, w.end) for w in walls)
    assert covered == pytest.approx(2 * (6 + 4) - 1)


def test_a_portal_off_the_wall_leaves_it_whole() -> None:
    walls = walls_around(rectangle(0, 0, 6, 4), [door("d", (2, 2), (3, 2))])
    assert len(walls) == 4


def test_see_through_barriers_keep_their_flags() -> None:
    (rail,) = walls_around([((0, 0), (5, 0))], blocks_sight=False)
    assert rail.blocks_movement and not rail.blocks_sight


def test_a_curtain_wall_alternates_piers_and_panes() -> None:
    panes = windows_along("w", (0, 0), (9, 0), pane=3, pillar=1)
    assert [(p.start, p.end) for p in panes] == [((1, 0), (4, 0)), ((5, 0), (8, 0))]
    assert all(p.kind is PortalKind.WINDOW for p in panes)
    walls = walls_around([((0, 0), (9, 0))], panes)
    assert sorted(math.dist(w.start, w.end) for w in walls) == [1, 1, 1]


def test_a_glass_partition_is_all_glass_but_its_door() -> None:
    run = glass_run("g", (0, 0), (0, 6), pane=2, door_at=3, door_id="glassdoor-x")
    doors = [p for p in run if p.kind is PortalKind.DOOR]
    assert [(d.id, d.start, d.end) for d in doors] == [("glassdoor-x", (0, 3), (0, 4))]
    assert sum(math.dist(p.start, p.end) for p in run) == pytest.approx(6)
    assert walls_around([((0, 0), (0, 6))], run) == ()


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0, -20.0, 180.0])
def test_the_painter_reads_back_a_box_it_was_given(angle: float) -> None:
    cover = box("car-1", "Car", (5.0, 3.0), (2.5, 1.0), angle=angle)
    centre, length, width, heading = _frame_of(cover.outline)
    assert centre == pytest.approx((5.0, 3.0))
    assert (length, width) == pytest.approx((2.5, 1.0))
    assert math.cos(math.radians(heading - angle)) == pytest.approx(1.0)


def test_a_block_covers_exactly_its_rectangle() -> None:
    tall = block("rack-1", "Rack", 3, 9, 4, 18)
    xs = [p[0] for p in tall.outline]
    ys = [p[1] for p in tall.outline]
    assert (min(xs), max(xs), min(ys), max(ys)) == pytest.approx((3, 4, 9, 18))
    _, length, width, _ = _frame_of(tall.outline)
    assert length > width  # drawn lengthwise
