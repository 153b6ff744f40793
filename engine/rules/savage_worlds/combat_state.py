"""What Savage Worlds keeps for a fight beyond numbers: the Action Deck, as a typed value.

Stored in ``CombatState.system_state`` (a file holds it as
``{"system": "savage-worlds", "deck": {"draw_pile": [...], ...}}``). The deck text of a
version-1 file becomes this when the file loads (``version_1``); nothing here reads text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.encounter import EncounterState
from engine.rules.savage_worlds.deck import ActionDeck
from engine.turns.system_state import register_system_state


@register_system_state("savage-worlds")
@dataclass(frozen=True, slots=True)
class SavageWorldsCombat:
    deck: ActionDeck


def deck_of(state: EncounterState) -> ActionDeck:
    """The Action Deck between deals (a fresh, unshuffled one before the first)."""
    kept = state.combat.system_state
    if isinstance(kept, SavageWorldsCombat):
        return kept.deck
    return ActionDeck.fresh()


def with_deck(state: EncounterState, deck: ActionDeck) -> EncounterState:
    return replace(state, combat=replace(state.combat, system_state=SavageWorldsCombat(deck)))
