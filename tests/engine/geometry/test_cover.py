"""Cover grades from walls and low objects, and what a cover table makes of them."""

import json
from pathlib import Path

import pytest

from engine.battlemap import BattleMap, CoverGrade, CoverObject, Wall
from engine.geometry.cover import (
    CoverLevel,
    CoverTable,
    cover_between,
    cover_table_from,
    load_cover_table,
)
from engine.grid import Square
from engine.tokens import Side, Token

SHOOTER = Token("s", "Shooter", Side.PARTY, Square(0, 0))
TARGET = Token("t", "Target", Side.ENEMY, Square(4, 0))
# A wall along x = 3 from y = 0.5 down: it hides the lower half of the target's square.
HALF_WALL = BattleMap(10, 10, walls=(Wall((3, 0.5), (3, 2)),))
GRADES = {"none": 0, "light": 2, "half": 4, "three_quarters": 7, "near_total": 10, "total": None}
TABLE = cover_table_from({"title": "Test", "applies_to": "to Defense", "grades": GRADES}, "test")


def test_open_ground_gives_no_cover() -> None:
    result = cover_between(BattleMap(10, 10), SHOOTER, TARGET, TABLE)
    assert result.level is CoverLevel.NONE
    assert result.modifier is not None and result.modifier.value == 0


def test_half_the_lines_blocked_is_half_cover_worth_the_tables_number() -> None:
    result = cover_between(HALF_WALL, SHOOTER, TARGET, TABLE)
    assert result.level is CoverLevel.HALF
    assert sum(result.blocked) == 2 and len(result.blocked) == 4
    assert result.modifier is not None
    assert (result.modifier.value, result.modifier.applies_to) == (4, "to Defense")
    assert "2 of 4 lines" in result.reasons[0]


def test_a_table_reads_each_grade() -> None:
    values = [TABLE.modifier(level) for level in CoverLevel]
    assert [m.value for m in values if m is not None] == [0, 2, 4, 7, 10]
    assert values[-1] is None  # total cover: no attack at all


def test_a_crate_near_the_target_gives_its_grade() -> None:
    crate = CoverObject("c", "crate", ((3, 0), (3.5, 0), (3.5, 1), (3, 1)), CoverGrade.HALF)
    result = cover_between(BattleMap(10, 10, cover=(crate,)), SHOOTER, TARGET, TABLE)
    assert result.level is CoverLevel.HALF
    assert "the crate gives half cover" in result.reasons


def test_shooting_over_ones_own_crate_gives_the_target_nothing() -> None:
    crate = CoverObject("c", "crate", ((1, 0), (1.5, 0), (1.5, 1), (1, 1)), CoverGrade.HALF)
    result = cover_between(BattleMap(10, 10, cover=(crate,)), SHOOTER, TARGET)
    assert result.level is CoverLevel.NONE
    assert result.modifier is None  # no table given


def test_no_line_of_sight_is_total_cover() -> None:
    battlemap = BattleMap(10, 10, walls=(Wall((3, 0), (3, 10)),))
    result = cover_between(battlemap, SHOOTER, TARGET, TABLE)
    assert result.level is CoverLevel.TOTAL and not result.can_be_attacked
    assert result.modifier is None


@pytest.mark.parametrize(
    ("grades", "problem"),
    [
        ({**GRADES, "half": "four"}, "grade 'half' must be a whole number or null"),
        ({k: v for k, v in GRADES.items() if k != "light"}, "grades missing light"),
        ({**GRADES, "quarter": 1}, "unknown grades quarter"),
    ],
)
def test_a_bad_table_is_refused_naming_where_and_what(grades: object, problem: str) -> None:
    with pytest.raises(ValueError, match=f"^house.json: {problem}"):
        cover_table_from({"grades": grades}, "house.json")


def test_a_package_ships_its_table_as_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "house_rules"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "cover_grades.json").write_text(
        json.dumps({"title": "House", "applies_to": "to the roll", "grades": GRADES})
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    table = load_cover_table("house_rules")
    assert isinstance(table, CoverTable)
    assert (table.title, table.values["three_quarters"]) == ("House", 7)
