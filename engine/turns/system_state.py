"""A rule system's own typed part of the combat state (a deck of initiative cards...).

A system that keeps more than a few numbers per fight declares a frozen dataclass for it and
registers it under its system name::

    @register_system_state("card-skirmish")
    @dataclass(frozen=True, slots=True)
    class CardSkirmishCombat:
        deck: CardDeck

The value lives in :attr:`engine.turns.combat.CombatState.system_state`. In a file it is a
JSON object tagged with the system's name (``{"system": "card-skirmish", "deck": {...}}``),
validated on load as that dataclass, so nothing there is text to be split or parsed.
This module imports nothing from the engine: the turn state can hold it, and a system
package registers into it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from pydantic import ConfigDict, GetCoreSchemaHandler, TypeAdapter
from pydantic_core import core_schema

T = TypeVar("T")

#: The tag naming whose state a JSON object is.
TAG = "system"

_KINDS: dict[str, type[Any]] = {}


def register_system_state(system: str) -> Callable[[type[T]], type[T]]:
    """Class decorator: ``system``'s combat state is this (frozen) dataclass."""

    def register(cls: type[T]) -> type[T]:
        if _KINDS.get(system, cls) is not cls:
            raise ValueError(f"{system!r} already keeps its state as {_KINDS[system].__name__}")
        _KINDS[system] = cls
        # Validated by its own adapter, outside the state's: refuse unknown keys here too.
        setattr(cls, "__pydantic_config__", ConfigDict(extra="forbid"))  # noqa: B010
        return cls

    return register


def system_of(value: object) -> str:
    """The system name a state value is registered under."""
    for system, cls in _KINDS.items():
        if type(value) is cls:
            return system
    raise TypeError(f"{type(value).__name__} is not a registered system state")


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _adapter(system: str) -> TypeAdapter[Any]:
    if system not in _ADAPTERS:
        _ADAPTERS[system] = TypeAdapter(_KINDS[system])
    return _ADAPTERS[system]


def _load(data: Any) -> object:
    if data is None or type(data) in _KINDS.values():
        return data
    if not isinstance(data, dict):
        raise ValueError(f"a system state must be a JSON object, not {type(data).__name__}")
    fields = dict(data)
    system = fields.pop(TAG, None)
    if system not in _KINDS:
        known = ", ".join(sorted(_KINDS)) or "none"
        raise ValueError(f"{TAG}= must name a rule system with its own state ({known}), "
                         f"not {system!r}")
    # Read as a file is read: strict JSON (arrays are tuples, "1" is not a number).
    return _adapter(system).validate_json(json.dumps(fields), strict=True)


def _dump(value: object) -> dict[str, Any]:
    system = system_of(value)
    return {TAG: system, **_adapter(system).dump_python(value, mode="json")}


class _SystemStateSchema:
    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _load,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda value: None if value is None else _dump(value)
            ),
        )


#: The field type: a registered system's state object, or None.
SystemState = Annotated[object | None, _SystemStateSchema()]
