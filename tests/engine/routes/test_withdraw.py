"""Breaking away: adjacent opponents, a flanking pair, free attacks on leaving."""

from __future__ import annotations

from engine.routes import MovementGraph
from engine.routes.withdraw import adjacent_opponents, flanking_pair, run_free_attacks
from engine.tokens import Side, Weapon
from tests.engine.routes.helpers import KNIFE, encounter, token

PISTOL = Weapon("pistol", "2d6", range_increment=20.0, ammo=8, capacity=8)


def test_two_opponents_either_side_flank_the_mover() -> None:
    hero = token("hero", Side.PARTY, 5, 5)
    tokens = [hero, token("left", Side.ENEMY, 4, 5), token("right", Side.ENEMY, 6, 5)]
    movement = MovementGraph(encounter(tokens=tokens), difficult_cost=2)
    assert flanking_pair(movement, hero) == ("left", "right")
    assert {t.id for t in adjacent_opponents(movement, hero)} == {"left", "right"}


def test_two_opponents_on_one_side_do_not_flank() -> None:
    hero = token("hero", Side.PARTY, 5, 5)
    tokens = [hero, token("a", Side.ENEMY, 6, 4), token("b", Side.ENEMY, 6, 5)]
    assert flanking_pair(MovementGraph(encounter(tokens=tokens), difficult_cost=2), hero) is None


def test_leaving_gives_adjacent_armed_melee_enemies_a_free_attack() -> None:
    movement = MovementGraph(
        encounter(
            tokens=[
                token("hero", Side.PARTY, 5, 5, speed=10.0),
                token("blade", Side.ENEMY, 6, 5, weapons=(KNIFE,)),
                token("gunner", Side.ENEMY, 4, 5, weapons=(PISTOL,)),
                token("far", Side.ENEMY, 9, 5, weapons=(KNIFE,)),
                token("pal", Side.ALLY, 5, 6, weapons=(KNIFE,)),
            ]
        ), difficult_cost=2
    )
    found = run_free_attacks(movement, "hero")
    assert [(a.attacker_id, a.weapon) for a in found] == [("blade", "knife")]
