"""What a version-1 Savage Worlds file kept as text, turned into the typed state at load.

Such a file kept the Action Deck as one string in ``combat.data["deck"]``:
``"<pile codes>|<discard codes>|<1 if a Joker was dealt>"``, the codes (``AS``, ``10H``,
``RJ``) joined by commas. A file from before Fatigue was a condition kept its level as the
``fatigue`` stat: the token gets the Fatigued or Exhausted condition instead (``fatigue``).
:func:`upgrade` is the system's ``upgrade_state``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.rules.base import OldStateError
from engine.rules.old_text import Place, text_at
from engine.rules.savage_worlds import fatigue
from engine.rules.savage_worlds.combat_state import SavageWorldsCombat
from engine.rules.savage_worlds.deck import ActionDeck, Card
from engine.rules.savage_worlds.schema import STATS

#: Where a version-1 file kept the deck.
DECK_KEY = "deck"
#: The stat a file kept the Fatigue level in before it was a condition.
FATIGUE_STAT = "fatigue"


def upgrade(state: EncounterState) -> EncounterState:
    """The deck text as the typed deck, and a Fatigue stat as the condition."""
    return _fatigue_as_condition(_typed_deck(state))


def _fatigue_as_condition(state: EncounterState) -> EncounterState:
    kept = {t.id: STATS.optional_number(t, FATIGUE_STAT) for t in state.tokens}
    if all(level is None for level in kept.values()):
        return state
    tokens = []
    for token in state.tokens:
        level = kept[token.id]
        if level is not None:
            stats = {k: v for k, v in token.stats.items() if k != FATIGUE_STAT}
            token = fatigue.at_level(replace(token, stats=stats),
                                     max(fatigue.level(token), level))
        tokens.append(token)
    return replace(state, tokens=tuple(tokens))


def _typed_deck(state: EncounterState) -> EncounterState:
    combat = state.combat
    if DECK_KEY not in combat.data:
        return state
    place = ("combat", "data", DECK_KEY)
    text = text_at(combat.data[DECK_KEY], place, "the Action Deck")
    kept = combat.system_state
    # Text beside a typed deck was never read (the typed one is newer); an empty text was
    # read as a fresh deck, which is what no deck at all means.
    if kept is None and text:
        kept = SavageWorldsCombat(deck_from_text(text, place))
    data = {k: v for k, v in combat.data.items() if k != DECK_KEY}
    return replace(state, combat=replace(combat, data=data, system_state=kept))


def deck_from_text(text: str, place: Place) -> ActionDeck:
    parts = text.split("|")
    if len(parts) != 3:
        raise OldStateError(place, "an Action Deck as text has three parts joined by '|' "
                                   f"(draw pile, discards, Joker dealt), found {len(parts)}")
    pile, discards, joker = parts
    if joker not in ("0", "1", ""):
        raise OldStateError(place, f"'Joker dealt' should be 1 or 0, found {joker!r}")
    try:
        return ActionDeck(_cards(pile), _cards(discards), joker == "1")
    except ValueError as exc:
        raise OldStateError(place, f"not an Action Deck: {exc}") from None


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(code) for code in codes.split(",") if code)
