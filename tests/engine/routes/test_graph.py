"""The movement graph: walls, doors, corners, cover, in-place updates, NetworkX use."""

from __future__ import annotations

from dataclasses import replace

import networkx as nx
import pytest

from engine.battlemap import CoverObject, Portal, PortalKind, PortalState
from engine.grid import Square
from engine.routes import MovementGraph, RouteError, graph_for
from engine.tokens import Side
from tests.engine.routes.helpers import encounter, graph, token


def test_open_map_has_every_neighbour_edge() -> None:
    movement = graph(width=3, height=3)
    # 12 straight steps and 8 diagonal ones on a 3x3 board.
    assert movement.graph.number_of_nodes() == 9
    assert movement.graph.number_of_edges() == 20
    assert set(movement.graph.neighbors(Square(1, 1))) == set(Square(1, 1).neighbours())


def test_wall_cuts_the_step_across_it() -> None:
    movement = graph(walls=[((3, 0), (3, 5))])
    assert not movement.graph.has_edge(Square(2, 2), Square(3, 2))
    assert movement.graph.has_edge(Square(3, 2), Square(4, 2))
    assert movement.graph.has_edge(Square(2, 6), Square(3, 6))


def test_no_diagonal_step_cuts_a_wall_corner() -> None:
    # A one-square wall on x=3 between y=0 and y=1: both diagonals through (3, 1) are cut.
    movement = graph(walls=[((3, 0), (3, 1))])
    assert not movement.graph.has_edge(Square(2, 0), Square(3, 1))
    assert not movement.graph.has_edge(Square(2, 1), Square(3, 0))
    # Around it orthogonally is fine.
    assert movement.graph.has_edge(Square(2, 1), Square(3, 1))


def test_door_toggles_its_steps_in_place() -> None:
    door = Portal("d1", (3, 2), (3, 3), PortalKind.DOOR, PortalState.CLOSED)
    movement = graph(walls=[((3, 0), (3, 2)), ((3, 3), (3, 6))], portals=[door])
    nx_graph = movement.graph
    assert not nx_graph.has_edge(Square(2, 2), Square(3, 2))
    movement.open_portal("d1")
    assert movement.graph is nx_graph
    assert nx_graph.has_edge(Square(2, 2), Square(3, 2))
    assert nx_graph[Square(2, 2)][Square(3, 2)]["portals"] == ("d1",)
    # Diagonals through the door's ends touch the walls: still cut.
    assert not nx_graph.has_edge(Square(2, 1), Square(3, 2))
    movement.set_portal_state("d1", PortalState.LOCKED)
    assert not nx_graph.has_edge(Square(2, 2), Square(3, 2))


def test_door_toggle_when_only_one_side_was_looked_at() -> None:
    door = Portal("d1", (3, 2), (3, 3), PortalKind.DOOR, PortalState.OPEN)
    movement = graph(portals=[door])
    assert Square(3, 2) in movement.graph[Square(2, 2)]  # makes (2,2)'s neighbours only
    movement.set_portal_state("d1", PortalState.CLOSED)
    assert not movement.graph.has_edge(Square(2, 2), Square(3, 2))
    assert Square(2, 2) not in movement.graph[Square(3, 2)]
    movement.open_portal("d1")
    assert movement.graph[Square(2, 2)][Square(3, 2)] is movement.graph[Square(3, 2)][Square(2, 2)]


def test_window_blocks_even_when_open() -> None:
    window = Portal("w1", (3, 2), (3, 3), PortalKind.WINDOW, PortalState.OPEN)
    movement = graph(portals=[window])
    assert not movement.graph.has_edge(Square(2, 2), Square(3, 2))


def test_blocking_cover_removes_its_squares_and_edges() -> None:
    crates = CoverObject("c1", "crates", ((4, 4), (6, 4), (6, 6), (4, 6)))
    movement = graph(cover=[crates])
    assert Square(4, 4) in movement.impassable and Square(5, 5) in movement.impassable
    assert not movement.graph.has_edge(Square(3, 4), Square(4, 4))
    low = CoverObject("c2", "low hedge", ((4, 4), (6, 4), (6, 6), (4, 6)), blocks_movement=False)
    assert Square(4, 4) not in graph(cover=[low]).impassable


def test_networkx_algorithms_run_on_the_graph() -> None:
    movement = graph(width=10, height=10, walls=[((5, 0), (5, 9))])
    path = nx.shortest_path(movement.graph, Square(0, 0), Square(9, 0))
    assert path[0] == (0, 0) and path[-1] == (9, 0)
    assert any(s[1] == 9 for s in path)  # around the end of the wall


def test_weight_function_hides_enemy_squares() -> None:
    hero = token("hero", Side.PARTY, 0, 0)
    thug = token("thug", Side.ENEMY, 1, 0)
    movement = graph(width=3, height=1, tokens=[hero, thug])
    weight = movement.weight("hero")
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path(movement.graph, Square(0, 0), Square(2, 0), weight=weight)


def test_moving_a_token_updates_occupancy_in_place() -> None:
    hero = token("hero", Side.PARTY, 0, 0)
    movement = graph(tokens=[hero])
    movement.move_token("hero", Square(5, 5))
    assert movement.graph.nodes[Square(5, 5)]["occupant"] == "hero"
    assert movement.graph.nodes[Square(0, 0)]["occupant"] is None
    with pytest.raises(RouteError, match="outside"):
        movement.move_token("hero", Square(50, 5))
    assert movement.token("hero").square == Square(5, 5)


def test_sync_follows_a_newer_encounter_state() -> None:
    door = Portal("d1", (3, 2), (3, 3))
    state = encounter(portals=[door], tokens=[token("hero", Side.PARTY, 0, 0)])
    movement = MovementGraph(state, difficult_cost=2)
    newer = state.with_token(state.token("hero").moved_to(Square(2, 2)))
    newer = replace(newer, battlemap=newer.battlemap.with_portal_state("d1", PortalState.OPEN))
    movement.sync(newer)
    assert movement.occupant == {Square(2, 2): "hero"}
    assert movement.graph.has_edge(Square(2, 2), Square(3, 2))


def test_unknown_door_is_a_clear_error() -> None:
    with pytest.raises(RouteError, match="no door or window 'nope'"):
        graph().open_portal("nope")


def test_graph_for_reuses_one_graph_per_map_and_syncs_it() -> None:
    door = Portal("d1", (3, 2), (3, 3))
    state = encounter(
        portals=[door], walls=[((3, 0), (3, 2))], tokens=[token("hero", Side.PARTY, 0, 0)]
    )
    first = graph_for(state, difficult_cost=2)
    moved = state.with_token(state.token("hero").moved_to(Square(4, 4)))
    opened = replace(moved, battlemap=moved.battlemap.with_portal_state("d1", PortalState.OPEN))
    second = graph_for(opened, difficult_cost=2)
    assert second is first
    assert second.occupant == {Square(4, 4): "hero"}
    assert second.graph.has_edge(Square(2, 2), Square(3, 2))
    other = graph_for(encounter(width=5, height=5), difficult_cost=2)
    assert other is not first
