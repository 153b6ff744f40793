"""Spycraft Withdraw and the Cities Without Number Run's free attacks."""

from __future__ import annotations

from engine.grid import Square
from engine.routes import MovementGraph
from engine.routes.withdraw import cwn_run, withdraw
from engine.tokens import Side, Weapon
from tests.engine.routes.helpers import KNIFE, encounter, token

PISTOL = Weapon("pistol", "2d6", range_increment=20.0, ammo=8, capacity=8)


def test_withdraw_first_five_feet_must_leave_every_opponent() -> None:
    hero = token("hero", Side.PARTY, 5, 5)
    movement = MovementGraph(encounter(tokens=[hero, token("thug", Side.ENEMY, 6, 5)]))
    result = withdraw(movement, "hero")
    assert result.allowed and result.first_leg_squares == 1 and result.between is None
    # (5,4) is next to the thug: it can be a destination, but never the first step.
    route = result.reach.route_to(Square(5, 4))
    assert route.squares[1] not in {Square(5, 4), Square(5, 6), Square(6, 4), Square(6, 6)}
    assert route.cost.squares == 2
    for square in result.reach.squares:
        first = result.reach.route_to(square).squares[1]
        assert max(abs(first.x - 6), abs(first.y - 5)) > 1


def test_withdraw_goes_up_to_twice_speed() -> None:
    hero = token("hero", Side.PARTY, 15, 5)
    movement = MovementGraph(encounter(width=40, tokens=[hero, token("thug", Side.ENEMY, 16, 5)]))
    area = withdraw(movement, "hero").reach
    assert Square(3, 5) in area  # 12 squares = 60 ft
    assert Square(2, 5) not in area
    assert max(area.costs.values()) <= 12


def test_withdraw_between_two_opponents_checks_the_first_ten_feet() -> None:
    hero = token("hero", Side.PARTY, 5, 5)
    tokens = [hero, token("left", Side.ENEMY, 4, 5), token("right", Side.ENEMY, 6, 5)]
    result = withdraw(MovementGraph(encounter(tokens=tokens)), "hero")
    assert result.between == ("left", "right") and result.first_leg_squares == 2
    assert Square(5, 3) in result.reach
    route = result.reach.route_to(Square(5, 3))
    assert route.squares == (Square(5, 5), Square(5, 4), Square(5, 3))
    for square in result.reach.squares:
        squares = result.reach.route_to(square).squares
        assert all(max(abs(squares[2].x - x), abs(squares[2].y - 5)) > 1 for x in (4, 6))


def test_withdraw_refused_when_no_first_move_breaks_away() -> None:
    tokens = [
        token("hero", Side.PARTY, 1, 0),
        token("left", Side.ENEMY, 0, 0),
        token("right", Side.ENEMY, 2, 0),
    ]
    result = withdraw(MovementGraph(encounter(width=3, height=1, tokens=tokens)), "hero")
    assert not result.allowed
    assert result.reasons == ("every first 10 ft of movement leaves Hero next to an opponent",)


def cwn(*tokens):  # type: ignore[no-untyped-def]
    return MovementGraph(encounter(system="cities-without-number", tokens=tokens))


def test_cwn_run_gives_adjacent_armed_melee_enemies_a_free_attack() -> None:
    movement = cwn(
        token("hero", Side.PARTY, 5, 5, speed=10.0),
        token("blade", Side.ENEMY, 6, 5, weapons=(KNIFE,)),
        token("gunner", Side.ENEMY, 4, 5, weapons=(PISTOL,)),
        token("far", Side.ENEMY, 9, 5, weapons=(KNIFE,)),
    )
    run = cwn_run(movement, "hero")
    assert [(a.attacker_id, a.weapon) for a in run.free_attacks] == [("blade", "knife")]
    assert max(run.reach.costs.values()) == 6  # 10 m at 1.5 m a square


def test_cwn_fighting_withdrawal_first_avoids_the_free_attack() -> None:
    movement = cwn(
        token("hero", Side.PARTY, 5, 5, speed=10.0),
        token("blade", Side.ENEMY, 6, 5, weapons=(KNIFE,)),
    )
    run = cwn_run(movement, "hero", fighting_withdrawal=True)
    assert run.free_attacks == ()
    assert "Fighting Withdrawal" in run.notes[0]
    assert cwn_run(movement, "hero", hyper_accelerated=True).free_attacks == ()


def test_cwn_helpless_enemy_gets_no_free_attack() -> None:
    movement = cwn(
        token("hero", Side.PARTY, 5, 5, speed=10.0),
        token("blade", Side.ENEMY, 6, 5, weapons=(KNIFE,), conditions=["unconscious"]),
    )
    assert cwn_run(movement, "hero").free_attacks == ()
