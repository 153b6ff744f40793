"""What Cities Without Number keeps for a fight beyond numbers, as typed values.

Stored in ``CombatState.system_state``: who has joined a Swarm Attack on whom this round,
and the items lying dropped on squares. Ids and weapon names are kept as they are, so any
character may appear in them. The text a version-1 file kept instead becomes this when the
file loads (``version_1``); nothing here reads text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.encounter import EncounterState
from engine.frozen import EMPTY, FrozenMapping, freeze_fields
from engine.grid import Square
from engine.tokens import DroppedItems, Weapon, items_on, with_items_on
from engine.turns.system_state import register_system_state


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
    return value if isinstance(value, CitiesCombat) else CitiesCombat()


def _store(state: EncounterState, value: CitiesCombat) -> EncounterState:
    return replace(state, combat=replace(state.combat, system_state=value))


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

