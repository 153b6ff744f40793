"""What Savage Worlds keeps for a fight beyond numbers: the Action Deck, as a typed value.

Stored in ``CombatState.system_state`` (a file holds it as
``{"system": "savage-worlds", "deck": {"draw_pile": [...], ...}}``). A version-1 file saved
before this kept the deck as one string in ``combat.data["deck"]``; :func:`deck_of` still
reads that, and the next deal stores the typed deck in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.encounter import EncounterState
from engine.rules.savage_worlds.deck import ActionDeck
from engine.turns.system_state import register_system_state

#: Where a version-1 file kept the encoded deck.
LEGACY_DECK_KEY = "deck"


@register_system_state("savage-worlds")
@dataclass(frozen=True, slots=True)
class SavageWorldsCombat:
    deck: ActionDeck


def deck_of(state: EncounterState) -> ActionDeck:
    """The Action Deck between deals (a fresh, unshuffled one before the first)."""
    kept = state.combat.system_state
    if isinstance(kept, SavageWorldsCombat):
        return kept.deck
    legacy = state.combat.data.get(LEGACY_DECK_KEY)
    return ActionDeck.decode(str(legacy)) if legacy else ActionDeck.fresh()


def with_deck(state: EncounterState, deck: ActionDeck) -> EncounterState:
    kept = SavageWorldsCombat(deck)
    return replace(state, combat=state.combat.with_system_state(kept, dropping=(LEGACY_DECK_KEY,)))
