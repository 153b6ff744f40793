"""A read-only mapping for the encounter state, so that no helper can change history in place.

The state is a tree of frozen dataclasses and tuples; the few mappings in it (a token's
stats, a combatant's budget and data, the combat's data) are :class:`FrozenMap`: it has no
method that changes it, item assignment raises ``TypeError``, and it hashes and compares
like the dict it was built from. "Changing" one means building a new one
(``FrozenMap({**old, "hp": 3})`` or ``old | {"hp": 3}``), which is what undo relies on.

A field is declared with :data:`FrozenMapping` (``stats: FrozenMapping[str, StatValue]``):
to type checkers it is a read-only ``Mapping``, to pydantic a JSON object loaded into a
FrozenMap, and :func:`freeze_fields` turns a dict a caller passed into a FrozenMap.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Annotated, Any, TypeVar, cast, get_args

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """An immutable, hashable mapping over a private dict copy."""

    __slots__ = ("_hash", "_items")
    _items: dict[K, V]
    _hash: int | None

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        object.__setattr__(self, "_items", dict(items))
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K, default: Any = None) -> Any:
        return self._items.get(key, default)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(frozenset(self._items.items())))
        return cast(int, self._hash)

    def __or__(self, other: Mapping[K, V]) -> FrozenMap[K, V]:
        """A new map with ``other``'s entries added or replacing these."""
        return FrozenMap({**self._items, **other})

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        return (FrozenMap, (dict(self._items),))


#: The empty map, shared (it cannot change).
EMPTY: FrozenMap[Any, Any] = FrozenMap()


def frozen(items: Mapping[K, V]) -> FrozenMap[K, V]:
    """``items`` as a FrozenMap (itself when it already is one)."""
    return items if isinstance(items, FrozenMap) else FrozenMap(items)


def freeze_fields(instance: object, *names: str) -> None:
    """In a frozen dataclass's ``__post_init__``: make the named mapping fields FrozenMaps."""
    for name in names:
        value = getattr(instance, name)
        if not isinstance(value, FrozenMap):
            object.__setattr__(instance, name, FrozenMap(value))


class _FrozenMapSchema:
    """Pydantic: validate as the annotated ``Mapping[K, V]``, keep a FrozenMap, dump a dict."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        key, value = get_args(source) or (Any, Any)
        as_dict = handler.generate_schema(dict[key, value])  # type: ignore[valid-type]
        load = core_schema.no_info_after_validator_function(FrozenMap, as_dict)
        return core_schema.json_or_python_schema(
            json_schema=load,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(FrozenMap), load]
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(
                dict, return_schema=as_dict
            ),
        )


#: A mapping field of the state: ``FrozenMapping[str, int]`` reads as ``Mapping[str, int]``.
FrozenMapping = Annotated[Mapping[K, V], _FrozenMapSchema()]
