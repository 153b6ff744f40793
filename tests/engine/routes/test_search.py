"""Reach and cheapest routes: system costs, terrain, tokens, big tokens, property tests."""

from __future__ import annotations

import networkx as nx
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import Portal, PortalState
from engine.grid import NEIGHBOUR_STEPS, DiagonalRule, Square, path_cost_squares
from engine.routes import MovementGraph, cheapest_route, reach, speed_budget
from engine.tokens import Side
from tests.engine.routes.helpers import encounter, graph, token

HERO = token("hero", Side.PARTY, 0, 0)


def test_d20_diagonals_alternate_one_and_two_squares() -> None:
    # d20 movement: the first diagonal counts 5 ft, the second 10 ft, and so on.
    movement = graph(tokens=[HERO])
    area = reach(movement, "hero", 6)
    assert area.costs[Square(1, 1)] == 1
    assert area.costs[Square(2, 2)] == 3
    assert area.costs[Square(4, 4)] == 6
    assert Square(5, 5) not in area
    route = area.route_to(Square(4, 4))
    assert route.squares == tuple(Square(i, i) for i in range(5))
    assert route.cost.squares == 6 and route.cost.text == "30 ft"


def test_alternation_depends_on_diagonals_before_not_a_fixed_weight() -> None:
    # A straight step before a diagonal does not reset the count; the state search keeps it.
    movement = graph(tokens=[HERO])
    route = cheapest_route(movement, "hero", Square(3, 2))
    assert route is not None
    assert route.cost.squares == path_cost_squares(route.squares, DiagonalRule.ALTERNATING) == 4


def test_difficult_terrain_doubles_even_the_second_diagonal() -> None:
    # Two diagonals into the rubble: 1 + 2 x 2 = 5. A straight step, a first diagonal and a
    # straight step into the rubble: 1 + 1 + 1 x 2 = 4, the cheapest.
    movement = graph(tokens=[HERO], difficult=[(2, 2)])
    area = reach(movement, "hero", 10)
    assert area.costs[Square(2, 2)] == 4
    # Open ground would give 3 diagonals = 4; around the rubble it is 5.
    assert area.costs[Square(3, 3)] == 5


def test_every_diagonal_is_one_square_in_savage_worlds() -> None:
    movement = graph(tokens=[HERO], system="savage-worlds")
    area = reach(movement, "hero", 6)
    assert area.costs[Square(6, 6)] == 6
    assert area.route_to(Square(6, 6)).cost.text == '6" (12 yd)'


def test_enemies_block_and_allies_are_crossed_but_not_ended_on() -> None:
    corridor = [((0, 1), (10, 1)), ((0, 2), (10, 2))]
    friend = token("friend", Side.ALLY, 2, 1)
    hero = token("hero", Side.PARTY, 0, 1)
    movement = graph(tokens=[hero, friend], walls=corridor)
    area = reach(movement, "hero", 6)
    assert Square(2, 1) not in area and Square(3, 1) in area
    movement.put_token(token("friend", Side.ENEMY, 2, 1))
    assert Square(3, 1) not in reach(movement, "hero", 6)


def test_impassable_terrain_blocks() -> None:
    movement = graph(width=5, height=1, tokens=[HERO], impassable=[(2, 0)])
    assert reach(movement, "hero", 10).squares == {Square(1, 0)}


def test_big_token_needs_a_gap_as_wide_as_itself() -> None:
    # A wall on x=5 with a one-square gap at y=4..5 and a two-square gap at y=10..12.
    walls = [((5, 0), (5, 4)), ((5, 5), (5, 10)), ((5, 12), (5, 20))]
    ogre = token("ogre", Side.ENEMY, 2, 4, size=2)
    scout = token("scout", Side.ENEMY, 2, 0)
    movement = graph(tokens=[ogre, scout], walls=walls)
    ogre_route = cheapest_route(movement, "ogre", Square(7, 4))
    assert ogre_route is not None
    assert any(s.y >= 10 for s in ogre_route.squares)
    scout_route = cheapest_route(movement, "scout", Square(7, 4))
    assert scout_route is not None and all(s.y <= 5 for s in scout_route.squares)


def test_route_to_an_unreachable_square_is_none() -> None:
    walls = [((3, 0), (3, 3)), ((0, 3), (3, 3))]
    assert cheapest_route(graph(tokens=[HERO], walls=walls), "hero", Square(10, 10)) is None


