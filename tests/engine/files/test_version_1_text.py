"""Version-1 text in a file is converted to typed state once, at load, by the system's
``upgrade_state``; text that cannot be read refuses the whole file with its name, the place
and the problem (each system's well-formed text is tested in its own package)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.encounter import EncounterState
from engine.files import EncounterFileError, encounter_to_json, load_encounter
from engine.rules import get_system
from engine.rules.base import Command
from engine.turns.session import Encounter
from tests.engine.files.builders import document_bytes, write_archive
from tests.engine.rules.test_conformance import small_encounter

Edit = Callable[[dict[str, Any]], None]


def in_combat(system: str) -> dict[str, Any]:
    """A fight of ``system`` in round 1, as its file's document."""
    fight = Encounter(small_encounter(system), seed=2)
    fight.apply(Command("start_combat"))
    return encounter_to_json(fight.state)


def data(key: str, value: object) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        document["encounter"]["combat"].pop("system_state", None)
        document["encounter"]["combat"]["data"][key] = value
    return edit


def combatant_data(key: str, value: object) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        document["encounter"]["combat"]["order"][0]["data"][key] = value
    return edit


def pending(kind: str, key: str, value: object) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        document["encounter"]["combat"]["pending"].append({
            "token_id": "a1", "kind": kind, "trigger": "", "action": "", "data": {key: value},
            "tokens": []})
    return edit


def overwatch_source(source: str) -> Edit:
    def edit(document: dict[str, Any]) -> None:
        document["encounter"]["tokens"][0]["conditions"].append(
            {"name": "Overwatch", "expires": None, "source": source, "value": 1,
             "square": None})
    return edit


MALFORMED = [
    ("savage-worlds", data("deck", "AS,10H|2C"), "encounter.combat.data.deck",
     "an Action Deck as text has three parts joined by '|' (draw pile, discards, Joker "
     "dealt), found 2"),
    ("savage-worlds", data("deck", "AS,ZZ||0"), "encounter.combat.data.deck",
     "not an Action Deck: not an Action Card code: 'ZZ'"),
    ("savage-worlds", data("deck", "AS,AS||0"), "encounter.combat.data.deck",
     "not an Action Deck: the Action Deck holds the same card twice"),
    ("savage-worlds", data("deck", "AS||yes"), "encounter.combat.data.deck",
     "'Joker dealt' should be 1 or 0, found 'yes'"),
    ("savage-worlds", data("deck", 5), "encounter.combat.data.deck",
     "should be the Action Deck as text, found 5"),
    ("cities-without-number", data("dropped:4,x", "[]"), "encounter.combat.data['dropped:4,x']",
     "should name a square as 'x,y' in whole numbers, found '4,x'"),
    ("cities-without-number", data("dropped:4,3", '[{"name": 1}]'),
     "encounter.combat.data['dropped:4,3']",
     "is not a list of weapons in JSON at 0.name: Input should be a valid string"),
    ("cities-without-number", data("swarm:e1", 3), "encounter.combat.data['swarm:e1']",
     "should be ids joined by commas as text, found 3"),
    ("spycraft", data("harm:a1>e1", "5/x"), "encounter.combat.data['harm:a1>e1']",
     "wounds should be a whole number, found 'x'"),
    ("spycraft", data("item:6,4:knife", '{"name": "knife"'),
     "encounter.combat.data['item:6,4:knife']", "is not a weapon in JSON: Invalid JSON"),
    ("spycraft", combatant_data("weapons_nonprof", True),
     "encounter.combat.order[0].data.weapons_nonprof",
     "should be weapon names joined by '|' as text, found True"),
    ("spycraft", pending("standoff", "members", 7), "encounter.combat.pending[0].data.members",
     "should be ids joined by commas as text, found 7"),
    ("d20-firearms", overwatch_source("square:8;0"), "encounter.tokens[0].conditions[0].source",
     "should name a square as 'x,y' in whole numbers, found '8;0'"),
]


@pytest.mark.parametrize(("system", "edit", "place", "problem"), MALFORMED)
def test_unreadable_version_1_text_refuses_the_file_naming_place_and_problem(
        tmp_path: Path, system: str, edit: Edit, place: str, problem: str) -> None:
    document = in_combat(system)
    edit(document)
    path = write_archive(tmp_path / "old.killbox", {"encounter.json": document_bytes(document)})
    with pytest.raises(EncounterFileError) as refused:
        load_encounter(path)
    assert (refused.value.path, refused.value.place) == (str(path), place)
    assert refused.value.problem.startswith(problem), refused.value.problem


def test_one_bad_text_among_good_ones_refuses_the_whole_file(tmp_path: Path) -> None:
    document = in_combat("spycraft")
    data("harm:a1>e1", "5/1")(document)
    data("item:6,4:knife", json.dumps({"name": "knife"}))(document)
    data("harm:a2>e1", "five")(document)
    path = write_archive(tmp_path / "old.killbox", {"encounter.json": document_bytes(document)})
    with pytest.raises(EncounterFileError, match=r"harm:a2>e1.*vitality should be a whole"):
        load_encounter(path)


def test_the_loader_asks_the_system_once_and_keeps_what_it_returns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    system = get_system("spycraft")
    seen: list[EncounterState] = []

    def upgrade(state: EncounterState) -> EncounterState:
        seen.append(state)
        return state.with_token(replace(state.tokens[0], name="Upgraded"))

    monkeypatch.setattr(type(system), "upgrade_state", staticmethod(upgrade))
    document = in_combat("spycraft")
    path = write_archive(tmp_path / "new.killbox", {"encounter.json": document_bytes(document)})
    loaded = load_encounter(path).state
    assert len(seen) == 1 and loaded.tokens[0].name == "Upgraded"
