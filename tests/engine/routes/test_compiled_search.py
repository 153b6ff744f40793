"""The compiled route search (engine/routes/_astar.c) against the Python A* it mirrors.

``search._route_flat`` is the reference: on random small maps (walls, doors changed after
the first query, rubble, pits, allies and enemies, both diagonal rules, with and without a
budget) the compiled search must find the very same route (it takes the same steps in the
same order), and a square it calls unreachable must be one no unbounded search reaches.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import PortalState
from engine.grid import Square
from engine.routes import cheapest_route, reach, search
from engine.routes.compiled import ASTAR_BUILT
from engine.routes.search import Walker
from engine.tokens import Side
from tests.engine.routes.helpers import graph, hero_among, token
from tests.engine.routes.test_state_graph import DOORS, SIZE, segments, squares

needs_compiled = pytest.mark.skipif(not ASTAR_BUILT, reason="the route search is not compiled")


def test_the_search_is_compiled_where_a_compiler_is() -> None:
    """A failed build would only make routes slow, so say so loudly where it matters."""
    if os.environ.get("KILLBOX_NO_KERNEL"):
        pytest.skip("the compiled search is turned off (KILLBOX_NO_KERNEL)")
    compiler = shutil.which("cc") or shutil.which("gcc")
    headers = Path(sysconfig.get_paths()["include"], "Python.h").exists()
    if not (compiler and headers):
        pytest.skip("no C compiler or Python headers here: Killbox runs its Python search")
    assert ASTAR_BUILT, (
        "engine/routes/_astar.c was not compiled, or was built from older source (its "
        "INTERFACE differs): pip install -e '.[test]' again (or python setup.py build_ext "
        "--inplace)"
    )


@needs_compiled
@settings(max_examples=120, deadline=None)
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
def test_the_compiled_route_is_the_reference_route(
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
    mover = movement.token("hero")
    walker = Walker(movement, mover)
    if not walker.footprint_fits(target) or not walker.can_end(target):
        return
    limit = budget if budget is not None else 1 << 30
    cheapest_route(movement, "hero", target, budget=budget)  # the reachability is kept...
    for door, is_open in toggles:  # ...and the doors change under it
        movement.set_portal_state(door, PortalState.OPEN if is_open else PortalState.CLOSED)

    reference = search._route_flat(movement, mover, target, limit)
    compiled = cheapest_route(movement, "hero", target, budget=budget)
    assert compiled == reference


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(
    walls=segments,
    start=squares,
    pits=st.lists(squares, max_size=6),
    enemies=st.lists(squares, max_size=6),
)
def test_the_reachable_squares_are_those_an_unbounded_reach_finds(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    pits: list[tuple[int, int]],
    enemies: list[tuple[int, int]],
) -> None:
    tokens = [token("hero", Side.PARTY, *start)]
    tokens += [
        token(f"enemy{n}", Side.ENEMY, *square)
        for n, square in enumerate(dict.fromkeys(enemies))
        if square != start
    ]
    movement = graph(
        width=SIZE,
        height=SIZE,
        walls=walls,
        portals=DOORS,
        tokens=tokens,
        impassable=[p for p in pits if p != start],
    )
    mover = movement.token("hero")
    marks = movement.reachable_from(mover)
    found = {Square(i % SIZE, i // SIZE) for i, mark in enumerate(marks) if mark}
    everywhere = reach(movement, "hero", 4 * SIZE * SIZE)
    # No allies: every square the mover gets to is one it may end on, but its own.
    assert found == set(everywhere.squares) | {Square(*start)}
