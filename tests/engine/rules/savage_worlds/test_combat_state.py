"""The Action Deck kept as typed combat state: in files, after undo, and from version-1 files."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from engine.files import EncounterFileError, encounter_from_json, encounter_to_json
from engine.rules.base import Command
from engine.rules.savage_worlds.combat_state import SavageWorldsCombat, deck_of
from engine.rules.savage_worlds.deck import ActionDeck
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import fight, fighter


def started() -> Encounter:
    game = fight(fighter("a", Side.PARTY, (0, 0)), fighter("b", Side.ENEMY, (5, 5)))
    return Encounter(replace(game.state, combat=replace(game.state.combat, phase="setup",
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


def test_a_version_1_file_with_the_deck_as_a_string_loads_and_plays_on(tmp_path: Path) -> None:
    game = started()
    game.apply(Command("start_combat"))
    document = encounter_to_json(game.state)
    combat = document["encounter"]["combat"]
    deck = deck_of(game.state)
    pile = ",".join(c.code for c in deck.draw_pile)
    combat["data"]["deck"] = f"{pile}||{int(deck.joker_dealt)}"  # as version 1 wrote it
    del combat["system_state"]
    old = Encounter(encounter_from_json(document))
    assert deck_of(old.state) == deck
    while old.state.combat.round == 1:
        old.apply(Command("end_turn"))
    assert "deck" not in old.state.combat.data
    assert isinstance(old.state.combat.system_state, SavageWorldsCombat)


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
