"""Writing ``encounter.json``: the state as pydantic serialises it, sets in a fixed order,
indented as a person editing the file would want it.

A file at every limit holds a million arrays and objects; writing it with ``json.dumps``
and an indent (which has no C encoder) took 2.3 s, walking the whole state for sets 2 s
and the cycle collector half of the rest. Here the text comes from pydantic-core (the
same text, 0.3 s), only the parts of the state whose types can hold a set are walked, and
the collector waits until the text is written.
"""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from collections.abc import Set
from typing import Any

import pydantic_core
from pydantic import TypeAdapter

from engine.encounter import EncounterState
from engine.files.errors import json_path
from engine.files.json_text import without_cycle_collection

FORMAT_NAME = "killbox-encounter"
#: The version this Killbox writes.
FORMAT_VERSION = 1

STATE = TypeAdapter(EncounterState)

_SCALARS = (str, int, float, bool, type(None))


class NotFinite(ValueError):
    """The state holds NaN or an infinity at ``place`` (a JSON path)."""

    def __init__(self, place: str) -> None:
        self.place = place
        super().__init__(place)


def encounter_to_json(state: EncounterState) -> dict[str, Any]:
    """The whole ``encounter.json`` document for a state (format, version, encounter)."""
    with without_cycle_collection():
        encounter = STATE.dump_python(state, mode="json")
        _sort_sets(state, encounter)
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "encounter": encounter}


def document_bytes(state: EncounterState) -> bytes:
    """``encounter.json`` as written to a file: UTF-8, indented by two spaces.

    Raises NotFinite for a NaN or infinite number, PydanticSerializationError for what
    cannot be written at all (text that is not Unicode).
    """
    with without_cycle_collection():
        document = encounter_to_json(state)
        text = pydantic_core.to_json(document, indent=2, inf_nan_mode="constants")
        # Written as the words Infinity and NaN, which JSON does not have; a name may hold
        # the words too, so the document is searched only when the text has them.
        if b"NaN" in text or b"Infinity" in text:
            place = _find_non_finite(document["encounter"], ["encounter"])
            if place is not None:
                raise NotFinite(place)
    return text + b"\n"


def _sort_sets(value: Any, dumped: Any) -> None:
    """Sort, in place, the JSON lists that come from sets (the squares of a terrain patch).

    A set's order depends on how it was built, so without this a file loaded and saved
    again could differ from itself. Walks the state beside its JSON, field by field, into
    the fields whose declared types can hold a set, so fields added later are covered too.
    """
    if isinstance(value, Set) and isinstance(dumped, list):
        _json_order(dumped)
    elif isinstance(value, list | tuple) and isinstance(dumped, list):
        for child, dumped_child in zip(value, dumped, strict=False):
            if not isinstance(child, _SCALARS):
                _sort_sets(child, dumped_child)
    elif isinstance(value, dict) and isinstance(dumped, dict):
        for key, child in value.items():
            if isinstance(key, str) and key in dumped and not isinstance(child, _SCALARS):
                _sort_sets(child, dumped[key])
    elif isinstance(dumped, dict):
        for name in _fields_with_sets(type(value)):
            if name in dumped:
                _sort_sets(getattr(value, name), dumped[name])


def _json_order(items: list[Any]) -> None:
    """Sort as the items' JSON text sorts (any JSON values compare so)."""
    if all(type(item) is list and all(type(v) is int for v in item) for item in items):
        items.sort(key=str)  # whole numbers: str writes what json.dumps does, 10x faster
    else:
        items.sort(key=lambda item: json.dumps(item, sort_keys=True))


#: Per dataclass, the fields whose declared types may hold a set somewhere.
_FIELDS_WITH_SETS: dict[type, tuple[str, ...]] = {}


def _fields_with_sets(kind: type) -> tuple[str, ...]:
    found = _FIELDS_WITH_SETS.get(kind)
    if found is None:
        found = _FIELDS_WITH_SETS[kind] = _find_fields_with_sets(kind)
    return found


def _find_fields_with_sets(kind: type) -> tuple[str, ...]:
    if not dataclasses.is_dataclass(kind):
        return ()
    try:
        hints = typing.get_type_hints(kind)
    except (NameError, TypeError):  # unresolvable: walk every field
        return tuple(field.name for field in dataclasses.fields(kind))
    return tuple(field.name for field in dataclasses.fields(kind)
                 if _may_hold_set(hints.get(field.name, Any), set()))


def _may_hold_set(hint: Any, seen: set[int]) -> bool:
    if id(hint) in seen:  # a type that holds itself: what else it holds is seen already
        return False
    seen.add(id(hint))
    origin = typing.get_origin(hint) or hint
    if isinstance(origin, type) and issubclass(origin, Set):
        return True
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        try:
            inner = typing.get_type_hints(hint)
        except (NameError, TypeError):
            return True
        return any(_may_hold_set(h, seen) for h in inner.values())
    arguments = typing.get_args(hint)
    if arguments:
        return any(_may_hold_set(a, seen) for a in arguments if a is not Ellipsis)
    # Any, object or a type variable may be anything; a plain class holds no set.
    return hint is Any or hint is object or isinstance(hint, typing.TypeVar)


def _find_non_finite(value: Any, place: list[int | str]) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return json_path("", place)
    items: Any = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ()
    )
    for key, item in items:
        found = _find_non_finite(item, [*place, key])
        if found is not None:
            return found
    return None
