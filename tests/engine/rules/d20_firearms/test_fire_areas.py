"""The d20 cones: Aiming and Covering Fire."""

import pytest

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules.d20_firearms.fire_areas import aiming_area, covering_fire_area
from engine.tokens import Side, Token, Weapon

RIFLE = Weapon("rifle", range_increment=30.0, ammo=30, capacity=30, modes=("semi-auto",))
KNIFE = Weapon("knife", melee=True)
BOLT = Weapon("bolt rifle", range_increment=60.0, ammo=5, capacity=5, modes=("single-shot",))


def scene() -> EncounterState:
    tokens = (
        Token("me", "Shooter", Side.PARTY, Square(10, 10), weapons=(RIFLE, KNIFE, BOLT)),
        Token("east", "Thug east", Side.ENEMY, Square(15, 10)),
        Token("west", "Thug west", Side.ENEMY, Square(5, 10)),
        Token("pal", "Friend east", Side.ALLY, Square(14, 11)),
        Token("far", "Sniper", Side.ENEMY, Square(79, 10)),
    )
    return EncounterState("t", "d20-firearms", FIVE_FOOT, BattleMap(80, 40), tokens)


def test_aiming_is_plus_five_inside_the_60_ft_cone_and_minus_five_outside() -> None:
    result = aiming_area(scene(), "me", 0)
    values = {t.token_id: t.modifiers[0].value for t in result.tokens}
    # 60 ft is 12 squares: the thug 5 squares east and the ally are inside; the sniper
    # 69 squares east and the thug to the west are not.
    assert values == {"east": 5, "pal": 5, "west": -5, "far": -5}
    assert max(s.x for s in result.squares) == 22  # twelve squares east of (10,10)


def test_covering_fire_cone_is_one_range_increment_long() -> None:
    result = covering_fire_area(scene(), "me", 180, "rifle")  # 30 ft = 6 squares
    assert result.allowed and result.token_ids() == ("west",)
    assert min(s.x for s in result.squares) == 4  # six squares west of (10,10)
    assert result.affected("west").modifiers[0].value == 15


def test_covering_fire_passes_over_a_foe_behind_a_wall() -> None:
    """A soldier behind a solid wall inside the cone was listed under the fire: the hit was
    refused for total cover, yet he rolled a Reflex save and was told to dive for cover."""
    state = scene()
    walled = EncounterState(state.name, state.system, state.scale,
                            BattleMap(80, 40, walls=(Wall((7.0, 5.0), (7.0, 16.0)),)),
                            state.tokens)
    result = covering_fire_area(walled, "me", 180, "rifle")
    assert result.token_ids() == ()  # the thug west stands behind the wall at x = 7
    assert Square(5, 10) in result.squares  # the cone itself is drawn whole


@pytest.mark.parametrize(
    ("weapon", "words"), [("knife", "range increment"), ("bolt rifle", "semi-automatic")]
)
def test_covering_fire_needs_an_automatic_firearm(weapon: str, words: str) -> None:
    result = covering_fire_area(scene(), "me", 0, weapon)
    assert not result.allowed and words in result.reasons[0]
