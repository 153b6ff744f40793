"""The difficult-terrain cost is the rule system's, handed to the route code as a parameter.

A system that triples it (or leaves difficult ground at the ordinary cost) gets reach,
every cheapest-route search, path costs and straight lines costed by its multiple: each is
checked against a plain Dijkstra over (square, diagonal parity) written here.
"""

from __future__ import annotations

import heapq

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import DiagonalRule, Square
from engine.routes import MovementGraph, RouteError, cheapest_route, graph_for, reach, run_line
from engine.routes import search as route_search
from engine.routes.compiled import ASTAR_BUILT
from engine.routes.walk import path_problems
from engine.rules import get_system
from engine.tokens import Side
from tests.engine.routes.helpers import SCALES, encounter, graph, token

SIZE = 8


def reference_costs(movement: MovementGraph, mover_id: str) -> dict[Square, int]:
    """Cheapest cost to every square the mover can end on, by textbook Dijkstra."""
    mover = movement.token(mover_id)
    blocked, passable = movement.obstacles_for(mover)
    alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
    best: dict[tuple[Square, int], int] = {(mover.square, 0): 0}
    queue = [(0, mover.square, 0)]
    while queue:
        cost, square, parity = heapq.heappop(queue)
        if best[(square, parity)] < cost:
            continue
        for there, data in movement.graph[square].items():
            if there in blocked:
                continue
            step, next_parity = 1, parity
            if data["diagonal"] and alternating:
                step, next_parity = (2, 0) if parity else (1, 1)
            if there in movement.difficult:
                step *= movement.difficult_cost
            state = (there, next_parity)
            if cost + step < best.get(state, 1 << 30):
                best[state] = cost + step
                heapq.heappush(queue, (cost + step, there, next_parity))
    ends: dict[Square, int] = {}
    for (square, _), cost in best.items():
        if square != mover.square and square not in passable:
            ends[square] = min(cost, ends.get(square, cost))
    return ends


def test_a_triple_cost_is_paid_on_each_difficult_square() -> None:
    # One row: two squares of rubble, then open ground: 3 + 3 + 1 when tripled.
    hero = token("hero", Side.PARTY, 0, 0)
    kwargs = dict(width=4, height=1, tokens=[hero], difficult=[(1, 0), (2, 0)])
    for cost, expected in ((1, 3), (2, 5), (3, 7)):
        movement = graph(difficult_cost=cost, **kwargs)  # type: ignore[arg-type]
        assert reach(movement, "hero", 10).costs[Square(3, 0)] == expected
        route = cheapest_route(movement, "hero", Square(3, 0))
        assert route is not None and route.cost.squares == expected


def test_a_run_line_through_mud_costs_the_system_multiple() -> None:
    runner = token("runner", Side.PARTY, 0, 0)
    state = encounter(width=30, height=30, tokens=[runner], difficult=[(3, 0)])
    for cost in (2, 3):
        answer = run_line(MovementGraph(state, difficult_cost=cost), "runner", Square(10, 0),
                          multiple=4)
        assert answer.route is not None and answer.route.cost.squares == 9 + cost


def test_graphs_of_different_costs_are_kept_apart() -> None:
    state = encounter(tokens=[token("hero", Side.PARTY, 0, 0)], difficult=[(1, 0)])
    assert graph_for(state, difficult_cost=3).difficult_cost == 3
    assert graph_for(state, difficult_cost=2).difficult_cost == 2
    assert graph_for(state, difficult_cost=3) is not graph_for(state, difficult_cost=2)


@pytest.mark.parametrize("cost", [0, -1, 257, 2.0, True])
def test_a_cost_that_is_not_a_whole_multiple_from_1_is_refused(cost: object) -> None:
    with pytest.raises(ValueError, match="difficult_cost"):
        MovementGraph(encounter(), difficult_cost=cost)  # type: ignore[arg-type]


def test_each_bundled_system_declares_double_cost() -> None:
    # What the four hand over; the route property tests pin their answers at double.
    assert {name: get_system(name).difficult_terrain_cost for name in SCALES} == {
        name: 2 for name in SCALES
    }


walls_strategy = st.lists(
    st.tuples(st.integers(0, SIZE), st.integers(0, SIZE), st.integers(1, 3), st.booleans()).map(
        lambda t: ((t[0], t[1]), (t[0] + t[2], t[1]) if t[3] else (t[0], t[1] + t[2]))
    ),
    max_size=10,
)
squares_strategy = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))


@settings(max_examples=60, deadline=None)
@given(
    walls=walls_strategy,
    rubble=st.lists(squares_strategy, max_size=20),
    start=squares_strategy,
    goals=st.lists(squares_strategy, min_size=1, max_size=4),
    cost=st.sampled_from([1, 2, 3, 5]),
    system=st.sampled_from(["spycraft", "savage-worlds"]),
)
def test_every_search_costs_difficult_terrain_by_the_handed_multiple(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    rubble: list[tuple[int, int]],
    start: tuple[int, int],
    goals: list[tuple[int, int]],
    cost: int,
    system: str,
) -> None:
    state = encounter(
        width=SIZE,
        height=SIZE,
        walls=walls,
        difficult=[s for s in rubble if s != start],
        tokens=[token("hero", Side.PARTY, *start)],
        system=system,
    )
    movement = MovementGraph(state, difficult_cost=cost)
    expected = reference_costs(movement, "hero")
    assert reach(movement, "hero", 60).costs == {s: c for s, c in expected.items() if c <= 60}
    hero = movement.token("hero")
    walker = route_search.Walker(movement, hero)
    searches = [
        lambda goal: route_search._route_flat(movement, hero, goal, 1 << 30),
        lambda goal: route_search._route_sparse(movement, hero, goal, 1 << 30),
        lambda goal: route_search._route_any(movement, walker, goal, 1 << 30),
    ]
    if ASTAR_BUILT:
        searches.append(lambda goal: route_search._route_compiled(movement, hero, goal, 1 << 30))
    for goal in map(lambda g: Square(*g), goals):
        if goal == hero.square:
            continue
        for search in searches:
            route = search(goal)
            assert (route.cost.squares if route else None) == expected.get(goal)
            if route is not None:
                problems, walked = path_problems(
                    state, "hero", route.squares[1:], difficult_cost=cost
                )
                assert not problems and walked == expected[goal]


def test_an_unknown_square_is_still_a_route_error_whatever_the_cost() -> None:
    movement = graph(difficult_cost=3, tokens=[token("hero", Side.PARTY, 0, 0)])
    with pytest.raises(RouteError):
        cheapest_route(movement, "hero", Square(99, 99))
