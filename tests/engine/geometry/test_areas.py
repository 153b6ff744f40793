"""Areas around a token: cones from its centre and a weapon's range bands from a table."""

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry.areas import RangeTable, map_reach, range_bands, range_table_from, token_cone
from engine.geometry.templates import Inclusion
from engine.grid import FIVE_FOOT, GridScale, Square
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.tokens import Side, Token, Weapon

RIFLE = Weapon("rifle", range_increment=30.0, ammo=30, capacity=30, modes=("semi-auto",))
KNIFE = Weapon("knife", melee=True)
INCREMENTS = RangeTable("to the attack roll", penalty_per_increment=-2, maximum_increments=10,
                        thrown_maximum_increments=5, cqb_increments=1)
BANDS = RangeTable("to the roll", (("Short", 1, 0), ("Medium", 2, -2), ("Long", 4, -4)))


def scene(scale: GridScale = FIVE_FOOT) -> EncounterState:
    shooter = Token("me", "Shooter", Side.PARTY, Square(10, 10), weapons=(RIFLE, KNIFE))
    east = Token("east", "Thug east", Side.ENEMY, Square(15, 10))
    west = Token("west", "Thug west", Side.ENEMY, Square(5, 10))
    pal = Token("pal", "Friend east", Side.ALLY, Square(14, 11))
    far = Token("far", "Sniper", Side.ENEMY, Square(79, 10))
    return EncounterState("t", "any", scale, BattleMap(80, 40), (shooter, east, west, pal, far))


def test_a_token_cone_starts_at_its_centre_and_leaves_its_own_square_out() -> None:
    shape, squares = token_cone(scene(), "me", 0, 12, 90, inclusion=Inclusion.CENTRE)
    assert Square(10, 10) not in squares
    assert max(s.x for s in squares) == 22  # twelve squares east of (10,10)
    assert Square(12, 8) in squares and Square(12, 6) not in squares
    assert shape.bounds[0] == pytest.approx(10.5)


def test_map_reach_crosses_the_whole_map() -> None:
    _, squares = token_cone(scene(), "me", 0, map_reach(scene()), 90, inclusion=Inclusion.CENTRE)
    assert Square(79, 10) in squares


def test_range_increments_cost_the_tables_penalty_each_up_to_its_maximum() -> None:
    bands = range_bands(scene(), "me", "rifle", INCREMENTS)
    assert len(bands.bands) == 10 and bands.maximum == 60 and bands.half_maximum == 30
    by_id = {t.token_id: t.modifiers[0] for t in bands.tokens}
    assert by_id["east"].value == 0  # 5 squares = 25 ft, first increment
    assert bands.out_of_range == ("far",)  # 69 squares, past 60
    assert bands.cqb == 6


def test_named_bands_short_medium_long() -> None:
    state = scene(SAVAGE_INCH)
    pistol = Weapon("pistol", range_increment=4.0, ammo=7, capacity=7)
    me = state.token("me")
    state = state.with_token(Token(me.id, me.name, me.side, me.square, weapons=(pistol,)))
    bands = range_bands(state, "me", "pistol", BANDS)
    assert [(b.name, b.outer, b.modifier.value) for b in bands.bands][:3] == [
        ("Short", 4, 0),
        ("Medium", 8, -2),
        ("Long", 16, -4),
    ]
    by_id = {t.token_id: t.modifiers[0].rule for t in bands.tokens}
    assert by_id["east"] == "Medium"  # 5 inches away


def test_a_thrown_weapon_reaches_the_thrown_maximum() -> None:
    state = scene()
    me = state.token("me")
    knife = Weapon("throwing knife", range_increment=10.0, traits=("thrown",))
    state = state.with_token(Token(me.id, me.name, me.side, me.square, weapons=(knife,)))
    assert len(range_bands(state, "me", "throwing knife", INCREMENTS).bands) == 5


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"applies_to": "x", "penalty_per_increment": -2}, "missing 'maximum_increments'"),
        ({"bands": [["Short", "far", 0]]}, "could not convert"),
        ({"bands": []}, "'bands' is empty"),
    ],
)
def test_a_bad_range_table_is_refused_naming_where_and_what(raw: object, problem: str) -> None:
    with pytest.raises(ValueError, match=f"^house.json: .*{problem}"):
        range_table_from(raw, "house.json")