def test_one_rule_reach_matches_networkx_dijkstra() -> None:
    state = encounter(
        system="cities-without-number",
        tokens=[HERO, token("foe", Side.ENEMY, 3, 3)],
        walls=[((4, 0), (4, 6)), ((1, 5), (6, 5))],
        difficult=[(2, 2), (2, 3)],
    )
    movement = MovementGraph(state, difficult_cost=2)
    ours = reach(movement, "hero", 9).costs
    theirs = nx.single_source_dijkstra_path_length(
        movement.graph, Square(0, 0), cutoff=9, weight=movement.weight("hero")
    )
    assert ours == {s: int(c) for s, c in theirs.items() if s != Square(0, 0)}


# -- property tests ---------------------------------------------------------------------

SIZE = 8
segments = st.lists(
    st.tuples(st.integers(0, SIZE), st.integers(0, SIZE), st.integers(1, 3), st.booleans()).map(
        lambda t: ((t[0], t[1]), (t[0] + t[2], t[1]) if t[3] else (t[0], t[1] + t[2]))
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(segments, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.integers(1, 8))
def test_reach_never_crosses_a_wall(
    walls: list[tuple[tuple[int, int], tuple[int, int]]], x: int, y: int, budget: int
) -> None:
    movement = graph(width=SIZE, height=SIZE, walls=walls, tokens=[token("hero", Side.PARTY, x, y)])
    lines = [shapely.LineString(w) for w in walls]
    area = reach(movement, "hero", budget)
    for square in area.squares:
        route = area.route_to(square)
        assert route.cost.squares <= budget
        assert route.cost.squares == path_cost_squares(route.squares, DiagonalRule.ALTERNATING)
        for a, b in zip(route.squares, route.squares[1:], strict=False):
            step = shapely.LineString([a.centre, b.centre])
            assert not any(step.intersects(line) for line in lines)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 30)
)
def test_a_route_never_costs_more_than_its_budget(
    x: int, y: int, gx: int, gy: int, budget: int
) -> None:
    movement = graph(
        width=10, height=10, tokens=[token("hero", Side.PARTY, x, y)], difficult=[(5, 5), (4, 5)]
    )
    route = cheapest_route(movement, "hero", Square(gx, gy), budget=budget)
    if route is not None:
        assert route.cost.squares <= budget
        assert route.squares[0] == Square(x, y) and route.squares[-1] == Square(gx, gy)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 7), st.integers(0, 7), st.integers(1, 10), st.booleans())
def test_opening_a_door_never_shrinks_reach(x: int, y: int, budget: int, window: bool) -> None:
    walls = [((4, 0), (4, 3)), ((4, 4), (4, 8))]
    door = Portal("d", (4, 3), (4, 4), state=PortalState.CLOSED)
    movement = graph(
        width=8, height=8, walls=walls, portals=[door], tokens=[token("hero", Side.PARTY, x, y)]
    )
    before = reach(movement, "hero", budget).costs
    movement.open_portal("d")
    after = reach(movement, "hero", budget).costs
    assert set(before) <= set(after)
    assert all(after[s] <= c for s, c in before.items())


def test_speed_budget_in_squares() -> None:
    movement = graph(tokens=[HERO])
    assert speed_budget(movement, "hero") == 6
    assert speed_budget(movement, "hero", 2) == 12


def test_big_token_reach_keeps_its_whole_footprint_free() -> None:
    ogre = token("ogre", Side.ENEMY, 0, 0, size=2)
    movement = graph(width=6, height=6, tokens=[ogre, token("imp", Side.ENEMY, 3, 3)])
    area = reach(movement, "ogre", 10)
    assert Square(4, 4) in area and Square(5, 5) not in area  # a 2x2 token at (5,5) is off the map
    assert Square(2, 2) not in area and Square(3, 3) not in area  # the imp is an ally here
    assert Square(3, 0) in area
    route = area.route_to(Square(2, 0))
    assert route.squares == (Square(0, 0), Square(1, 0), Square(2, 0))


@settings(max_examples=40, deadline=None)
@given(
    segments,
    st.integers(0, SIZE - 1),
    st.integers(0, SIZE - 1),
    st.integers(0, SIZE - 1),
    st.integers(0, SIZE - 1),
)
def test_a_star_route_costs_what_reach_says(
    walls: list[tuple[tuple[int, int], tuple[int, int]]], x: int, y: int, gx: int, gy: int
) -> None:
    movement = graph(
        width=SIZE,
        height=SIZE,
        walls=walls,
        tokens=[token("hero", Side.PARTY, x, y)],
        difficult=[(3, 3), (4, 3)],
    )
    area = reach(movement, "hero", 40)
    route = cheapest_route(movement, "hero", Square(gx, gy))
    if Square(gx, gy) == Square(x, y):
        return
    if route is None:
        assert Square(gx, gy) not in area
    else:
        assert route.cost.squares == area.costs[Square(gx, gy)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.booleans()), max_size=8))
