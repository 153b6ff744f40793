"""Savage Worlds Action Deck: 54 cards, high to low, suits break ties, Jokers reshuffle."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from engine.dice import GivenDice, SeededDice
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.savage_worlds.combat_state import SavageWorldsCombat
from engine.rules.savage_worlds.deck import (
    ActionDeck,
    Card,
    Suit,
    full_deck,
)
from engine.turns.session import Encounter
from tests.engine.rules.test_conformance import small_encounter


def test_action_deck_holds_54_cards_with_two_jokers() -> None:
    cards = full_deck()
    assert len(cards) == 54
    assert len({c.code for c in cards}) == 54
    assert sum(c.is_joker for c in cards) == 2


def order_holding(cards: dict[str, str]) -> list[str]:
    """The turn order Savage Worlds sorts when each token holds the given card (the GM's card
    swap sorts the order again, as the deal does): the tokens named, first to act first."""
    system = get_system("savage-worlds")
    fight = Encounter(small_encounter("savage-worlds"), seed=1)
    fight.apply(Command("start_combat"))
    state = fight.state
    for token_id in cards:  # first onto cards nobody wants, so each wanted card is free
        spare = next(c for c, _ in system.card_choices(state, token_id) if c not in cards.values())
        state, _ = system.set_card(state, token_id, spare)
    for token_id, code in cards.items():
        state, _ = system.set_card(state, token_id, code)
    return [c.token_id for c in state.combat.order if c.token_id in cards]


def test_action_cards_act_from_high_to_low() -> None:
    assert order_holding({"a1": "2S", "a2": "AC", "e1": "10H"}) == ["a2", "e1", "a1"]


def test_suits_break_ties_spades_hearts_diamonds_clubs() -> None:
    cards = {"a1": "9C", "a2": "9H", "e1": "9S", "e2": "9D"}
    assert order_holding(cards) == ["e1", "a2", "e2", "a1"]


def test_joker_beats_the_ace_of_spades() -> None:
    assert order_holding({"a1": "AS", "a2": "BJ"}) == ["a2", "a1"]


def test_card_codes_round_trip() -> None:
    for card in full_deck():
        assert Card.from_code(card.code) == card
    with pytest.raises(ValueError, match="not an Action Card"):
        Card.from_code("1X")


def test_deal_gives_one_card_each_and_marks_a_joker_round() -> None:
    deck = ActionDeck(full_deck())  # unshuffled: Red Joker on top
    deck, hands = deck.deal(["a", "b", "c"])
    assert hands["a"].is_joker
    assert deck.joker_dealt
    assert len(deck.draw_pile) == 51


def test_deck_is_shuffled_after_a_round_with_a_joker() -> None:
    dice = SeededDice(seed=11)
    deck, hands = ActionDeck(full_deck()).deal(["a", "b"])
    after = deck.end_round(hands.values(), dice)
    assert len(after.draw_pile) == 54 and after.discards == ()
    assert not after.joker_dealt


def test_no_shuffle_after_a_round_without_a_joker() -> None:
    pile = tuple(c for c in full_deck() if not c.is_joker) + tuple(
        c for c in full_deck() if c.is_joker
    )
    deck, hands = ActionDeck(pile).deal(["a", "b"])
    after = deck.end_round(hands.values(), SeededDice(seed=1))
    assert len(after.draw_pile) == 52 and len(after.discards) == 2


def test_shuffle_is_reproducible_from_the_seed() -> None:
    first = ActionDeck.fresh().shuffled(SeededDice(seed=5))
    again = ActionDeck.fresh().shuffled(SeededDice(seed=5))
    other = ActionDeck.fresh().shuffled(SeededDice(seed=6))
    assert first == again
    assert first != other
    assert sorted(c.code for c in first.draw_pile) == sorted(c.code for c in full_deck())


def test_an_empty_draw_pile_is_reshuffled_mid_deal_without_the_cards_in_hand() -> None:
    deck = ActionDeck((Card(5, Suit.CLUBS),), tuple(c for c in full_deck() if c.code != "5C"))
    deck, hands = deck.deal(["a", "b"], SeededDice(seed=2))
    assert hands["a"] == Card(5, Suit.CLUBS)
    assert hands["b"] != hands["a"]
    assert len(deck.draw_pile) == 52


def test_running_dry_without_dice_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="ran out"):
        ActionDeck(()).deal(["a"])


def test_a_bad_shuffle_draw_is_rejected() -> None:
    with pytest.raises(ValueError, match="shuffle draw"):
        ActionDeck.fresh().shuffled(GivenDice([99]))


@settings(max_examples=50)
@given(st.integers(min_value=0, max_value=10_000))
def test_the_typed_deck_round_trips_through_strict_json(seed: int) -> None:
    adapter = TypeAdapter(SavageWorldsCombat)
    deck = ActionDeck.fresh().shuffled(SeededDice(seed=seed))
    deck, hands = deck.deal(["a", "b", "c"])
    kept = SavageWorldsCombat(deck.discard(hands.values()))
    assert adapter.validate_json(adapter.dump_json(kept), strict=True) == kept


def test_a_deck_holding_a_card_twice_is_refused_on_load() -> None:
    adapter = TypeAdapter(SavageWorldsCombat)
    ace = {"rank": 14, "suit": 4}
    with pytest.raises(ValidationError, match="same card twice"):
        adapter.validate_json(json.dumps({"deck": {"draw_pile": [ace], "discards": [ace]}}),
                              strict=True)


def test_a_stacked_deck_deals_the_typed_cards_in_their_places() -> None:
    from engine.dice import SeededDice
    from engine.rules.savage_worlds.deck import ActionDeck, Card

    deck = ActionDeck.fresh().shuffled(SeededDice(seed=5))
    ace, two = Card.from_code("AS"), Card.from_code("2C")
    stacked = deck.stacked([None, ace, two])
    _rest, hands = stacked.deal(["x", "y", "z"])
    assert hands["y"] == ace and hands["z"] == two
    assert hands["x"] not in (ace, two)
    assert len(stacked.draw_pile) == 54
    import pytest

    with pytest.raises(ValueError, match="two combatants"):
        deck.stacked([ace, ace])


def test_a_shuffle_never_takes_the_faces_the_gm_typed() -> None:
    """Typed faces are for dice: a reshuffle between them draws from the seed, so the faces
    reach the rolls they were typed for (a Spirit roll after the new round's deal)."""
    typed = GivenDice([2] * 60, SeededDice(4))
    assert ActionDeck.fresh().shuffled(typed) == ActionDeck.fresh().shuffled(SeededDice(4))
    assert typed.roll("1d8", "Spirit").total == 2  # not one typed face was used up
