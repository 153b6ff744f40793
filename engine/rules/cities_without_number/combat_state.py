"""What Cities Without Number keeps for a fight beyond numbers, as typed values.

Stored in ``CombatState.system_state``: who has joined a Swarm Attack on whom this round,
and the items lying dropped on squares. Ids and weapon names are kept as they are, so any
character may appear in them. A version-1 file kept these in ``combat.data`` as text
(``swarm:<target>`` = comma-joined ids, ``dropped:<x>,<y>`` = JSON); that is still read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pydantic

from engine.encounter import EncounterState
from engine.frozen import EMPTY, FrozenMapping, freeze_fields
from engine.grid import Square
from engine.tokens import DroppedItems, Weapon, items_on, with_items_on
from engine.turns.system_state import register_system_state

_LEGACY_SWARM = "swarm:"
_LEGACY_DROPPED = "dropped:"
_LEGACY_WEAPONS = pydantic.TypeAdapter(tuple[Weapon, ...])


@register_system_state("cities-without-number")
@dataclass(frozen=True, slots=True)
class CitiesCombat:
    #: Target id -> the ids that joined a Swarm Attack on it this round, in order.
    swarms: FrozenMapping[str, tuple[str, ...]] = EMPTY
    dropped: tuple[DroppedItems, ...] = ()

    def __post_init__(self) -> None:
        freeze_fields(self, "swarms")


def kept(state: EncounterState) -> CitiesCombat:
    value = state.combat.system_state
    return value if isinstance(value, CitiesCombat) else _from_version_1(state)


def _store(state: EncounterState, value: CitiesCombat) -> EncounterState:
    dropping = (_LEGACY_SWARM, _LEGACY_DROPPED)
    return replace(state, combat=state.combat.with_system_state(value, dropping=dropping))


def swarm_members(state: EncounterState, target_id: str) -> tuple[str, ...]:
    return kept(state).swarms.get(target_id, ())


def set_swarm(state: EncounterState, target_id: str, members: tuple[str, ...]) -> EncounterState:
    swarms = {k: v for k, v in kept(state).swarms.items() if k != target_id}
    if members:
        swarms[target_id] = members
    return _store(state, replace(kept(state), swarms=swarms))


def clear_swarms(state: EncounterState) -> EncounterState:
    return _store(state, replace(kept(state), swarms=EMPTY))


def dropped_at(state: EncounterState, square: Square) -> tuple[Weapon, ...]:
    return items_on(kept(state).dropped, square)


def store_dropped(state: EncounterState, square: Square,
                  items: tuple[Weapon, ...]) -> EncounterState:
    """What lies on ``square`` is now ``items`` (none: nothing)."""
    piles = with_items_on(kept(state).dropped, square, items)
    return _store(state, replace(kept(state), dropped=piles))


def _from_version_1(state: EncounterState) -> CitiesCombat:
    swarms: dict[str, tuple[str, ...]] = {}
    dropped: list[DroppedItems] = []
    for key, value in state.combat.data.items():
        if key.startswith(_LEGACY_SWARM) and value:
            swarms[key.removeprefix(_LEGACY_SWARM)] = tuple(m for m in str(value).split(",") if m)
        elif key.startswith(_LEGACY_DROPPED) and value:
            x, _, y = key.removeprefix(_LEGACY_DROPPED).partition(",")
            items = _LEGACY_WEAPONS.validate_json(str(value))
            dropped.append(DroppedItems(Square(int(x), int(y)), items))
    return CitiesCombat(swarms, tuple(dropped))
