"""The GM swaps a dealt Action Card by hand (a misdeal, a card typed wrong, an Edge such as
Quick or Level Headed that trades a card): the new card comes out of the deck, the old one
is discarded, and the turn order is sorted again. A Joker brings its condition; losing one
takes it away."""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules.base import CommandError, Outcome
from engine.rules.savage_worlds import board, combat_state
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.deck import Card, full_deck
from engine.turns import order as turn_order


def held_card(state: EncounterState, token_id: str) -> Card | None:
    code = str(state.combat.combatant(token_id).get("card", ""))
    return Card.from_code(code) if code else None


def card_choices(state: EncounterState, token_id: str) -> tuple[tuple[str, str], ...]:
    """Every card nobody holds (the token's own excluded), highest first, as (code, words)."""
    if not state.combat.has(token_id):
        return ()
    held = {str(c.get("card", "")) for c in state.combat.order}
    return tuple((card.code, str(card)) for card in full_deck() if card.code not in held)


def set_card(state: EncounterState, token_id: str, card: str) -> Outcome:
    if not state.combat.has(token_id):
        raise CommandError(f"{state.token(token_id).name} is not in the initiative order")
    try:
        chosen = Card.from_code(card)
    except ValueError as error:
        raise CommandError(f"card=: {error}") from None
    if chosen.code not in {c for c, _ in card_choices(state, token_id)}:
        raise CommandError(f"the {chosen} is in someone's hand")
    old = held_card(state, token_id)
    deck = combat_state.deck_of(state).swapped(old, chosen)
    combatant = state.combat.combatant(token_id)
    data = {**combatant.data, "card": chosen.code}
    state = turn_order.update(state, replace(
        combatant, initiative=chosen.sort_key[0], tiebreak=(chosen.sort_key[1],), data=data))
    state = replace(state, combat=replace(state.combat, order=turn_order.sort(state.combat.order)))
    state = combat_state.with_deck(state, deck)
    token = state.token(token_id)
    was = f" (the {old} goes to the discards)" if old is not None else ""
    events = [Event(EventKind.INITIATIVE, f"{token.name} now holds the {chosen}{was}.",
                    (token_id,))]
    if chosen.is_joker and not token.has_condition(SWCondition.JOKER):
        state, more = board.add_condition(state, token_id, SWCondition.JOKER)
        events.extend(more)
    elif not chosen.is_joker and token.has_condition(SWCondition.JOKER):
        state = state.with_token(cond.without_condition(token, SWCondition.JOKER))
    return state, tuple(events)
