"""The Deviation Diagram: d8 among the eight neighbours, occupied squares rolled again."""

from __future__ import annotations

import pytest

from engine.grid import Square
from engine.routes import MovementGraph, RouteError
from engine.routes.deviation import DEVIATION_DIAGRAM, DeviationRule, deviate, weapon_flight
from engine.tokens import Side
from tests.engine.routes.helpers import FixedDice, encounter, graph, token


def test_d8_picks_a_neighbour_clockwise_from_north() -> None:
    movement = graph()
    for number, (dx, dy) in DEVIATION_DIAGRAM.items():
        result = deviate(movement, Square(5, 5), FixedDice(number))
        assert result.square == Square(5 + dx, 5 + dy)
    assert deviate(movement, Square(5, 5), FixedDice(3)).square == Square(6, 5)


def test_occupied_squares_are_rolled_again() -> None:
    movement = MovementGraph(encounter(tokens=[token("pal", Side.ALLY, 5, 4)]), difficult_cost=2)
    dice = FixedDice(1, 1, 5)
    result = deviate(movement, Square(5, 5), dice)
    assert result.rolls == (1, 1, 5) and result.square == Square(5, 6)
    assert dice.asked == ["1d8", "1d8", "1d8"]


def test_squares_across_a_wall_or_off_the_map_are_rolled_again() -> None:
    movement = graph(walls=[((0, 1), (3, 1))])
    assert deviate(movement, Square(1, 1), FixedDice(1, 5)).square == Square(1, 2)
    assert deviate(movement, Square(0, 5), FixedDice(7, 3)).square == Square(1, 5)


def test_no_free_neighbour_gives_a_reason_and_rolls_nothing() -> None:
    tokens = [
        token("me", Side.PARTY, 0, 0),
        token("a", Side.ALLY, 1, 0),
        token("b", Side.ALLY, 0, 1),
        token("c", Side.ALLY, 1, 1),
    ]
    dice = FixedDice()
    result = deviate(MovementGraph(encounter(tokens=tokens), difficult_cost=2), Square(0, 0), dice)
    assert result.square is None and dice.asked == []
    assert result.reasons == ("every square around (0,0) is taken or walled off",)


def test_a_bad_roll_is_a_clear_error() -> None:
    with pytest.raises(RouteError, match="1d8 gave 9"):
        deviate(graph(), Square(5, 5), FixedDice(9))


#: A rule of the tests' own: a weapon flies 1d6+2 squares (no bundled system's number).
FLIGHT = DeviationRule(flight="1d6+2")


def test_a_weapon_flies_as_far_as_the_rule_it_is_given_says() -> None:
    dice = FixedDice(3, 4)
    flight = weapon_flight(graph(), Square(5, 5), dice, FLIGHT)
    assert dice.asked == ["1d8", "1d6+2"]
    assert flight.path == tuple(Square(x, 5) for x in range(5, 10))
    assert flight.landing == Square(9, 5) and flight.stopped_by is None
    assert (FLIGHT.shortest_flight, FLIGHT.longest_flight) == (3, 8)


def test_a_flight_outside_the_rules_dice_is_a_clear_error() -> None:
    with pytest.raises(RouteError, match=r"1d6\+2 gave 9, outside 3\.\.8"):
        weapon_flight(graph(), Square(5, 5), FixedDice(3, 9), FLIGHT)


def test_a_renumbered_diagram_is_the_one_rolled_on() -> None:
    turned = DeviationRule("1d4", {n: DEVIATION_DIAGRAM[n % 8 + 1] for n in range(1, 9)})
    landed = deviate(graph(), Square(5, 5), FixedDice(2), diagram=turned.diagram)
    assert landed.square == Square(6, 5)  # d8 2 on the turned diagram is 3 on the default
    flight = weapon_flight(graph(), Square(5, 5), FixedDice(2, 2), turned)
    assert flight.landing == Square(7, 5)


def test_a_rule_without_dice_or_with_a_short_diagram_is_refused() -> None:
    with pytest.raises(RouteError, match="a weapon's flight"):
        DeviationRule("far")
    with pytest.raises(RouteError, match="1 to 8"):
        DeviationRule("1d4", {1: (0, -1)})


def test_disarmed_weapon_stops_at_a_wall() -> None:
    walls = graph(walls=[((8, 0), (8, 10))])
    flight = weapon_flight(walls, Square(5, 5), FixedDice(3, 5), FLIGHT)
    assert flight.landing == Square(7, 5)
    assert flight.stopped_by == "a wall or closed door between (7,5) and (8,5)"


def test_fly_goes_the_distance_it_is_given_over_creatures_and_stops_at_a_wall() -> None:
    from engine.routes.deviation import fly

    movement = MovementGraph(encounter(tokens=[token("pal", Side.ALLY, 5, 3)]), difficult_cost=2)
    path, stopped = fly(movement, Square(5, 5), (0, -1), 3)
    assert path == (Square(5, 5), Square(5, 4), Square(5, 3), Square(5, 2)) and stopped is None
    walled = graph(walls=[((0, 3), (9, 3))])
    path, stopped = fly(walled, Square(5, 5), (0, -1), 6)
    assert path[-1] == Square(5, 3) and "wall" in str(stopped)
