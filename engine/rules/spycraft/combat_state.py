"""What Spycraft keeps for a fight beyond numbers, as typed values.

Stored in ``CombatState.system_state``: the weapons lying on squares, what each attacker
has taken from each target so far (Threaten needs it), and the weapons each character has
fired this round without proficiency (the -4 comes once a round per weapon). Ids and
weapon names are kept as they are, so any character may appear in them. The text a
version-1 file kept instead becomes this when the file loads (``version_1``); nothing here
reads text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.encounter import EncounterState
from engine.frozen import EMPTY, FrozenMapping, freeze_fields
from engine.grid import Square
from engine.tokens import DroppedItems, Weapon, items_on, with_items_on
from engine.turns.system_state import register_system_state


@dataclass(frozen=True, slots=True)
class Harm:
    """Vitality and wounds one attacker has taken from one target this fight."""

    attacker: str
    target: str
    vitality: int = 0
    wounds: int = 0


@register_system_state("spycraft")
@dataclass(frozen=True, slots=True)
class SpycraftCombat:
    items: tuple[DroppedItems, ...] = ()
    harm: tuple[Harm, ...] = ()
    #: Token id -> the weapons it fired this round without proficiency, in order.
    nonproficient: FrozenMapping[str, tuple[str, ...]] = EMPTY

    def __post_init__(self) -> None:
        freeze_fields(self, "nonproficient")


def kept(state: EncounterState) -> SpycraftCombat:
    value = state.combat.system_state
    return value if isinstance(value, SpycraftCombat) else SpycraftCombat()


def _store(state: EncounterState, value: SpycraftCombat) -> EncounterState:
    return replace(state, combat=replace(state.combat, system_state=value))


def items_at(state: EncounterState, square: Square) -> dict[str, Weapon]:
    """The weapons lying on ``square``, by name."""
    return {weapon.name: weapon for weapon in items_on(kept(state).items, square)}


def lying_items(state: EncounterState) -> tuple[DroppedItems, ...]:
    return kept(state).items


def put_item(state: EncounterState, square: Square, weapon: Weapon) -> EncounterState:
    """``weapon`` now lies on ``square`` (replacing one of the same name there)."""
    return _set_pile(state, square, (*_others_named(state, square, weapon.name), weapon))


def take_item(state: EncounterState, square: Square, name: str) -> EncounterState:
    return _set_pile(state, square, _others_named(state, square, name))


def _others_named(state: EncounterState, square: Square, name: str) -> tuple[Weapon, ...]:
    return tuple(w for w in items_at(state, square).values() if w.name != name)


def _set_pile(state: EncounterState, square: Square, items: tuple[Weapon, ...]) -> EncounterState:
    piles = with_items_on(kept(state).items, square, items)
    return _store(state, replace(kept(state), items=piles))


def harm_done(state: EncounterState, attacker: str, target: str) -> tuple[int, int]:
    found = next((h for h in kept(state).harm if (h.attacker, h.target) == (attacker, target)),
                 Harm(attacker, target))
    return found.vitality, found.wounds


def record_harm(state: EncounterState, attacker: str, target: str, vitality: int,
                wounds: int) -> EncounterState:
    """Remember what an attacker has taken from a target (Threaten needs it)."""
    old_v, old_w = harm_done(state, attacker, target)
    others = tuple(h for h in kept(state).harm if (h.attacker, h.target) != (attacker, target))
    tally = Harm(attacker, target, old_v + vitality, old_w + wounds)
    return _store(state, replace(kept(state), harm=(*others, tally)))


def fired_without_proficiency(state: EncounterState, token_id: str) -> tuple[str, ...]:
    """The weapons ``token_id`` has fired this round without proficiency."""
    return kept(state).nonproficient.get(token_id, ())


def note_fired_without_proficiency(state: EncounterState, token_id: str,
                                   weapon: str) -> EncounterState:
    used = (*fired_without_proficiency(state, token_id), weapon)
    return _store(state, replace(kept(state), nonproficient={**kept(state).nonproficient,
                                                              token_id: used}))


def new_round(state: EncounterState) -> EncounterState:
    """A new round: nobody has fired a weapon without proficiency in it yet."""
    if not kept(state).nonproficient:
        return state
    return _store(state, replace(kept(state), nonproficient=EMPTY))

