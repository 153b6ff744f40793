"""Reach flooded in C (``engine.routes.reach_compiled``) against the Python reach.

The Python loops of ``engine.routes.search`` are the reference: on random small maps
(walls, doors changed after a first query, rubble at several difficult costs, pits, allies
and enemies, both diagonal rules, movers of one to three squares a side, extra starts with
a cost and a diagonal parity as Withdraw gives) the compiled reach must give the very
costs of ``_reach_any`` (a plain bucketed Dijkstra over ``Walker.steps``) and of the
textbook Dijkstra of ``test_terrain_cost``; for a one-square mover it must rebuild the very
routes of the Python loop it mirrors; every route it rebuilds walks open steps at the cost
it claims.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import PortalState
from engine.grid import DiagonalRule, Square
from engine.routes import MovementGraph, reach, search
from engine.routes.compiled import ASTAR_BUILT
from engine.routes.reach_compiled import ReachCosts, reach_compiled
from engine.routes.results import Route, Start
from engine.routes.search import Walker
from engine.tokens import Side
from tests.engine.routes.helpers import graph, hero_among, token
from tests.engine.routes.test_state_graph import DOORS, SIZE, segments, squares
from tests.engine.routes.test_terrain_cost import reference_costs

needs_compiled = pytest.mark.skipif(not ASTAR_BUILT, reason="the route search is not compiled")


def walked(walker: Walker, route: Route) -> int:
    """What walking the route step by step costs the walker's token, or -1 at a step it
    cannot take."""
    alternating = walker.alternating
    cost, parity = 0, 0
    for a, b in zip(route.squares, route.squares[1:], strict=False):
        if not walker.step_between(a, b):
            return -1
        step = 1
        if a.x != b.x and a.y != b.y and alternating:
            step, parity = (2, 0) if parity else (1, 1)
        cost += step * walker.difficult_cost if walker.lands_difficult(b) else step
    return cost


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(
    walls=segments,
    start=squares,
    size=st.sampled_from([1, 1, 2, 3]),
    rubble=st.lists(squares, max_size=14),
    difficult_cost=st.sampled_from([1, 2, 3, 5]),
    pits=st.lists(squares, max_size=4),
    others=st.lists(st.tuples(squares, st.booleans()), max_size=6),
    toggles=st.lists(st.tuples(st.sampled_from(["d0", "d1", "d2"]), st.booleans()), max_size=3),
    extra=st.lists(st.tuples(squares, st.integers(0, 4), st.integers(0, 1)), max_size=3),
    savage=st.booleans(),
    budget=st.integers(0, 24) | st.just(1_000),
)
def test_the_compiled_reach_gives_the_costs_and_routes_of_the_python_reach(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    size: int,
    rubble: list[tuple[int, int]],
    difficult_cost: int,
    pits: list[tuple[int, int]],
    others: list[tuple[tuple[int, int], bool]],
    toggles: list[tuple[str, bool]],
    extra: list[tuple[tuple[int, int], int, int]],
    savage: bool,
    budget: int,
) -> None:
    tokens = hero_among(start, others, size=size, map_side=SIZE)
    hero_squares = set(tokens[0].squares)
    movement = graph(
        difficult_cost=difficult_cost,
        width=SIZE,
        height=SIZE,
        walls=walls,
        portals=DOORS,
        tokens=tokens,
        difficult=rubble,
        impassable=[p for p in pits if p not in hero_squares],
        system="savage-worlds" if savage else "spycraft",
    )
    reach(movement, "hero", budget)  # the arrays are kept...
    for door, is_open in toggles:  # ...and the doors change under them
        movement.set_portal_state(door, PortalState.OPEN if is_open else PortalState.CLOSED)
    mover = movement.token("hero")
    walker = Walker(movement, mover)
    # Extra starts as Withdraw hands them over: squares the footprint fits, parity 0 where
    # every diagonal costs 1.
    starts = [Start(mover.square)] + [
        Start(Square(*s), cost, 0 if savage else parity)
        for s, cost, parity in extra
        if cost <= budget and walker.footprint_fits(Square(*s))
    ]

    compiled = reach_compiled(movement, mover, budget, starts)
    general = search._reach_general(movement, mover, budget, starts)
    assert dict(compiled.costs) == dict(general.costs)
    if size == 1:
        # The Python loop the C one mirrors: same steps in the same order, same parents.
        mirrored = (
            search._reach_flat
            if movement.difficult and movement.scale.diagonal is DiagonalRule.ALTERNATING
            else search._reach_halves
        )(movement, mover, budget, starts)
        assert dict(compiled.costs) == dict(mirrored.costs)
        for square in compiled.costs:
            assert compiled.route_to(square) == mirrored.route_to(square)
    if len(starts) == 1:
        if size == 1:
            textbook = reference_costs(movement, "hero")
            assert dict(compiled.costs) == {s: c for s, c in textbook.items() if c <= budget}
        for square, cost in compiled.costs.items():
            route = compiled.route_to(square)
            assert route.squares[0] == mover.square and route.squares[-1] == square
            assert walked(walker, route) == route.cost.squares == cost


@needs_compiled
def test_a_whole_map_reach_answers_from_its_array_without_a_dict() -> None:
    hero = token("hero", Side.PARTY, 0, 0)
    movement = graph(width=30, height=20, tokens=[hero], walls=[((5, 0), (5, 19))])
    area = reach(movement, "hero", 1_000)
    costs = area.costs
    assert isinstance(costs, ReachCosts)
    # The wall at x = 5 leaves one row open: 5 columns of 20, less the mover's own square,
    # and the 25 columns beyond through the gap at the bottom.
    assert len(costs) == 30 * 20 - 1
    assert Square(0, 0) not in costs and (0, 0) not in area
    assert costs[Square(29, 0)] == area.route_to(Square(29, 0)).cost.squares
    assert costs.array.shape == (20, 30) and costs.array[0, 0] == -1
    for outside in (Square(30, 0), Square(-1, 3), (1, 2, 3), "a1", (1.0, 2.0)):
        assert outside not in costs
    with pytest.raises(KeyError):
        costs[Square(30, 0)]
    with pytest.raises(ValueError):
        costs.array[0, 1] = 7  # the answer is read-only
    assert costs == dict(costs.items()) and dict(costs) == dict(costs.items())


def test_reach_without_the_compiled_search_gives_the_same_costs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hero = token("hero", Side.PARTY, 3, 3, size=2)
    state = dict(width=12, height=12, tokens=[hero], difficult=[(6, 3), (6, 4), (7, 7)])
    movement: MovementGraph = graph(difficult_cost=3, **state)  # type: ignore[arg-type]
    ours = dict(reach(movement, "hero", 9).costs)
    monkeypatch.setattr(search, "ASTAR_BUILT", False)
    assert dict(reach(movement, "hero", 9).costs) == ours
