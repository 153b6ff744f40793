"""Reach counted in half squares (one state per square) against the (square, parity) search.

``_reach_flat`` in ``engine.routes.search`` is the reference: on random small maps (walls,
rubble under "every diagonal is 1", allies and enemies, extra starts with a cost and a
diagonal parity as Withdraw gives) ``_reach_halves`` must give exactly the same costs,
and each route it rebuilds must walk open steps at the cost it claims.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grid import Square
from engine.routes import search
from engine.routes.results import Start
from engine.routes.search import Walker
from tests.engine.routes.helpers import graph, hero_among
from tests.engine.routes.test_state_graph import SIZE, segments, squares, walked_cost


@settings(max_examples=80, deadline=None)
@given(
    walls=segments,
    start=squares,
    rubble=st.lists(squares, max_size=10),
    others=st.lists(st.tuples(squares, st.booleans()), max_size=6),
    extra=st.lists(st.tuples(squares, st.integers(0, 4), st.integers(0, 1)), max_size=3),
    savage=st.booleans(),
    budget=st.integers(0, 14),
)
def test_reach_in_halves_gives_the_costs_of_the_parity_search(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    rubble: list[tuple[int, int]],
    others: list[tuple[tuple[int, int], bool]],
    extra: list[tuple[tuple[int, int], int, int]],
    savage: bool,
    budget: int,
) -> None:
    tokens = hero_among(start, others)
    movement = graph(
        width=SIZE,
        height=SIZE,
        walls=walls,
        tokens=tokens,
        # Rubble only where the halves search is used with it: every diagonal 1.
        difficult=rubble if savage else [],
        system="savage-worlds" if savage else "spycraft",
    )
    mover = movement.token("hero")
    walker = Walker(movement, mover)
    starts = [Start(mover.square)] + [
        Start(Square(*s), cost, 0 if savage else parity)
        for s, cost, parity in extra
        if cost <= budget and walker.footprint_fits(Square(*s))
    ]
    reference = search._reach_flat(movement, mover, budget, starts)
    halves = search._reach_halves(movement, mover, budget, starts)
    assert dict(halves.costs) == dict(reference.costs)
    if len(starts) == 1:
        for square, cost in halves.costs.items():
            route = halves.route_to(square)
            assert route.squares[0] == mover.square and route.squares[-1] == square
            assert all(
                walker.step_between(a, b)
                for a, b in zip(route.squares, route.squares[1:], strict=False)
            )
            assert walked_cost(movement, route) == route.cost.squares == cost