def test_flat_mirror_matches_the_networkx_graph_after_door_changes(
    changes: list[tuple[int, bool]],
) -> None:
    doors = [Portal(f"d{i}", (2 * i + 1, 2), (2 * i + 2, 2)) for i in range(4)]
    walls = [((0, 2), (1, 2)), ((2, 2), (3, 2)), ((4, 2), (5, 2)), ((6, 2), (7, 2))]
    movement = graph(width=9, height=5, walls=walls, portals=doors)
    for index, is_open in changes:
        state = PortalState.OPEN if is_open else PortalState.CLOSED
        movement.set_portal_state(f"d{index}", state)
    for square in movement.graph:
        bits = movement.open_mask[square.y * 9 + square.x]
        mirror = {
            Square(square.x + dx, square.y + dy)
            for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS)
            if bits >> k & 1
        }
        assert mirror == set(movement.graph[square])


def test_a_goal_in_a_shut_room_is_answered_without_searching_the_map() -> None:
    room = [((50, 50), (53, 50)), ((53, 50), (53, 53)), ((53, 53), (50, 53)), ((50, 53), (50, 50))]
    movement = graph(width=120, height=120, walls=room, tokens=[HERO])
    assert cheapest_route(movement, "hero", Square(51, 51)) is None
    assert cheapest_route(movement, "hero", Square(60, 60)) is not None


ROOM_WALLS = st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(1, 5), st.booleans()).map(
        lambda t: ((t[0], t[1]), (t[0] + t[2], t[1]) if t[3] else (t[0], t[1] + t[2]))
    ),
    max_size=14,
)


@settings(max_examples=80, deadline=None)
@given(
    walls=ROOM_WALLS,
    start=st.tuples(st.integers(0, 10), st.integers(0, 10)),
    goal=st.tuples(st.integers(0, 10), st.integers(0, 10)),
    enemies=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=5),
    budget=st.integers(0, 20),
    size=st.sampled_from([1, 1, 2]),
    savage=st.booleans(),
)
def test_a_budgeted_route_is_the_unbounded_one_when_that_fits_the_budget(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    goal: tuple[int, int],
    enemies: list[tuple[int, int]],
    budget: int,
    size: int,
    savage: bool,
) -> None:
    # A drag asks with the mover's budget: the answer must be the unbounded search's route
    # cost when it fits, and "no route" exactly when it does not (or there is none).
    hero = token("hero", Side.PARTY, *start, size=size)
    others = [
        token(f"enemy{n}", Side.ENEMY, *square)
        for n, square in enumerate(dict.fromkeys(enemies))
        if square not in hero.squares
    ]
    system = "savage-worlds" if savage else "spycraft"
    kwargs = dict(width=12, height=12, walls=walls, tokens=[hero, *others], system=system)
    unbounded = cheapest_route(graph(**kwargs), "hero", Square(*goal))  # type: ignore[arg-type]
    bounded = cheapest_route(graph(**kwargs), "hero", Square(*goal), budget=budget)  # type: ignore[arg-type]
    fits = unbounded is not None and unbounded.cost.squares <= budget
    assert (bounded is not None) == fits
    if bounded is not None and unbounded is not None:
        assert bounded.cost.squares == unbounded.cost.squares


@settings(max_examples=40, deadline=None)
@given(
    walls=ROOM_WALLS,
    start=st.tuples(st.integers(0, 11), st.integers(0, 11)),
    goals=st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, 11), st.none() | st.integers(0, 15)),
        min_size=2,
        max_size=8,
    ),
)
def test_queries_on_one_graph_answer_as_on_a_fresh_graph(
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    start: tuple[int, int],
    goals: list[tuple[int, int, int | None]],
) -> None:
    # The search lends itself the graph's scratch lists; one query must leave nothing
    # behind for the next (a drag asks hundreds in a row).
    kwargs = dict(width=12, height=12, walls=walls, tokens=[token("hero", Side.PARTY, *start)])
    shared = graph(**kwargs)  # type: ignore[arg-type]
    for gx, gy, budget in goals:
        again = cheapest_route(shared, "hero", Square(gx, gy), budget=budget)
        fresh = cheapest_route(graph(**kwargs), "hero", Square(gx, gy), budget=budget)  # type: ignore[arg-type]
        assert (again is None) == (fresh is None)
        if again is not None and fresh is not None:
            assert again.squares == fresh.squares and again.cost == fresh.cost
