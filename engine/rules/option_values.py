"""Command options that hold a list or a mapping: token ids, sides, cards dealt, squares.

An option's kind (``OptionSpec.kind``) is a plain type for one value (int, float, str, bool)
or one of these, so no list or mapping is ever packed into text:

- ``ListOf(Ref.TOKEN)``: names in order, e.g. a Joint Action's acting order
  (``order=("b", "a, the second")``); each entry is kept whole, any character allowed;
- ``MapOf(str)`` / ``MapOf(Square)``: token id -> a word (a card dealt by hand) or a square
  (``cards={"a": "AS"}``, ``take_cover={"b": (6, 8)}``).

A :class:`~engine.rules.base.Command` holds a list as a tuple of str and a mapping as a tuple
of (key, value) pairs in the order given, so commands stay hashable and comparable;
:func:`frozen_option` turns the lists, dicts and (x, y) pairs a caller passes into those.
In a command journal a list is a JSON array of strings and a mapping a JSON object (a square
as [x, y]): see :func:`option_to_json` and :func:`option_from_json`. Points on the map, stat
blocks and typed records (a token, weapons) are kinds of their own, in
:mod:`engine.rules.option_kinds`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, is_dataclass
from enum import StrEnum
from functools import cache
from typing import Any, Protocol, runtime_checkable

from pydantic import TypeAdapter

from engine.grid import Square
from engine.tokens import Token, Weapon

#: One plain value.
Scalar = int | float | str | bool
#: A list option's value.
Names = tuple[str, ...]
#: A mapping option's value: (key, value) pairs, keys unique (a stat block's values may be
#: one value or names).
Pairs = tuple[tuple[str, str | Square | Scalar | Names], ...]
#: A point option's value (engine.rules.option_kinds.PointKind) and a list of points.
PointValue = tuple[float, float]
PointsValue = tuple[PointValue, ...]
#: A record option's value (engine.rules.option_kinds.RecordOf): a token, or weapons.
Records = Token | tuple[Weapon, ...]


class Ref(StrEnum):
    """What the entries of a list (or the keys of a mapping) name; a form offers those."""

    TOKEN = "token"  # a token's id
    SIDE = "side"  # a side's name (engine.tokens.Side)
    TEXT = "text"  # any words


@dataclass(frozen=True, slots=True)
class ListOf:
    """The kind of an option holding names in order (each at most once)."""

    item: Ref = Ref.TOKEN

    @property
    def words(self) -> str:
        return {Ref.TOKEN: "a list of token ids", Ref.SIDE: "a list of sides",
                Ref.TEXT: "a list of words"}[self.item]


@dataclass(frozen=True, slots=True)
class MapOf:
    """The kind of an option mapping token ids to a word (``str``) or a square (``Square``)."""

    value: type[str] | type[Square]

    @property
    def words(self) -> str:
        return "token ids each with " + ("a square (x, y)" if self.value is Square else "text")


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def frozen_option(value: Any) -> Any:
    """``value`` as a Command holds it: lists as tuples, a mapping as (key, value) pairs,
    a pair of whole numbers inside a mapping as a Square. Anything else is left as it is
    (the option schema then says what is wrong with it)."""
    if isinstance(value, Mapping):
        return tuple((key, _entry(item)) for key, item in value.items())
    if isinstance(value, list | tuple) and not isinstance(value, Square):
        return tuple(_pair(item) if isinstance(item, list | tuple) else item for item in value)
    return value


def _pair(item: list[Any] | tuple[Any, ...]) -> Any:
    return (item[0], _entry(item[1])) if len(item) == 2 else tuple(item)


def _entry(value: Any) -> Any:
    if isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_whole, value)):
        return Square(*value)
    if isinstance(value, list | tuple):
        return tuple(value)  # names (a stat holding names), kept hashable
    return value


def _duplicate(keys: list[object]) -> object | None:
    seen: set[object] = set()
    for key in keys:
        if key in seen:
            return key
        seen.add(key)
    return None


def list_problem(kind: ListOf, value: object, choices: tuple[object, ...]) -> str | None:
    """Why ``value`` is not a list of this kind (None when it is)."""
    if not isinstance(value, tuple) or not all(isinstance(v, str) and v for v in value):
        return f"must be {kind.words}, not {value!r}"
    twice = _duplicate(list(value))
    if twice is not None:
        return f"names {twice!r} twice"
    stray = [v for v in value if choices and v not in choices]
    if stray:
        allowed = ", ".join(repr(c) for c in choices)
        return f"entries must be among {allowed}, not {stray[0]!r}"
    return None


def map_problem(kind: MapOf, value: object, choices: tuple[object, ...]) -> str | None:
    """Why ``value`` is not a mapping of this kind (None when it is)."""
    wrong = f"must be {kind.words}, not {value!r}"
    if not isinstance(value, tuple):
        return wrong
    for pair in value:
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
                and pair[0]):
            return wrong
        if kind.value is Square and not isinstance(pair[1], Square):
            return f"{pair[0]!r} must have a square (x, y), not {pair[1]!r}"
        if kind.value is str and not isinstance(pair[1], str):
            return f"{pair[0]!r} must have text, not {pair[1]!r}"
        if choices and pair[1] not in choices:
            return f"{pair[0]!r} must have one of {', '.join(map(str, choices))}, not {pair[1]!r}"
    twice = _duplicate([key for key, _ in value])
    return None if twice is None else f"names {twice!r} twice"


def _is_pair(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str)


@cache
def record_adapter(record: Any) -> TypeAdapter[Any]:
    """The pydantic adapter that writes and reads a record type (Token, tuple[Weapon, ...])."""
    return TypeAdapter(record)


def option_to_json(value: object) -> object:
    """The JSON form of an option value: a mapping as an object, a list (of names, points,
    records) as an array, a point or square as [x, y], a record (a Token, a Weapon) as the
    object its pydantic schema writes."""
    if is_dataclass(value) and not isinstance(value, type):
        return record_adapter(type(value)).dump_python(value, mode="json")
    if isinstance(value, tuple) and value and all(map(_is_pair, value)):
        return {key: option_to_json(item) for key, item in value}
    if isinstance(value, tuple):
        return [option_to_json(item) for item in value]
    return value


@runtime_checkable
class JsonKind(Protocol):
    """An option kind that reads its own JSON form (engine.rules.option_kinds)."""

    def from_json(self, value: object) -> Any: ...


def option_from_json(value: object, kind: object = None) -> Any:
    """The option value a journal's JSON holds, read by its declared ``kind`` when that kind
    reads JSON itself (points, stat blocks, records), else as one value, names or a mapping;
    TypeError or ValueError for what no option can hold."""
    if isinstance(kind, JsonKind):
        return kind.from_json(value)
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    if isinstance(value, dict):
        for key, item in value.items():
            square = isinstance(item, list) and len(item) == 2 and all(map(_is_whole, item))
            if not (isinstance(item, str) or square):
                raise TypeError(f"entry {key!r} holds {item!r}")
        return frozen_option(value)
    raise TypeError(f"holds {type(value).__name__}")
