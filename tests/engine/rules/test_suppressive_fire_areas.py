"""Suppressive Fire areas of Spycraft and the d20 rules (each in its package, filling
engine.geometry.suppression's value)."""

import pytest

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules.d20_firearms.suppressive_fire import (
    suppressive_fire_area as d20_suppressive_fire,
)
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.rules.spycraft.suppressive_fire import (
    suppressive_fire_area as spycraft_suppressive_fire,
)
from engine.tokens import Side, Token, Weapon

RIFLE = Weapon(
    "rifle", range_increment=10.0, ammo=20, capacity=30, modes=("full auto",), rate_of_fire=3
)


def scene(system: str, ammo: int = 20, battlemap: BattleMap | None = None) -> EncounterState:
    scale = SAVAGE_INCH if system == "savage-worlds" else FIVE_FOOT
    gun = RIFLE.with_ammo(ammo)
    me = Token("me", "Gunner", Side.PARTY, Square(0, 5), weapons=(gun,))
    other = Token("pal", "Second gunner", Side.PARTY, Square(0, 7), weapons=(gun,))
    thug = Token("thug", "Thug", Side.ENEMY, Square(8, 5))
    boss = Token("boss", "Boss", Side.ENEMY, Square(9, 6), size=2)
    return EncounterState(
        "s", system, scale, battlemap or BattleMap(60, 30), (me, other, thug, boss)
    )


def test_spycraft_suppresses_one_empty_square_with_five_warning_shots() -> None:
    area = spycraft_suppressive_fire(scene("spycraft"), "me", Square(6, 5), "rifle")
    assert area.allowed and area.shots == 5 and area.squares == {Square(6, 5)}
    assert [m.value for m in area.movers] == [-4, -4]


def test_spycraft_refuses_occupied_far_and_hidden_squares() -> None:
    occupied = spycraft_suppressive_fire(scene("spycraft"), "me", Square(8, 5), "rifle")
    assert "occupied by Thug" in occupied.reasons[0]
    # 10 ft increments: maximum range 10 increments = 100 ft = 20 squares.
    far = spycraft_suppressive_fire(scene("spycraft"), "me", Square(30, 5), "rifle")
    assert any("beyond the rifle's maximum range of 100 ft" in r for r in far.reasons)
    walled = BattleMap(60, 30, walls=(Wall((3, 0), (3, 30)),))
    hidden = spycraft_suppressive_fire(
        scene("spycraft", battlemap=walled), "me", Square(6, 5), "rifle"
    )
    assert "the shooter cannot see the area" in hidden.reasons


def test_d20_area_is_ten_by_ten_feet_and_needs_ten_rounds() -> None:
    area = d20_suppressive_fire(scene("d20-firearms"), "me", Square(8, 5), "rifle")
    assert area.squares == {Square(8, 5), Square(9, 5), Square(8, 6), Square(9, 6)}
    assert area.shots == 10 and area.allowed
    assert set(t.token_id for t in area.tokens) == {"thug", "boss"}
    assert [m.value for m in area.attack] == [10, -4]  # Defense 10; no feat -4
    assert [m.value for m in area.tokens[0].modifiers] == [-4, -4, 15]
    proficient = d20_suppressive_fire(
        scene("d20-firearms"), "me", Square(8, 5), "rifle", advanced_firearms_proficiency=True
    )
    assert [m.value for m in proficient.attack] == [10]
    short = d20_suppressive_fire(scene("d20-firearms", ammo=9), "me", Square(8, 5), "rifle")
    assert "needs 10" in short.reasons[0]


def test_off_map_square_is_an_error() -> None:
    with pytest.raises(ValueError, match="outside the map"):
        spycraft_suppressive_fire(scene("spycraft"), "me", Square(99, 5), "rifle")
