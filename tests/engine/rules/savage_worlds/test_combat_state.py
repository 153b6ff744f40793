"""The Action Deck kept as typed combat state: in files, after undo, and from version-1 files."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine.encounter import EncounterState
from engine.files import EncounterFileError, encounter_from_json, encounter_to_json
from engine.rules.base import Command
from engine.rules.savage_worlds.combat_state import SavageWorldsCombat, deck_of
from engine.rules.savage_worlds.deck import ActionDeck, Card, Suit
from engine.tokens import Side
from engine.turns.combat import Phase
from engine.turns.session import Encounter

from .builders import fight, fighter


def started() -> Encounter:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)))
    return Encounter(replace(game.state, combat=replace(game.state.combat, phase=Phase.SETUP,
                                                        order=(), active=None)), seed=4)


def test_the_deck_is_a_json_object_in_the_file_and_loads_as_the_same_deck() -> None:
    game = started()
    game.apply(Command("start_combat"))
    document = encounter_to_json(game.state)
    kept = document["encounter"]["combat"]["system_state"]
    assert kept["system"] == "savage-worlds"
    assert len(kept["deck"]["draw_pile"]) == 52 and kept["deck"]["draw_pile"][0].keys() == {
        "rank", "suit"}
    assert "deck" not in document["encounter"]["combat"]["data"]
    loaded = encounter_from_json(json.loads(json.dumps(document)))
    assert isinstance(loaded.combat.system_state, SavageWorldsCombat)
    assert deck_of(loaded) == deck_of(game.state) and loaded == game.state


def as_version_1(state: EncounterState) -> dict[str, Any]:
    """The file version 1 wrote for ``state``: the deck as one string in the combat data."""
    document = encounter_to_json(state)
    combat = document["encounter"]["combat"]
    deck = deck_of(state)
    pile, discards = (",".join(c.code for c in cards) for cards in (deck.draw_pile,
                                                                    deck.discards))
    combat["data"]["deck"] = f"{pile}|{discards}|{int(deck.joker_dealt)}"
    del combat["system_state"]
    return document


def test_a_version_1_file_loads_as_the_typed_deck_and_plays_on_identically() -> None:
    game = started()
    game.apply(Command("start_combat"))
    while game.state.combat.round == 1:  # cards on the discards too
        game.apply(Command("end_turn"))
    assert deck_of(game.state).discards
    loaded = encounter_from_json(json.loads(json.dumps(as_version_1(game.state))))
    assert loaded.combat.system_state == SavageWorldsCombat(deck_of(game.state))
    assert "deck" not in loaded.combat.data
    assert loaded == game.state
    old = Encounter(loaded)
    while game.state.combat.round < 4:
        game.apply(Command("end_turn"))
        old.apply(Command("end_turn"))
    assert old.state == game.state


def test_the_version_1_deck_text_is_read_card_by_card() -> None:
    document = as_version_1(started().state)
    document["encounter"]["combat"]["data"]["deck"] = "AS,10H,RJ|2C|1"
    kept = encounter_from_json(document).combat.system_state
    assert kept == SavageWorldsCombat(ActionDeck(
        (Card(14, Suit.SPADES), Card(10, Suit.HEARTS), Card(16)), (Card(2, Suit.CLUBS),),
        joker_dealt=True))


def test_the_deck_is_never_read_from_text_in_play() -> None:
    state = started().state
    text = "AS,10H|2C|0"
    state = replace(state, combat=replace(state.combat, system_state=None,
                                          data={**state.combat.data, "deck": text}))
    assert deck_of(state) == ActionDeck.fresh()


def test_a_system_state_naming_no_known_system_is_refused_with_its_place() -> None:
    game = started()
    game.apply(Command("start_combat"))
    document = encounter_to_json(game.state)
    document["encounter"]["combat"]["system_state"]["system"] = "chess"
    with pytest.raises(EncounterFileError, match=r"combat\.system_state") as refused:
        encounter_from_json(document)
    assert "chess" in str(refused.value)


@pytest.mark.parametrize("where", [(), ("deck",)])
def test_an_unknown_key_in_the_system_state_is_refused_with_its_place(
        where: tuple[str, ...]) -> None:
    game = started()
    game.apply(Command("start_combat"))
    document = encounter_to_json(game.state)
    kept = document["encounter"]["combat"]["system_state"]
    for key in where:
        kept = kept[key]
    kept["jokers"] = 2
    with pytest.raises(EncounterFileError) as refused:
        encounter_from_json(document)
    assert refused.value.place == ".".join(("encounter.combat.system_state", *where, "jokers"))
    assert refused.value.problem == "unknown key"


def test_before_the_first_deal_the_deck_is_fresh() -> None:
    state = started().state
    state = replace(state, combat=replace(state.combat, system_state=None))
    assert deck_of(state) == ActionDeck.fresh()
