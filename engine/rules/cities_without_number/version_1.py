"""What a version-1 Cities Without Number file kept as text, turned into the typed state at
load.

Such a file kept in ``combat.data``: ``"swarm:<target id>"`` = the ids that joined a Swarm
Attack on it, joined by commas, and ``"dropped:<x>,<y>"`` = the weapons lying on that
square, as a JSON list. :func:`upgrade` is the system's ``upgrade_state``.
"""

from __future__ import annotations

from dataclasses import replace

import pydantic

from engine.encounter import EncounterState
from engine.rules.cities_without_number.combat_state import CitiesCombat
from engine.rules.old_text import ids_in, record_in, square_in, text_at
from engine.tokens import DroppedItems, Weapon

SWARM = "swarm:"
DROPPED = "dropped:"
_WEAPONS = pydantic.TypeAdapter(tuple[Weapon, ...])


def upgrade(state: EncounterState) -> EncounterState:
    """The swarm and dropped-item text, if any, as :class:`CitiesCombat`."""
    combat = state.combat
    old = [key for key in combat.data if key.startswith((SWARM, DROPPED))]
    if not old:
        return state
    kept = combat.system_state
    if kept is None:  # beside typed state, the text was never read (the typed is newer)
        kept = _typed(state, old)
    data = {k: v for k, v in combat.data.items() if k not in old}
    return replace(state, combat=replace(combat, data=data, system_state=kept))


def _typed(state: EncounterState, keys: list[str]) -> CitiesCombat:
    swarms: dict[str, tuple[str, ...]] = {}
    dropped: list[DroppedItems] = []
    for key in keys:
        value, place = state.combat.data[key], ("combat", "data", key)
        if key.startswith(SWARM):
            members = ids_in(value, place)
            if members:
                swarms[key.removeprefix(SWARM)] = members
            continue
        square = square_in(key.removeprefix(DROPPED), place)
        if text_at(value, place, "the dropped weapons"):  # empty: nothing lies there
            items = record_in(_WEAPONS, value, place, "a list of weapons")
            if items:
                dropped.append(DroppedItems(square, items))
    return CitiesCombat(swarms, tuple(dropped))
