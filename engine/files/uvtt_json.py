"""Typed reading of a parsed Universal VTT document, each complaint naming its JSON path.

The JSON is untrusted: every value is checked for its type before it is used, so a damaged
or hostile file only ever raises ``EncounterFileError`` (never KeyError or TypeError).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

from engine import limits
from engine.files.errors import EncounterFileError, json_path
from engine.grid import Point

#: Coordinates further than this from the origin (in squares) are refused as nonsense.
MAX_COORDINATE = limits.MAX_COORDINATE


class Reader:
    """Reads values out of one document; ``path`` is the file named in every error."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path

    def fail(self, keys: Sequence[str | int], problem: str) -> EncounterFileError:
        return EncounterFileError(self.path, json_path("", keys) or "(top level)", problem)

    def obj(self, value: Any, keys: Sequence[str | int]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(keys, f"must be a JSON object, found {describe(value)}")
        return value

    def array(self, value: Any, keys: Sequence[str | int]) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(keys, f"must be a JSON array, found {describe(value)}")
        return value

    def member(self, parent: dict[str, Any], key: str, keys: Sequence[str | int]) -> Any:
        if key not in parent:
            raise self.fail([*keys, key], "missing")
        return parent[key]

    def optional_array(
        self, parent: dict[str, Any], key: str, keys: Sequence[str | int]
    ) -> list[Any]:
        """An array that may be absent or null (then empty)."""
        value = parent.get(key)
        return [] if value is None else self.array(value, [*keys, key])

    def number(self, value: Any, keys: Sequence[str | int]) -> float:
        # bool is an int to Python but never a number in a map file.
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(keys, f"must be a number, found {describe(value)}")
        try:
            result = float(value)
        except OverflowError as exc:  # an integer too large for a float
            raise self.fail(keys, "is too large a number") from exc
        if not math.isfinite(result):
            raise self.fail(keys, f"must be a finite number, found {result}")
        return result

    def positive(self, value: Any, keys: Sequence[str | int]) -> float:
        result = self.number(value, keys)
        if result <= 0:
            raise self.fail(keys, f"must be greater than zero, found {result:g}")
        return result

    def boolean(self, parent: dict[str, Any], key: str, keys: Sequence[str | int],
                default: bool) -> bool:
        value = parent.get(key, default)
        if not isinstance(value, bool):
            raise self.fail([*keys, key], f"must be true or false, found {describe(value)}")
        return value

    def point(self, value: Any, keys: Sequence[str | int]) -> Point:
        """A ``{"x": .., "y": ..}`` point, as read (no origin shift)."""
        data = self.obj(value, keys)
        x = self.number(self.member(data, "x", keys), [*keys, "x"])
        y = self.number(self.member(data, "y", keys), [*keys, "y"])
        for axis, v in (("x", x), ("y", y)):
            if abs(v) > MAX_COORDINATE:
                raise self.fail([*keys, axis], f"{v:g} lies absurdly far outside the map")
        return (x, y)

    def points(self, value: Any, keys: Sequence[str | int]) -> list[Point]:
        return [self.point(item, [*keys, i]) for i, item in enumerate(self.array(value, keys))]


def describe(value: Any) -> str:
    """A JSON value named for an error message: short, never the whole value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        text = repr(value)
        return f"the text {text}" if len(text) <= 40 else f"the text {text[:37]}...'"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
