"""The tables this system hands to engine.geometry: cover, range bands, template inclusion."""

from engine.geometry.cover import CoverLevel, cover_between
from engine.geometry.templates import Inclusion
from engine.rules import get_system
from engine.rules.cities_without_number import tables
from tests.engine.rules.cover_setting import HALF_WALL, SHOOTER, TARGET


def test_the_system_hands_over_its_own_tables() -> None:
    system = get_system("cities-without-number")
    assert system.cover_table is tables.COVER
    assert system.range_table is tables.RANGES
    assert system.template_inclusion is tables.INCLUSION is Inclusion.CENTRE


def test_half_cover_is_worth_minus_2() -> None:
    result = cover_between(HALF_WALL, SHOOTER, TARGET, tables.COVER)
    assert result.level is CoverLevel.HALF
    assert result.modifier is not None and result.modifier.value == -2


def test_light_and_near_total_cover() -> None:
    light = tables.COVER.modifier(CoverLevel.LIGHT)
    near_total = tables.COVER.modifier(CoverLevel.NEAR_TOTAL)
    assert light is not None and light.value == 0
    assert near_total is not None and near_total.value == -4
    assert tables.COVER.modifier(CoverLevel.TOTAL) is None


def test_range_bands_are_normal_and_long() -> None:
    assert [(n, r, v) for n, r, v in tables.RANGES.bands] == [("Normal", 1, 0), ("Long", 3, -2)]
