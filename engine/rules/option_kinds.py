"""Option kinds for what the GM draws and prepares: points on the map, stat blocks, records.

Beside one value and the lists and mappings of :mod:`engine.rules.option_values`, an option
may hold (never text to split, so names and ids keep any character):

- ``PointKind()``: one point (x, y) in square units, grid corners at whole numbers
  (``at=(8.5, 6.5)``);
- ``PointsKind()``: points in order (``points=[(0, 0), (5, 0), (5, 3)]``);
  ``PointsKind(whole=True)`` names squares by whole numbers (``rect=[(2, 2), (4, 3)]``);
- ``StatsKind()``: stat name -> a value or names (``stats={"defense": 14}``), held as
  (name, value) pairs like a ``MapOf``; whether each stat fits is the system's stat schema's
  to say;
- ``RecordOf(Weapon, many=True)``, ``RecordOf(Token)``: typed records (``weapons=[Weapon(...)]``,
  ``token=Token(...)``), held as themselves.

Each kind says what is wrong with a value (:meth:`problem`) and reads its JSON form back from
a journal (:meth:`from_json`; :func:`~engine.rules.option_values.option_to_json` writes it).
Journals written before these kinds held the same values as text (``"x,y x,y"``, JSON inside
a string); :meth:`from_json` reads that text too, so an autosave from an earlier version
still restores, and the next write is the typed form.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from engine.grid import Point
from engine.limits import MAX_COORDINATE
from engine.rules.option_values import frozen_option, record_adapter


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def point_problem(value: object, whole: bool = False) -> str | None:
    """Why ``value`` is not a point (x, y) of finite numbers (whole ones if ``whole``)."""
    if not (isinstance(value, tuple) and len(value) == 2 and all(map(_is_number, value))):
        return f"a point is two numbers (x, y), not {_show(value)}"
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in value):
        return f"{_show(value)} is not a point on any map"
    if whole and not all(float(v).is_integer() for v in value):
        return f"a square is two whole numbers (x, y), not {_show(value)}"
    return None


@dataclass(frozen=True, slots=True)
class PointKind:
    """One point (x, y) on the map."""

    words = "a point (x, y)"

    def problem(self, value: object) -> str | None:
        found = point_problem(value)
        return None if found is None else f"must be {self.words}: {found}"

    def from_json(self, value: object) -> Any:
        if isinstance(value, str):  # the text form of earlier journals: "x,y"
            points = legacy_points(value)
            if len(points) != 1:
                raise ValueError(f"{value!r} is not one point written x,y")
            return points[0]
        return frozen_option(value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class PointsKind:
    """Points in order (a line, an outline); ``whole``: squares named by whole numbers."""

    whole: bool = False

    @property
    def words(self) -> str:
        return "a list of squares (x, y)" if self.whole else "a list of points (x, y)"

    def problem(self, value: object) -> str | None:
        if not isinstance(value, tuple):
            return f"must be {self.words}, not {_show(value)}"
        for point in value:
            found = point_problem(point, self.whole)
            if found is not None:
                return f"must be {self.words}: {found}"
        return None

    def from_json(self, value: object) -> Any:
        if isinstance(value, str):  # the text form of earlier journals: "x,y x,y ..."
            return legacy_points(value)
        return frozen_option(value) if isinstance(value, list) else value


def stat_entry_problem(value: object) -> str | None:
    """Why ``value`` cannot be a stat's value: one finite value or names."""
    if isinstance(value, bool | str):
        return None
    if _is_number(value):
        return None if math.isfinite(value) else f"must be finite, not {value!r}"  # type: ignore[arg-type]
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return None
    return f"must be a number, text, true/false or a list of names, not {_show(value)}"


@dataclass(frozen=True, slots=True)
class StatsKind:
    """A stat block (or part of one): stat name -> a value or names."""

    words = "stat names each with a value"

    def problem(self, value: object) -> str | None:
        if not isinstance(value, tuple):
            return f"must be {self.words}, not {_show(value)}"
        seen: set[str] = set()
        for pair in value:
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                    and pair[0]):
                return f"must be {self.words}, not {_show(value)}"
            name, entry = pair
            if name in seen:
                return f"names {name!r} twice"
            seen.add(name)
            found = stat_entry_problem(entry)
            if found is not None:
                return f"stat {name!r} {found}"
        return None

    def from_json(self, value: object) -> Any:
        if isinstance(value, str):  # earlier journals: a JSON object inside a string
            value = json.loads(value)
        if isinstance(value, Mapping):
            return frozen_option(value)
        if value == []:  # an empty mapping as an empty tuple writes as []
            return ()
        raise TypeError(f"holds {_show(value)}, not {self.words}")


def _validation_words(error: ValidationError) -> str:
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


@dataclass(frozen=True, slots=True)
class RecordOf:
    """A typed record (``many``: a list of them), e.g. a Token or Weapons."""

    record: type
    many: bool = False

    @property
    def words(self) -> str:
        name = _words_of(self.record)
        return f"a list of {name} records" if self.many else f"a {name} record"

    def problem(self, value: object) -> str | None:
        if self.many:
            ok = isinstance(value, tuple) and all(isinstance(v, self.record) for v in value)
        else:
            ok = isinstance(value, self.record)
        return None if ok else f"must be {self.words}, not {_show(value)}"

    def from_json(self, value: object) -> Any:
        # Earlier journals held the record's JSON inside a string; read as a file is (strict).
        text = value if isinstance(value, str) else json.dumps(value)
        wanted = tuple[self.record, ...] if self.many else self.record  # type: ignore[name-defined]
        try:
            return record_adapter(wanted).validate_json(text, strict=True)
        except ValidationError as error:
            raise ValueError(f"is not {self.words}: {_validation_words(error)}") from None


def _words_of(record: type) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", record.__name__).lower()


#: Every kind defined here (``OptionSpec.problem`` asks each for its own problems).
ShapedKind = PointKind | PointsKind | StatsKind | RecordOf
SHAPED_KINDS = (PointKind, PointsKind, StatsKind, RecordOf)

_SEPARATOR = re.compile(r"[\s;]+")


def legacy_points(text: str) -> tuple[Point, ...]:
    """Points as earlier versions wrote them in text: ``"0,0 5,2.5"`` ->
    ``((0.0, 0.0), (5.0, 2.5))``; ValueError says what is wrong."""
    points: list[Point] = []
    for part in _SEPARATOR.split(text.strip()):
        if not part:
            continue
        pieces = part.split(",")
        try:
            x, y = (float(piece) for piece in pieces)
        except ValueError:
            raise ValueError(f"{part!r} is not a point written x,y with numbers") from None
        points.append((x, y))
    return tuple(points)
