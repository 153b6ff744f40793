"""A straight Run: a line of a multiple of Speed the rule system gives, and where it ends."""

from __future__ import annotations

import pytest

from engine.grid import Square
from engine.routes import MovementGraph
from engine.routes.run import run_destinations, run_line
from engine.tokens import Side
from tests.engine.routes.helpers import encounter, token


def open_field(*extra, **kwargs):  # type: ignore[no-untyped-def]
    runner = token("runner", Side.PARTY, 0, 0, **kwargs)
    return MovementGraph(encounter(width=30, height=30, tokens=[runner, *extra]), difficult_cost=2)


def test_a_run_of_four_times_speed_goes_in_a_straight_line() -> None:
    movement = open_field()
    answer = run_line(movement, "runner", Square(24, 0), multiple=4)
    assert answer.allowed and answer.route is not None
    assert answer.route.cost.text == "120 ft"
    assert not run_line(movement, "runner", Square(25, 0), multiple=4).allowed


def test_the_multiple_is_the_callers() -> None:
    movement = open_field()
    assert run_line(movement, "runner", Square(18, 0), multiple=3).allowed
    refused = run_line(movement, "runner", Square(19, 0), multiple=3)
    assert "more than the Run allows (90 ft (18 squares))" in refused.reasons[0]


def test_a_run_needs_a_positive_multiple() -> None:
    with pytest.raises(ValueError, match="positive multiple"):
        run_line(open_field(), "runner", Square(3, 0), multiple=0)


def test_run_line_is_checked_against_walls_terrain_and_creatures() -> None:
    walled = MovementGraph(
        encounter(
            width=30,
            height=30,
            tokens=[token("runner", Side.PARTY, 0, 0)],
            walls=[((5, 0), (5, 1))],
        ), difficult_cost=2
    )
    assert "crosses a wall" in run_line(walled, "runner", Square(10, 0), multiple=4).reasons[0]
    blocked = open_field(token("thug", Side.ENEMY, 4, 0))
    assert run_line(blocked, "runner", Square(10, 0), multiple=4).reasons == (
        "square (4,0) on the straight line holds an opponent (Thug)",
    )
    crossed = open_field(token("pal", Side.ALLY, 4, 0))
    assert run_line(crossed, "runner", Square(10, 0), multiple=4).allowed
    assert not run_line(crossed, "runner", Square(4, 0), multiple=4).allowed
    muddy = MovementGraph(
        encounter(
            width=30, height=30, tokens=[token("runner", Side.PARTY, 0, 0)], difficult=[(3, 0)]
        ), difficult_cost=2
    )
    answer = run_line(muddy, "runner", Square(10, 0), multiple=4)
    assert answer.route is not None and answer.route.cost.squares == 11


def test_run_destinations_are_the_clear_straight_lines() -> None:
    movement = MovementGraph(
        encounter(
            width=12,
            height=12,
            tokens=[token("runner", Side.PARTY, 0, 0, speed=10.0)],
            walls=[((3, 0), (3, 3))],
        ), difficult_cost=2
    )
    found = run_destinations(movement, "runner", multiple=4)
    assert Square(0, 8) in found and Square(2, 2) in found
    assert Square(5, 0) not in found and Square(5, 1) not in found
    assert all(r.cost.squares <= 8 for r in found.values())


def test_run_destinations_match_checking_every_square() -> None:
    movement = MovementGraph(
        encounter(
            width=14,
            height=14,
            tokens=[token("runner", Side.PARTY, 6, 6, speed=10.0), token("thug", Side.ENEMY, 8, 8)],
            walls=[((3, 2), (3, 9)), ((9, 4), (12, 4))],
            difficult=[(6, 9), (7, 9)],
        ), difficult_cost=2
    )
    found = run_destinations(movement, "runner", multiple=4)
    expected = {
        Square(x, y)
        for y in range(14)
        for x in range(14)
        if (x, y) != (6, 6) and run_line(movement, "runner", Square(x, y), multiple=4).allowed
    }
    assert set(found) == expected
