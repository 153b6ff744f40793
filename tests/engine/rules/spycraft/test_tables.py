"""The tables this system hands to engine.geometry: cover, range bands, template inclusion."""

from engine.geometry.cover import CoverLevel, cover_between
from engine.geometry.templates import Inclusion
from engine.rules import get_system
from engine.rules.spycraft import tables
from tests.engine.rules.cover_setting import HALF_WALL, SHOOTER, TARGET


def test_the_system_hands_over_its_own_tables() -> None:
    system = get_system("spycraft")
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


def test_range_increments_cost_two_each_thrown_weapons_reach_five() -> None:
    ranges = tables.RANGES
    assert (ranges.penalty_per_increment, ranges.maximum_increments) == (-2, 10)
    assert (ranges.thrown_maximum_increments, ranges.cqb_increments) == (5, 1)
