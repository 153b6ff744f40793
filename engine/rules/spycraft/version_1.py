"""What a version-1 Spycraft file kept as text, turned into the typed state at load.

Such a file kept, in ``combat.data``, ``"item:<x>,<y>:<name>"`` = a weapon lying on that
square, as JSON, and ``"harm:<attacker>><target>"`` = ``"<vitality>/<wounds>"`` taken so
far; in a combatant's data, ``"weapons_nonprof"`` = the weapons fired this round without
proficiency, joined by ``|``; and in a pending action's data, a Stand Off's ``"members"`` and
a Joint Action's ``"order"``, ids joined by commas, where ``tokens`` now holds them.
:func:`upgrade` is the system's ``upgrade_state``.
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import TypeAdapter

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.old_text import Place, ids_in, record_in, square_in, text_at, whole_number
from engine.rules.spycraft.combat_state import Harm, SpycraftCombat
from engine.tokens import DroppedItems, Weapon
from engine.turns.combat import Combatant, CombatState, PendingAction

ITEM = "item:"
HARM = "harm:"
NONPROFICIENT = "weapons_nonprof"
#: Pending action kind -> the data key that held its tokens.
PENDING_IDS = {"standoff": "members", "joint": "order"}
_WEAPON = TypeAdapter(Weapon)


def upgrade(state: EncounterState) -> EncounterState:
    combat = state.combat
    kept = _typed(combat)
    order = tuple(_without_text(c) for c in combat.order)
    pending = tuple(_with_tokens(p, ("combat", "pending", at))
                    for at, p in enumerate(combat.pending))
    data = {k: v for k, v in combat.data.items() if not k.startswith((ITEM, HARM))}
    upgraded = replace(combat, data=data, order=order, pending=pending, system_state=kept)
    return state if upgraded == combat else replace(state, combat=upgraded)


def _typed(combat: CombatState) -> object:
    """The typed state, with what the text held where nothing typed held it yet."""
    kept = combat.system_state
    if kept is None and any(k.startswith((ITEM, HARM)) for k in combat.data):
        kept = SpycraftCombat(_items(combat), _harm(combat))
    nonproficient = {c.token_id: _nonproficient(c, ("combat", "order", at))
                     for at, c in enumerate(combat.order) if NONPROFICIENT in c.data}
    if not nonproficient:
        return kept
    kept = kept if isinstance(kept, SpycraftCombat) else SpycraftCombat()
    # A token's typed list was read before its text; empty text was no weapon at all.
    merged = {**{k: v for k, v in nonproficient.items() if v}, **kept.nonproficient}
    return replace(kept, nonproficient=merged)


def _items(combat: CombatState) -> tuple[DroppedItems, ...]:
    piles: dict[Square, list[Weapon]] = {}
    for key, value in combat.data.items():
        if key.startswith(ITEM):
            place = ("combat", "data", key)
            where, _, _name = key.removeprefix(ITEM).partition(":")
            weapon = record_in(_WEAPON, value, place, "a weapon")
            piles.setdefault(square_in(where, place), []).append(weapon)
    return tuple(DroppedItems(square, tuple(weapons)) for square, weapons in piles.items())


def _harm(combat: CombatState) -> tuple[Harm, ...]:
    harm: list[Harm] = []
    for key, value in combat.data.items():
        if key.startswith(HARM):
            place = ("combat", "data", key)
            attacker, _, target = key.removeprefix(HARM).partition(">")
            vitality, _, wounds = text_at(value, place, "'vitality/wounds'").partition("/")
            harm.append(Harm(attacker, target, whole_number(vitality, place, "vitality"),
                             whole_number(wounds or "0", place, "wounds")))
    return tuple(harm)


def _nonproficient(combatant: Combatant, place: Place) -> tuple[str, ...]:
    text = text_at(combatant.data[NONPROFICIENT], (*place, "data", NONPROFICIENT),
                   "weapon names joined by '|'")
    return tuple(name for name in text.split("|") if name)


def _without_text(combatant: Combatant) -> Combatant:
    if NONPROFICIENT not in combatant.data:
        return combatant
    return replace(combatant, data={k: v for k, v in combatant.data.items()
                                    if k != NONPROFICIENT})


def _with_tokens(pending: PendingAction, place: Place) -> PendingAction:
    key = PENDING_IDS.get(pending.kind)
    if key is None or key not in pending.data:
        return pending
    # Beside tokens the text is left over from before a join, and was never read.
    tokens = pending.tokens or ids_in(pending.data[key], (*place, "data", key))
    return replace(pending, tokens=tokens,
                   data={k: v for k, v in pending.data.items() if k != key})
