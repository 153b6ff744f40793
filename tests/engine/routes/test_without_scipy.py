"""Routes without SciPy (the standalone build leaves it out) or the compiled search: the same
costs, in Python."""

from __future__ import annotations

import pytest

from engine.grid import Square
from engine.routes import cheapest_route, search
from engine.tokens import Side
from tests.engine.routes.helpers import graph, token

# A long wall with one gap makes the route detour far beyond the SciPy hand-over thresholds.
WALLS = [((10, 0), (10, 95)), ((0, 50), (9, 50))]


@pytest.mark.parametrize("system", ["spycraft", "savage-worlds"])
def test_a_long_route_costs_the_same_with_and_without_scipy(
    system: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    movement = graph(
        width=100,
        height=100,
        walls=WALLS,
        system=system,
        tokens=[token("hero", Side.PARTY, 2, 2)],
    )
    goal = Square(95, 3)
    monkeypatch.setattr(search, "ASTAR_BUILT", False)  # not the compiled search
    with_scipy = cheapest_route(movement, "hero", goal)
    monkeypatch.setattr(search, "HAVE_SCIPY", False)
    without = cheapest_route(movement, "hero", goal)
    assert with_scipy is not None and without is not None
    assert without.cost == with_scipy.cost
    assert without.squares[0] == Square(2, 2) and without.squares[-1] == goal
    crossings = [
        (a, b)
        for a, b in zip(without.squares, without.squares[1:], strict=False)
        if a.x < 10 <= b.x
    ]
    assert crossings and all(a.y >= 95 and b.y >= 95 for a, b in crossings)  # through the gap
