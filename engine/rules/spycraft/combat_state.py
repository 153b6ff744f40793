"""What Spycraft keeps for a fight beyond numbers, as typed values.

Stored in ``CombatState.system_state``: the weapons lying on squares, what each attacker
has taken from each target so far (Threaten needs it), and the weapons each character has
fired this round without proficiency (the -4 comes once a round per weapon). Ids and
weapon names are kept as they are, so any character may appear in them. A version-1 file
kept these as text (``item:<x>,<y>:<name>`` = the weapon as JSON,
``harm:<attacker>><target>`` = ``"<vitality>/<wounds>"`` in ``combat.data``, and a
combatant's ``weapons_nonprof`` = names joined by ``|``); that is still read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pydantic import TypeAdapter

from engine.encounter import EncounterState
from engine.frozen import EMPTY, FrozenMapping, freeze_fields
from engine.grid import Square
from engine.tokens import DroppedItems, Weapon, items_on, with_items_on
from engine.turns.system_state import register_system_state

_LEGACY_ITEM = "item:"
_LEGACY_HARM = "harm:"
#: The combatant data key of a version-1 file: weapon names joined by "|".
_LEGACY_NONPROFICIENT = "weapons_nonprof"
_LEGACY_WEAPON = TypeAdapter(Weapon)


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
    return value if isinstance(value, SpycraftCombat) else _from_version_1(state)


def _store(state: EncounterState, value: SpycraftCombat) -> EncounterState:
    dropping = (_LEGACY_ITEM, _LEGACY_HARM)
    return replace(state, combat=state.combat.with_system_state(value, dropping=dropping))


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
    value = state.combat.system_state
    if isinstance(value, SpycraftCombat) and token_id in value.nonproficient:
        return value.nonproficient[token_id]
    if not state.combat.has(token_id):
        return ()
    legacy = str(state.combat.combatant(token_id).get(_LEGACY_NONPROFICIENT, ""))
    return tuple(name for name in legacy.split("|") if name)  # a version-1 file's text


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


def _from_version_1(state: EncounterState) -> SpycraftCombat:
    piles: dict[Square, list[Weapon]] = {}
    harm: list[Harm] = []
    for key, value in state.combat.data.items():
        if key.startswith(_LEGACY_ITEM):
            where, _, _name = key.removeprefix(_LEGACY_ITEM).partition(":")
            x, _, y = where.partition(",")
            piles.setdefault(Square(int(x), int(y)), []).append(
                _LEGACY_WEAPON.validate_json(str(value)))
        elif key.startswith(_LEGACY_HARM):
            attacker, _, target = key.removeprefix(_LEGACY_HARM).partition(">")
            vitality, _, wounds = str(value).partition("/")
            harm.append(Harm(attacker, target, int(vitality), int(wounds or 0)))
    items = tuple(DroppedItems(square, tuple(weapons)) for square, weapons in piles.items())
    return SpycraftCombat(items, tuple(harm))
