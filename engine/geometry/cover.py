"""Cover: how much of a target is hidden from an attacker, and what a cover table makes of it.

The rule (the same for every system, documented in the app):

* The attacker picks the corner of one of its squares that gives the clearest view, and
  draws lines from it to the sight corners of every square of the target (see ``los``).
* Lines crossing a sight-blocking wall, closed door or tall object are blocked. The share
  of blocked lines gives the grade: none; one quarter or less is light; half or less is
  half; more is three quarters; all of them while the target is still in sight from
  another corner is near total; no line of sight at all is total.
* A low cover object (a car, a crate) that one of those lines crosses gives at least its
  own grade, unless the attacker is at least as close to it as the target is (shooting
  over one's own cover gives the target nothing).
* The attacker's corner is the one that leaves the weakest cover.

How a grade turns into a number is a ``CoverTable`` the caller hands over: each rule system
keeps its own as editable data (a ``cover_grades.json`` in its package, read by
``load_cover_table``) and gives it to ``RuleSystem.cover_table``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from importlib import resources
from types import MappingProxyType
from typing import Any

import numpy as np
import shapely

from engine.battlemap import BattleMap, CoverGrade, CoverObject
from engine.geometry.los import check_token, segments_blocked, sight_corners
from engine.geometry.results import Modifier
from engine.tokens import Token
from engine.words import counted


class CoverLevel(IntEnum):
    """Cover grades, weakest first."""

    NONE = 0
    LIGHT = 1
    HALF = 2
    THREE_QUARTERS = 3
    NEAR_TOTAL = 4
    TOTAL = 5

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def words(self) -> str:
        return self.name.lower().replace("_", " ")


_OBJECT_LEVEL = {
    CoverGrade.LIGHT: CoverLevel.LIGHT,
    CoverGrade.HALF: CoverLevel.HALF,
    CoverGrade.THREE_QUARTERS: CoverLevel.THREE_QUARTERS,
    CoverGrade.TOTAL: CoverLevel.TOTAL,
}


@dataclass(frozen=True)
class CoverTable:
    """A cover table: the modifier each grade gives, and to which roll."""

    title: str
    applies_to: str
    values: Mapping[str, int | None]

    def modifier(self, level: CoverLevel) -> Modifier | None:
        """The modifier for a grade; None when the grade forbids the attack."""
        value = self.values[level.key]
        if value is None:
            return None
        return Modifier(f"{level.words} cover".capitalize(), value, self.applies_to)


def cover_table_from(raw: object, where: str) -> CoverTable:
    """A cover table from JSON data (``title``, ``applies_to``, ``grades``), checked.

    ``where`` names the source in errors. Every grade of ``CoverLevel`` needs a whole
    number, or null for "cannot be attacked at all".
    """
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a cover table must be an object")
    grades = raw.get("grades")
    if not isinstance(grades, dict):
        raise ValueError(f"{where}: 'grades' must be an object of grade -> number")
    missing = [level.key for level in CoverLevel if level.key not in grades]
    if missing:
        raise ValueError(f"{where}: grades missing {', '.join(missing)}")
    known = {level.key for level in CoverLevel}
    unknown = sorted(set(grades) - known)
    if unknown:
        raise ValueError(f"{where}: unknown grades {', '.join(unknown)}")
    for key, value in grades.items():
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"{where}: grade {key!r} must be a whole number or null")
    return CoverTable(
        str(raw.get("title", "")),
        str(raw.get("applies_to", "")),
        MappingProxyType(dict(grades)),
    )


def load_cover_table(package: str, resource: str = "cover_grades.json") -> CoverTable:
    """The cover table a package ships as JSON (a rule system keeps its own beside its code)."""
    source = resources.files(package).joinpath(resource)
    where = f"{package}/{resource}"
    try:
        raw: Any = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{where}: not JSON ({error})") from None
    return cover_table_from(raw, where)


@dataclass(frozen=True)
class CoverResult:
    """Cover of ``target_id`` against ``attacker_id``.

    ``lines`` are the lines from the attacker's best corner; ``blocked`` says which are
    blocked. ``modifier`` is the table's number (None without a table, or when cover is
    total). ``reasons`` say in plain words where the cover comes from.
    """

    attacker_id: str
    target_id: str
    level: CoverLevel
    lines: shapely.MultiLineString
    blocked: tuple[bool, ...]
    modifier: Modifier | None
    reasons: tuple[str, ...]

    @property
    def can_be_attacked(self) -> bool:
        return self.level is not CoverLevel.TOTAL


def _footprint(token: Token) -> shapely.Polygon:
    return shapely.box(
        token.square.x, token.square.y, token.square.x + token.size, token.square.y + token.size
    )


def _counting_objects(battlemap: BattleMap, attacker: Token, target: Token) -> list[CoverObject]:
    """Low cover objects that can shield the target from this attacker."""
    mine, theirs = _footprint(attacker), _footprint(target)
    found = []
    for item in battlemap.cover:
        if item.blocks_sight:
            continue  # tall objects already block sight lines
        outline = shapely.Polygon(item.outline)
        if shapely.distance(theirs, outline) < shapely.distance(mine, outline):
            found.append(item)
    return found


def cover_between(
    battlemap: BattleMap, attacker: Token, target: Token, table: CoverTable | None = None
) -> CoverResult:
    """How much cover ``target`` has against ``attacker`` (and its value in ``table``)."""
    for token in (attacker, target):
        check_token(battlemap, token)
    ours = sight_corners(attacker.squares)
    theirs = sight_corners(target.squares)
    starts = np.repeat(ours, len(theirs), axis=0)
    ends = np.tile(theirs, (len(ours), 1))
    walls = segments_blocked(battlemap, starts, ends).reshape(len(ours), len(theirs))
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    objects = _counting_objects(battlemap, attacker, target)
    by_object = np.zeros((len(objects), len(ours), len(theirs)), dtype=bool)
    for k, item in enumerate(objects):
        outline = shapely.Polygon(item.outline)
        shapely.prepare(outline)
        by_object[k] = shapely.intersects(outline, lines).reshape(len(ours), len(theirs))
    sees = not bool(walls.all())
    wall_share = walls.sum(axis=1) / len(theirs)
    corner_levels = np.array([_level_for(share, sees) for share in wall_share])
    object_levels = np.zeros(len(ours), dtype=int)
    for k, item in enumerate(objects):
        crossing = by_object[k].any(axis=1)
        object_levels = np.where(
            crossing, np.maximum(object_levels, _OBJECT_LEVEL[item.grade]), object_levels
        )
    combined = np.maximum(corner_levels, object_levels)
    # The attacker takes the corner with the weakest cover, then the fewest blocked lines.
    best = int(np.lexsort((walls.sum(axis=1), combined))[0])
    level = CoverLevel(int(combined[best]))
    blocked = walls[best] | by_object[:, best].any(axis=0)
    reasons: list[str] = []
    if walls[best].any():
        reasons.append(
            f"{int(walls[best].sum())} of {counted(len(theirs), 'line')} from the attacker's "
            "best corner cross a wall, door or tall object"
        )
    for k, item in enumerate(objects):
        if by_object[k, best].any():
            reasons.append(f"the {item.name} gives {_OBJECT_LEVEL[item.grade].words} cover")
    if level is CoverLevel.TOTAL:
        reasons.append("no line reaches the target: total cover")
    modifier = table.modifier(level) if table is not None else None
    chosen = shapely.multilinestrings(list(lines.reshape(len(ours), len(theirs))[best]))
    return CoverResult(
        attacker.id,
        target.id,
        level,
        chosen,
        tuple(bool(b) for b in blocked),
        modifier,
        tuple(reasons),
    )


def _level_for(share: float, sees: bool) -> CoverLevel:
    if not sees:
        return CoverLevel.TOTAL
    if share == 0:
        return CoverLevel.NONE
    if share <= 0.25:
        return CoverLevel.LIGHT
    if share <= 0.5:
        return CoverLevel.HALF
    if share < 1:
        return CoverLevel.THREE_QUARTERS
    return CoverLevel.NEAR_TOTAL
