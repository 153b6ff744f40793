"""The GM swaps a dealt Action Card (gm_card): order, deck, Joker, undo, refusals."""

from __future__ import annotations

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.savage_worlds.combat_state import deck_of
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.savage_worlds.builders import fighter


def dealt() -> Encounter:
    tokens = (fighter("ann", Side.PARTY, (1, 1)), fighter("bo", Side.ENEMY, (5, 5)))
    state = EncounterState("Cards", "savage-worlds", SAVAGE_INCH, BattleMap(10, 8), tokens)
    game = Encounter(state)
    game.apply(Command.build("start_combat", cards={"ann": "2C", "bo": "KH"}))
    return game


def card(game: Encounter, token_id: str) -> str:
    return str(game.state.combat.combatant(token_id).get("card"))


def test_a_new_card_resorts_the_order_and_goes_through_the_deck() -> None:
    game = dealt()
    assert [c.token_id for c in game.state.combat.order] == ["bo", "ann"]
    choices = dict(get_system("savage-worlds").card_choices(game.state, "ann"))
    assert "KH" not in choices and "2C" not in choices and choices["AS"] == "Ace of spades"
    game.apply(Command.build("gm_card", targets=["ann"], card="AS"))
    assert card(game, "ann") == "AS"
    assert [c.token_id for c in game.state.combat.order] == ["ann", "bo"]
    deck = deck_of(game.state)
    assert "AS" not in {c.code for c in (*deck.draw_pile, *deck.discards)}
    assert "2C" in {c.code for c in deck.discards}
    texts = [entry.text for entry in game.state.combat.log[-2:]]
    assert texts == ["GM gives Ann another card (AS).",
                     "Ann now holds the Ace of spades (the 2 of clubs goes to the discards)."]
    game.undo()
    assert card(game, "ann") == "2C"
    assert [c.token_id for c in game.state.combat.order] == ["bo", "ann"]


def test_a_joker_brings_its_condition_and_losing_it_takes_it_away() -> None:
    game = dealt()
    game.apply(Command.build("gm_card", targets=["bo"], card="RJ"))
    assert game.state.token("bo").has_condition(SWCondition.JOKER)
    assert deck_of(game.state).joker_dealt
    game.apply(Command.build("gm_card", targets=["bo"], card="3D"))
    assert not game.state.token("bo").has_condition(SWCondition.JOKER)


def test_refusals_say_why() -> None:
    game = dealt()
    held = game.preview(Command.build("gm_card", targets=["ann"], card="KH"))
    assert not held.legal and "a card nobody holds" in held.reasons[0]
    nonsense = game.preview(Command.build("gm_card", targets=["ann"], card="ZZ"))
    assert not nonsense.legal
    other = Encounter(EncounterState("d20", "spycraft", SAVAGE_INCH, BattleMap(6, 6),
                                     (fighter("cy", Side.PARTY, (1, 1)),)))
    refused = other.preview(Command.build("gm_card", targets=["cy"], card="AS"))
    assert not refused.legal and "not in the initiative order" in refused.reasons[0]
    assert get_system("spycraft").card_choices(other.state, "cy") == ()  # no deck there
