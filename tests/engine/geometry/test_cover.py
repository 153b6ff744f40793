"""Cover grades from walls and low objects, and each system's number for them."""

import pytest

from engine.battlemap import BattleMap, CoverGrade, CoverObject, Wall
from engine.geometry.cover import CoverLevel, cover_between, cover_table
from engine.grid import Square
from engine.tokens import Side, Token

SHOOTER = Token("s", "Shooter", Side.PARTY, Square(0, 0))
TARGET = Token("t", "Target", Side.ENEMY, Square(4, 0))
# A wall along x = 3 from y = 0.5 down: it hides the lower half of the target's square.
HALF_WALL = BattleMap(10, 10, walls=(Wall((3, 0.5), (3, 2)),))


def test_open_ground_gives_no_cover() -> None:
    result = cover_between(BattleMap(10, 10), SHOOTER, TARGET, "spycraft")
    assert result.level is CoverLevel.NONE
    assert result.modifier is not None and result.modifier.value == 0


@pytest.mark.parametrize(
    ("system", "value"),
    [("spycraft", 4), ("d20-firearms", 4), ("savage-worlds", -4), ("cities-without-number", -2)],
)
def test_half_the_lines_blocked_is_half_cover_in_each_system(system: str, value: int) -> None:
    result = cover_between(HALF_WALL, SHOOTER, TARGET, system)
    assert result.level is CoverLevel.HALF
    assert sum(result.blocked) == 2 and len(result.blocked) == 4
    assert result.modifier is not None and result.modifier.value == value
    assert "2 of 4 lines" in result.reasons[0]


def test_savage_worlds_grades_run_minus_two_to_minus_eight() -> None:
    table = cover_table("savage-worlds")
    values = [table.modifier(level) for level in CoverLevel][1:5]
    assert [m.value for m in values if m is not None] == [-2, -4, -6, -8]


def test_a_crate_near_the_target_gives_its_grade() -> None:
    crate = CoverObject("c", "crate", ((3, 0), (3.5, 0), (3.5, 1), (3, 1)), CoverGrade.HALF)
    result = cover_between(BattleMap(10, 10, cover=(crate,)), SHOOTER, TARGET, "savage-worlds")
    assert result.level is CoverLevel.HALF
    assert "the crate gives half cover" in result.reasons


def test_shooting_over_ones_own_crate_gives_the_target_nothing() -> None:
    crate = CoverObject("c", "crate", ((1, 0), (1.5, 0), (1.5, 1), (1, 1)), CoverGrade.HALF)
    result = cover_between(BattleMap(10, 10, cover=(crate,)), SHOOTER, TARGET)
    assert result.level is CoverLevel.NONE
    assert result.modifier is None  # no system asked


def test_no_line_of_sight_is_total_cover() -> None:
    battlemap = BattleMap(10, 10, walls=(Wall((3, 0), (3, 10)),))
    result = cover_between(battlemap, SHOOTER, TARGET, "spycraft")
    assert result.level is CoverLevel.TOTAL and not result.can_be_attacked
    assert result.modifier is None


def test_unknown_system_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="savage-worlds"):
        cover_table("gurps")
