"""The ruler's measurement: legs, totals and words under each diagonal rule."""

from __future__ import annotations

import pytest

from engine.grid import (
    FIVE_FOOT,
    YARDS_PER_INCH,
    Square,
    Unit,
    distance_squares,
)
from engine.measure import measure
from engine.overlay import OverlayNote, Tone
from engine.rules.cities_without_number.tables import SCALE as METRIC
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH


def test_one_leg_straight_and_diagonal_alternating() -> None:
    m = measure([Square(0, 0), Square(3, 3)], FIVE_FOOT)
    assert [leg.squares for leg in m.legs] == [4]  # 1 + 2 + 1
    assert m.total_words == "4 squares, 20 ft"


def test_alternating_diagonals_carry_across_waypoints() -> None:
    # One diagonal, then another after a waypoint: the second one costs 2, as walked in one go.
    m = measure([Square(0, 0), Square(1, 1), Square(2, 2)], FIVE_FOOT)
    assert [leg.squares for leg in m.legs] == [1, 2]
    assert m.squares == distance_squares(Square(0, 0), Square(2, 2), FIVE_FOOT.diagonal)
    assert m.leg_words(1) == "2 squares, 10 ft"


def test_diagonals_count_one_in_savage_worlds_inches() -> None:
    m = measure([Square(0, 0), Square(4, 2), Square(4, 6)], SAVAGE_INCH)
    assert [leg.squares for leg in m.legs] == [4, 4]
    assert m.total_words == '8 squares, 8" (16 yd)'


def test_metres() -> None:
    m = measure([Square(2, 2), Square(2, 3)], METRIC)
    assert m.total_words == "1 square, 1.5 m"
    assert m.distance == pytest.approx(1.5)


def test_a_single_waypoint_measures_nothing_and_none_is_refused() -> None:
    assert measure([Square(1, 1)], FIVE_FOOT).squares == 0
    with pytest.raises(ValueError, match="at least one waypoint"):
        measure([], FIVE_FOOT)


def test_each_unit_says_what_it_measures_in_metres() -> None:
    assert Unit.METRES.metres == 1.0
    assert Unit.FEET.metres == pytest.approx(0.3048)
    assert Unit.INCHES.metres == pytest.approx(YARDS_PER_INCH * 3 * 0.3048)


def test_the_overlay_is_the_line_through_the_waypoints_with_each_legs_distance() -> None:
    m = measure([Square(1, 1), Square(3, 3), Square(3, 6)], FIVE_FOOT)
    (route,) = m.overlay.routes
    assert route.squares == (Square(1, 1), Square(3, 3), Square(3, 6))
    assert (route.tone, route.label, route.walked) == (Tone.INFO, "6 squares, 30 ft", False)
    assert m.overlay.notes == (
        OverlayNote(Square(3, 3), "3 squares, 15 ft"),
        OverlayNote(Square(3, 6), "3 squares, 15 ft\ntotal 6 squares, 30 ft"),
    )
    assert not m.overlay.areas and not m.overlay.marks and not m.overlay.tokens


def test_one_leg_says_no_total_and_one_waypoint_draws_only_its_square() -> None:
    assert [n.text for n in measure([Square(0, 0), Square(0, 2)], FIVE_FOOT).overlay.notes] == [
        "2 squares, 10 ft"
    ]
    alone = measure([Square(4, 4)], FIVE_FOOT).overlay
    assert [r.squares for r in alone.routes] == [(Square(4, 4),)] and alone.notes == ()
