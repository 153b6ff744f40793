"""The SciPy route (engine.routes.state_graph) against the pure-Python A* it replaces.

The pure-Python ``_route_flat`` in ``engine.routes.search`` is the reference: on random
small maps (walls, doors opened and closed after the arrays exist, rubble, pits, allies
and enemies, both diagonal rules, with and without a budget) the fast path must find a
route exactly when the reference does, of the same cost, along open steps.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import Portal, PortalState
from engine.grid import DiagonalRule, Square
from engine.routes import MovementGraph, cheapest_route, search
from engine.routes.results import Route
from engine.routes.search import Walker
from engine.tokens import Side
from tests.engine.routes.helpers import graph, hero_among, token

SIZE = 10
squares = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))
segments = st.lists(
    st.tuples(st.integers(0, SIZE), st.integers(0, SIZE), st.integers(1, 4), st.booleans()).map(
        lambda t: ((t[0], t[1]), (t[0] + t[2], t[1]) if t[3] else (t[0], t[1] + t[2]))
    ),
    max_size=16,
)
DOORS = [
    Portal("d0", (3, 4), (4, 4), state=PortalState.CLOSED),
    Portal("d1", (6, 2), (6, 3), state=PortalState.OPEN),
    Portal("d2", (1, 7), (2, 7), state=PortalState.CLOSED),
]


def walked_cost(movement: MovementGraph, route: Route) -> int:
    """The cost of walking the route step by step: alternating diagonals, rubble doubles."""
    alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
    cost, parity = 0, 0
    for a, b in zip(route.squares, route.squares[1:], strict=False):
        step = 1
        if a.x != b.x and a.y != b.y and alternating:
            step, parity = (2, 0) if parity else (1, 1)
        cost += step * 2 if b in movement.difficult else step
    return cost


def both_routes(
    movement: MovementGraph, goal: Square, limit: int
) -> tuple[Route | None, Route | None]:
    mover = movement.token("hero")
    return (
        search._route_flat(movement, mover, goal, limit),
        search._route_sparse(movement, mover, goal, limit),
    )


@settings(max_examples=80, deadline=None)
@given(
    walls=segments,
    start=squares,
    goal=squares,
    rubble=st.lists(squares, max_size=12),
    pits=st.lists(squares, max_size=4),
    others=st.lists(st.tuples(squares, st.booleans()), max_size=6),
    toggles=st.lists(st.tuples(st.sampled_from(["d0", "d1", "d2"]), st.booleans()), max_size=4),
    savage=st.booleans(),
    budget=st.none() | st.integers(0, 30),
)
def test_the_scipy_route_costs_the_same_as_the_reference_search(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    goal: tuple[int, int],
    rubble: list[tuple[int, int]],
    pits: list[tuple[int, int]],
    others: list[tuple[tuple[int, int], bool]],
    toggles: list[tuple[str, bool]],
    savage: bool,
    budget: int | None,
) -> None:
    tokens = hero_among(start, others)
    movement = graph(
        width=SIZE,
        height=SIZE,
        walls=walls,
        portals=DOORS,
        tokens=tokens,
        difficult=rubble,
        impassable=[p for p in pits if p != start],
        system="savage-worlds" if savage else "spycraft",
    )
    target = Square(*goal)
    walker = Walker(movement, movement.token("hero"))
    if not walker.footprint_fits(target) or not walker.can_end(target):
        return
    limit = budget if budget is not None else 1 << 30
    # First query builds the arrays; the doors then change under them.
    both_routes(movement, target, limit)
    for door, is_open in toggles:
        movement.set_portal_state(door, PortalState.OPEN if is_open else PortalState.CLOSED)

    reference, fast = both_routes(movement, target, limit)
    assert (reference is None) == (fast is None)
    if reference is None or fast is None:
        return
    assert fast.cost.squares == reference.cost.squares
    assert fast.cost.squares <= limit
    assert fast.squares[0] == Square(*start) and fast.squares[-1] == target
    assert all(
        walker.step_between(a, b) for a, b in zip(fast.squares, fast.squares[1:], strict=False)
    )
    assert walked_cost(movement, fast) == fast.cost.squares


@pytest.mark.parametrize("sparse_from", [0, 1 << 30])
def test_cheapest_route_gives_one_answer_whichever_search_runs(
    monkeypatch: pytest.MonkeyPatch, sparse_from: int
) -> None:
    # A wall with one gap forces a detour; both searches must agree on its cost.
    walls = [((10, 0), (10, 17)), ((10, 18), (10, 30))]
    movement = graph(width=30, height=30, walls=walls, tokens=[token("hero", Side.PARTY, 2, 2)])
    monkeypatch.setattr(search, "ASTAR_BUILT", False)  # the Python and SciPy searches
    monkeypatch.setattr(search, "SPARSE_FROM", sparse_from)
    route = cheapest_route(movement, "hero", Square(25, 3))
    assert route is not None
    # Through the gap, (2,2) -> (9,17) -> (10,17) -> (25,3): 7 + 0 + 14 = 21 diagonals
    # (21 + 10 under the alternating rule) and 8 + 1 + 1 = 10 straight steps: 41.
    assert route.cost.squares == walked_cost(movement, route) == 41
    assert (Square(9, 17), Square(10, 17)) in zip(route.squares, route.squares[1:], strict=False)
    assert cheapest_route(movement, "hero", Square(25, 3), budget=route.cost.squares - 1) is None


def test_a_short_hop_behind_a_long_wall_is_handed_to_the_scipy_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The goal is 4 squares away on open ground, but the wall sends the route down to its
    # end at y=55 and back: 106 rows, the step past the wall's end and 3 diagonals,
    # 107 steps + 1 for the second diagonal = 108.
    movement = graph(
        width=60, height=60, walls=[((10, 0), (10, 55))], tokens=[token("hero", Side.PARTY, 8, 2)]
    )
    calls: list[Square] = []
    sparse = search._route_sparse

    def counted(movement: MovementGraph, mover: object, goal: Square, limit: int) -> object:
        calls.append(goal)
        return sparse(movement, mover, goal, limit)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "_route_sparse", counted)
    monkeypatch.setattr(search, "POPS_BEFORE_SPARSE", 50)
    monkeypatch.setattr(search, "ASTAR_BUILT", False)  # the Python and SciPy searches
    route = cheapest_route(movement, "hero", Square(12, 2))
    assert calls == [Square(12, 2)]
    assert route is not None and route.cost.squares == walked_cost(movement, route) == 108
    reference = search._route_flat(movement, movement.token("hero"), Square(12, 2), 1 << 30)
    assert reference is not None and reference.cost.squares == 108
