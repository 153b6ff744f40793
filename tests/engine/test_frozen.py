"""The read-only mapping the encounter state keeps its stats, budgets and data in."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, replace

import pytest
from pydantic import TypeAdapter, ValidationError

from engine.frozen import EMPTY, FrozenMap, FrozenMapping, freeze_fields
from engine.grid import Square
from engine.tokens import Side, Token
from engine.turns.combat import Combatant, CombatState, PendingAction
from tests.engine.immutability import mutable_parts


def test_a_frozen_map_reads_like_the_dict_it_copies() -> None:
    source = {"half": 2, "bonus": 0}
    mapping = FrozenMap(source)
    source["half"] = 9  # the caller's dict is copied, not shared
    assert mapping["half"] == 2 and mapping.get("free", 1) == 1 and "bonus" in mapping
    assert mapping == {"half": 2, "bonus": 0} and mapping == FrozenMap({"bonus": 0, "half": 2})
    assert mapping != {"half": 2}
    assert hash(mapping) == hash(FrozenMap({"bonus": 0, "half": 2}))
    assert mapping | {"half": 1} == {"half": 1, "bonus": 0} and mapping["half"] == 2
    assert list(mapping) == ["half", "bonus"] and len(mapping) == 2


@pytest.mark.parametrize(
    "mutate",
    [
        lambda m: m.__setitem__("half", 0),
        lambda m: m.__delitem__("half"),
        lambda m: m.update(half=0),
        lambda m: m.pop("half"),
        lambda m: m.setdefault("free", 1),
        lambda m: m.clear(),
        lambda m: setattr(m, "_items", {}),
    ],
    ids=["setitem", "delitem", "update", "pop", "setdefault", "clear", "setattr"],
)
def test_every_way_of_changing_a_frozen_map_raises(mutate: object) -> None:
    mapping = FrozenMap({"half": 2})
    with pytest.raises((TypeError, AttributeError)):
        mutate(mapping)  # type: ignore[operator]
    assert mapping == {"half": 2}


def test_a_frozen_map_survives_copy_and_pickle() -> None:
    mapping = FrozenMap({"moved": True, "card": "K♠, Joker"})
    for twin in (copy.copy(mapping), copy.deepcopy(mapping), pickle.loads(pickle.dumps(mapping))):
        assert twin == mapping and isinstance(twin, FrozenMap)


@dataclass(frozen=True, slots=True)
class _Holder:
    values: FrozenMapping[str, int] = EMPTY

    def __post_init__(self) -> None:
        freeze_fields(self, "values")


def test_pydantic_loads_a_frozen_map_and_dumps_a_json_object() -> None:
    adapter = TypeAdapter(_Holder)
    holder = _Holder({"a": 1})
    assert isinstance(holder.values, FrozenMap)
    assert adapter.dump_python(holder, mode="json") == {"values": {"a": 1}}
    loaded = adapter.validate_json(adapter.dump_json(holder), strict=True)
    assert loaded == holder and isinstance(loaded.values, FrozenMap)
    with pytest.raises(ValidationError):
        adapter.validate_json('{"values": {"a": "1"}}', strict=True)


def test_the_state_parts_turn_a_given_dict_into_a_frozen_map() -> None:
    token = Token("a", "Ann", Side.PARTY, Square(0, 0), stats={"defense": 12})
    combatant = Combatant("a", budget={"half": 2}, data={"moved": False})
    pending = PendingAction("a", "ready", data={"members": "a"})
    combat = CombatState(order=(combatant,), pending=(pending,), data={"deck": "AS"})
    for mapping in (token.stats, combatant.budget, combatant.data, pending.data, combat.data):
        assert isinstance(mapping, FrozenMap)
    assert list(mutable_parts(token)) == [] and list(mutable_parts(combat)) == []
    with pytest.raises(TypeError):
        token.stats["defense"] = 0  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        token.stats = {}  # type: ignore[misc]
    assert replace(token, stats={"defense": 10}).stats == {"defense": 10}
    assert token.stats == {"defense": 12}


def test_the_walk_names_each_mutable_part() -> None:
    @dataclass
    class Loose:
        items: list[int]

    found = list(mutable_parts((FrozenMap({"a": [1]}), Loose([2]), {3}), "x"))
    assert found == [
        "x[0]['a']: list [1]",
        "x[1]: Loose is not a frozen dataclass",
        "x[1].items: list [2]",
        "x[2]: set {3}",
    ]
