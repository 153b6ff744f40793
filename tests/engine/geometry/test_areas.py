"""Named areas: Spycraft Brace, d20 Aiming and Covering Fire cones, range bands."""

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry.areas import aiming_area, brace_area, covering_fire_area, range_bands
from engine.grid import FIVE_FOOT, SAVAGE_INCH, Square
from engine.tokens import Side, Token, Weapon

RIFLE = Weapon("rifle", range_increment=30.0, ammo=30, capacity=30, modes=("semi-auto",))
KNIFE = Weapon("knife", melee=True)
BOLT = Weapon("bolt rifle", range_increment=60.0, ammo=5, capacity=5, modes=("single-shot",))


def scene(system: str = "spycraft") -> EncounterState:
    scale = SAVAGE_INCH if system == "savage-worlds" else FIVE_FOOT
    shooter = Token("me", "Shooter", Side.PARTY, Square(10, 10), weapons=(RIFLE, KNIFE, BOLT))
    east = Token("east", "Thug east", Side.ENEMY, Square(15, 10))
    west = Token("west", "Thug west", Side.ENEMY, Square(5, 10))
    pal = Token("pal", "Friend east", Side.ALLY, Square(14, 11))
    far = Token("far", "Sniper", Side.ENEMY, Square(79, 10))
    return EncounterState("t", system, scale, BattleMap(80, 40), (shooter, east, west, pal, far))


def test_spycraft_brace_gives_plus_one_against_opponents_in_the_90_degree_cone() -> None:
    result = brace_area(scene(), "me", 0)  # facing east
    assert set(result.token_ids()) == {"east", "far"}
    modifier = result.affected("east").modifiers[0]
    assert (modifier.rule, modifier.value) == ("Brace", 1)
    assert Square(10, 10) not in result.squares  # the shooter's own square
    assert Square(12, 8) in result.squares and Square(12, 6) not in result.squares


def test_d20_aiming_is_plus_five_inside_the_60_ft_cone_and_minus_five_outside() -> None:
    result = aiming_area(scene("d20-firearms"), "me", 0)
    values = {t.token_id: t.modifiers[0].value for t in result.tokens}
    # 60 ft is 12 squares: the thug 5 squares east and the ally are inside; the sniper
    # 69 squares east and the thug to the west are not.
    assert values == {"east": 5, "pal": 5, "west": -5, "far": -5}
    assert max(s.x for s in result.squares) == 22  # twelve squares east of (10,10)


def test_d20_covering_fire_cone_is_one_range_increment_long() -> None:
    result = covering_fire_area(scene("d20-firearms"), "me", 180, "rifle")  # 30 ft = 6 squares
    assert result.allowed and result.token_ids() == ("west",)
    assert min(s.x for s in result.squares) == 4  # six squares west of (10,10)
    assert result.affected("west").modifiers[0].value == 15


@pytest.mark.parametrize(
    ("weapon", "words"), [("knife", "range increment"), ("bolt rifle", "semi-automatic")]
)
def test_covering_fire_needs_an_automatic_firearm(weapon: str, words: str) -> None:
    result = covering_fire_area(scene("d20-firearms"), "me", 0, weapon)
    assert not result.allowed and words in result.reasons[0]


def test_d20_range_increments_cost_two_each_up_to_ten() -> None:
    bands = range_bands(scene("d20-firearms"), "me", "rifle")
    assert len(bands.bands) == 10 and bands.maximum == 60 and bands.half_maximum == 30
    by_id = {t.token_id: t.modifiers[0] for t in bands.tokens}
    assert by_id["east"].value == 0  # 5 squares = 25 ft, first increment
    assert bands.out_of_range == ("far",)  # 69 squares, past 60
    assert bands.cqb == 6


def test_savage_worlds_bands_short_medium_long() -> None:
    state = scene("savage-worlds")
    pistol = Weapon("pistol", range_increment=4.0, ammo=7, capacity=7)
    me = state.token("me")
    state = state.with_token(Token(me.id, me.name, me.side, me.square, weapons=(pistol,)))
    bands = range_bands(state, "me", "pistol")
    assert [(b.name, b.outer, b.modifier.value) for b in bands.bands][:3] == [
        ("Short", 4, 0),
        ("Medium", 8, -2),
        ("Long", 16, -4),
    ]
    by_id = {t.token_id: t.modifiers[0].rule for t in bands.tokens}
    assert by_id["east"] == "Medium"  # 5 inches away
    assert bands.band_at(16) is bands.bands[2]
