"""The size limits of a ``.killbox`` encounter, checked on the parsed JSON before the model
is built: no map, footprint, terrain set or geometry exists until every count, size and
coordinate is within ``engine.limits``.

Only values of the right JSON type are checked here; a value of the wrong type is left for
the model's validation, which names it. A value over a limit raises EncounterFileError
with the place, the limit and what was found.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from engine import limits
from engine.files.errors import EncounterFileError, json_path

Keys = Sequence[str | int]


class _Checker:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path

    def fail(self, keys: Keys, problem: str) -> EncounterFileError:
        return EncounterFileError(self.path, json_path("encounter", keys), problem)

    def items(self, parent: Any, key: str, keys: Keys, limit: int, what: str) -> list[Any]:
        """``parent[key]`` when it is an array, refused if longer than ``limit``."""
        value = parent.get(key) if isinstance(parent, dict) else None
        if not isinstance(value, list):
            return []
        if len(value) > limit:
            raise self.fail([*keys, key], _over(len(value), limit, what))
        return value

    def number(
        self, parent: Any, key: str, keys: Keys, low: float, high: float, what: str
    ) -> None:
        """``parent[key]``, when a number, must lie in [low, high]."""
        value = parent.get(key) if isinstance(parent, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and not (
            low <= value <= high
        ):
            raise self.fail(
                [*keys, key],
                f"{what} must lie between {low:g} and {high:g}, found {value:g}",
            )

    def point(self, value: Any, keys: Keys) -> None:
        """A point (two numbers) within MAX_COORDINATE of the map's corner."""
        if isinstance(value, list):
            for index, coordinate in enumerate(value[:2]):
                if _is_number(coordinate) and abs(coordinate) > limits.MAX_COORDINATE:
                    raise self.fail(
                        [*keys, index],
                        f"{coordinate:g} lies further than the limit of "
                        f"{limits.MAX_COORDINATE:,g} squares from the map",
                    )


def check_encounter_limits(encounter: Any, path: str | os.PathLike[str]) -> None:
    """Refuse an ``encounter`` document (parsed JSON) over any of ``engine.limits``."""
    check = _Checker(path)
    if not isinstance(encounter, dict):
        return
    check.number(encounter.get("scale"), "square_size", ["scale"],
                 limits.MIN_SQUARE_SIZE, limits.MAX_SQUARE_SIZE, "a square's size")
    _check_map(check, encounter.get("battlemap"))
    _check_tokens(check, encounter)
    combat = encounter.get("combat")
    keys: list[str | int] = ["combat"]
    check.items(combat, "order", keys, limits.MAX_TOKENS, "combatants")
    check.items(combat, "pending", keys, limits.MAX_TOKENS, "pending actions")
    check.items(combat, "log", keys, limits.MAX_LOG_ENTRIES, "log entries")


def _check_map(check: _Checker, battlemap: Any) -> None:
    keys: list[str | int] = ["battlemap"]
    for side in ("width", "height"):
        check.number(battlemap, side, keys, 1, limits.MAX_MAP_SIDE, f"the map's {side}")
    for index, wall in enumerate(check.items(battlemap, "walls", keys, limits.MAX_WALLS, "walls")):
        _check_points(check, wall, ("start", "end"), [*keys, "walls", index])
    portals = check.items(battlemap, "portals", keys, limits.MAX_PORTALS, "doors and windows")
    for index, portal in enumerate(portals):
        _check_points(check, portal, ("start", "end"), [*keys, "portals", index])
    cover = check.items(battlemap, "cover", keys, limits.MAX_COVER_OBJECTS, "cover objects")
    for index, item in enumerate(cover):
        where = [*keys, "cover", index]
        outline = check.items(item, "outline", where, limits.MAX_OUTLINE_POINTS, "points")
        for number, point in enumerate(outline):
            check.point(point, [*where, "outline", number])
    for index, light in enumerate(check.items(battlemap, "lights", keys, limits.MAX_LIGHTS,
                                              "lights")):
        where = [*keys, "lights", index]
        _check_points(check, light, ("position",), where)
        check.number(light, "range", where, 0, limits.MAX_COORDINATE, "a light's range")
    patches = check.items(battlemap, "terrain", keys, limits.MAX_TERRAIN_PATCHES,
                          "terrain patches")
    squares = 0
    for index, patch in enumerate(patches):
        where = [*keys, "terrain", index]
        squares += len(check.items(patch, "squares", where, limits.MAX_TERRAIN_SQUARES,
                                   "terrain squares"))
        if squares > limits.MAX_TERRAIN_SQUARES:
            raise check.fail([*keys, "terrain"], _over(
                squares, limits.MAX_TERRAIN_SQUARES, "terrain squares (counted so far)"))
    background = battlemap.get("background") if isinstance(battlemap, dict) else None
    where = [*keys, "background"]
    check.number(background, "pixels_per_square", where, limits.MIN_PIXELS_PER_SQUARE,
                 limits.MAX_PIXELS_PER_SQUARE, "pixels per square")
    for axis in ("offset_x", "offset_y"):
        check.number(background, axis, where, -limits.MAX_COORDINATE * limits.MAX_PIXELS_PER_SQUARE,
                     limits.MAX_COORDINATE * limits.MAX_PIXELS_PER_SQUARE, "the grid offset")


def _check_tokens(check: _Checker, encounter: dict[str, Any]) -> None:
    for index, token in enumerate(check.items(encounter, "tokens", [], limits.MAX_TOKENS,
                                              "tokens")):
        where: list[str | int] = ["tokens", index]
        check.number(token, "size", where, 1, limits.MAX_TOKEN_SIZE, "a token's size in squares")
        _check_points(check, token, ("square",), where)
        weapons = check.items(token, "weapons", where, limits.MAX_WEAPONS, "weapons")
        for number, weapon in enumerate(weapons):
            at = [*where, "weapons", number]
            check.number(weapon, "rate_of_fire", at, 0, limits.MAX_RATE_OF_FIRE, "a rate of fire")
            for key in ("capacity", "ammo"):
                check.number(weapon, key, at, 0, limits.MAX_CAPACITY, f"a weapon's {key}")
        conditions = check.items(token, "conditions", where, limits.MAX_CONDITIONS,
                                 "conditions")
        for number, condition in enumerate(conditions):
            _check_points(check, condition, ("square",), [*where, "conditions", number])


def _check_points(check: _Checker, parent: Any, names: tuple[str, ...], keys: Keys) -> None:
    if isinstance(parent, dict):
        for name in names:
            check.point(parent.get(name), [*keys, name])


def _over(found: int, limit: int, what: str) -> str:
    return f"{found:,} {what}, more than the limit of {limit:,}"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
