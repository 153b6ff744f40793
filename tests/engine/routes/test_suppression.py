"""Spycraft Suppressive Fire: a route through a suppressed square draws final attacks."""

from __future__ import annotations

from engine.grid import Square
from engine.routes import MovementGraph, cheapest_route, reach
from engine.routes.suppression import SuppressedArea, final_attacks, with_suppression
from engine.rules.spycraft.suppressive_fire import suppressive_fire_area
from engine.tokens import Side, Weapon
from tests.engine.routes.helpers import encounter, token

SMG = Weapon("smg", "2d6", range_increment=30.0, ammo=10, capacity=30)
EMPTY = Weapon("empty smg", "2d6", range_increment=30.0, ammo=0, capacity=30)


def setup():  # type: ignore[no-untyped-def]
    tokens = [
        token("runner", Side.PARTY, 0, 0),
        token("gunner", Side.ENEMY, 10, 10, weapons=(SMG, EMPTY)),
        token("other", Side.ENEMY, 12, 10, weapons=(SMG,)),
        token("friend", Side.ALLY, 14, 10, weapons=(SMG,)),
    ]
    movement = MovementGraph(encounter(tokens=tokens))
    route = cheapest_route(movement, "runner", Square(6, 0))
    assert route is not None
    return movement, route


def test_each_suppressing_opponent_gets_one_final_attack() -> None:
    movement, route = setup()
    areas = [
        SuppressedArea("gunner", "smg", frozenset({Square(3, 0)})),
        SuppressedArea("other", "smg", frozenset({Square(4, 0), Square(5, 0)})),
        SuppressedArea("friend", "smg", frozenset({Square(2, 0)})),  # not an opponent
        SuppressedArea("gunner", "smg", frozenset({Square(9, 9)})),  # not on the route
    ]
    attacks = final_attacks(movement, "runner", route, areas)
    assert [(a.shooter_id, a.square) for a in attacks] == [
        ("gunner", Square(3, 0)),
        ("other", Square(4, 0)),
    ]
    assert all(a.attack_penalty == -4 for a in attacks)


def test_no_final_attack_without_ammunition_but_the_penalty_stays() -> None:
    movement, route = setup()
    areas = [SuppressedArea("gunner", "empty smg", frozenset({Square(3, 0)}))]
    annotated = with_suppression(movement, "runner", route, areas)
    assert annotated.final_attacks == ()
    assert annotated.check_penalty == -4


def test_the_start_square_is_not_moving_through() -> None:
    movement, route = setup()
    areas = [SuppressedArea("gunner", "smg", frozenset({Square(0, 0)}))]
    annotated = with_suppression(movement, "runner", route, areas)
    assert annotated.final_attacks == () and annotated.check_penalty == 0


def test_areas_from_the_geometry_package_are_accepted() -> None:
    tokens = (
        token("runner", Side.PARTY, 0, 0),
        token("gunner", Side.ENEMY, 10, 10, weapons=(SMG,)),
    )
    state = encounter(tokens=tokens)
    area = suppressive_fire_area(state, "gunner", Square(3, 0), "smg")
    assert area.allowed
    movement = MovementGraph(state)
    route = cheapest_route(movement, "runner", Square(6, 0))
    assert route is not None
    annotated = with_suppression(movement, "runner", route, [area])
    assert [(a.shooter_id, a.square) for a in annotated.final_attacks] == [("gunner", Square(3, 0))]


def test_reach_and_cheapest_route_report_final_attacks_when_asked() -> None:
    movement, _ = setup()
    areas = [SuppressedArea("gunner", "smg", frozenset({Square(3, 0)}))]
    route = cheapest_route(movement, "runner", Square(6, 0), suppression=areas)
    assert route is not None and [a.shooter_id for a in route.final_attacks] == ["gunner"]
    area = reach(movement, "runner", 6, suppression=areas)
    through = area.route_to(Square(4, 0))
    assert through.check_penalty == -4 and len(through.final_attacks) == 1
    assert area.route_to(Square(0, 3)).final_attacks == ()
