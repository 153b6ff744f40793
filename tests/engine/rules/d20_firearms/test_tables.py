"""The tables this system hands to engine.geometry: cover, range bands, template inclusion."""

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry.areas import range_bands
from engine.geometry.cover import CoverLevel, cover_between
from engine.geometry.templates import Inclusion
from engine.grid import FIVE_FOOT, Square
from engine.rules import get_system
from engine.rules.d20_firearms import tables
from engine.tokens import Side, Token, Weapon
from tests.engine.rules.cover_setting import HALF_WALL, SHOOTER, TARGET


def test_the_system_hands_over_its_own_tables() -> None:
    system = get_system("d20-firearms")
    assert system.cover_table is tables.COVER
    assert system.range_table is tables.RANGES
    assert system.template_inclusion is tables.INCLUSION is Inclusion.CENTRE


def test_half_cover_is_worth_4() -> None:
    result = cover_between(HALF_WALL, SHOOTER, TARGET, tables.COVER)
    assert result.level is CoverLevel.HALF
    assert result.modifier is not None and result.modifier.value == 4


def test_light_and_near_total_cover() -> None:
    light = tables.COVER.modifier(CoverLevel.LIGHT)
    near_total = tables.COVER.modifier(CoverLevel.NEAR_TOTAL)
    assert light is not None and light.value == 2
    assert near_total is not None and near_total.value == 10
    assert tables.COVER.modifier(CoverLevel.TOTAL) is None


def test_range_increments_cost_two_each_up_to_ten() -> None:
    rifle = Weapon("rifle", range_increment=30.0, ammo=30, capacity=30)
    shooter = Token("me", "Shooter", Side.PARTY, Square(10, 10), weapons=(rifle,))
    east = Token("east", "Thug", Side.ENEMY, Square(15, 10))
    far = Token("far", "Sniper", Side.ENEMY, Square(79, 10))
    state = EncounterState("t", "d20-firearms", FIVE_FOOT, BattleMap(80, 40), (shooter, east, far))
    bands = range_bands(state, "me", "rifle", tables.RANGES)
    assert len(bands.bands) == 10 and bands.maximum == 60 and bands.half_maximum == 30
    assert bands.bands[1].modifier.value == -2 and bands.bands[9].modifier.value == -18
    assert bands.out_of_range == ("far",) and bands.cqb == 6
