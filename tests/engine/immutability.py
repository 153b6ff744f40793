"""Walk everything reachable from a state and name each part that could change in place."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from enum import Enum

from engine.frozen import FrozenMap

#: Values that cannot change and hold nothing else.
_ATOMS = (str, int, float, bool, bytes, type(None), Enum)


def mutable_parts(value: object, place: str = "state") -> Iterator[str]:
    """Where ``value`` holds something mutable: a list, dict, set, a dataclass that is not
    frozen, or any object this walk does not know (so a new kind of part is looked at)."""
    if isinstance(value, _ATOMS):
        return
    if isinstance(value, FrozenMap):
        for key, item in value.items():
            yield from mutable_parts(key, f"{place} key {key!r}")
            yield from mutable_parts(item, f"{place}[{key!r}]")
    elif isinstance(value, tuple | frozenset):
        for index, item in enumerate(value):
            yield from mutable_parts(item, f"{place}[{index}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = type(value).__dataclass_params__  # type: ignore[attr-defined]
        if not params.frozen:
            yield f"{place}: {type(value).__name__} is not a frozen dataclass"
        for field in dataclasses.fields(value):
            yield from mutable_parts(getattr(value, field.name), f"{place}.{field.name}")
    else:
        yield f"{place}: {type(value).__name__} {value!r:.60}"


def frozen_maps(value: object) -> Iterator[FrozenMap[object, object]]:
    """Every FrozenMap reachable from ``value``."""
    if isinstance(value, FrozenMap):
        yield value
        for item in value.values():
            yield from frozen_maps(item)
    elif isinstance(value, tuple | frozenset):
        for item in value:
            yield from frozen_maps(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from frozen_maps(getattr(value, field.name))
