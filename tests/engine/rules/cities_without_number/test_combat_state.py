"""Swarms and dropped items kept as typed combat state: any id or name, files, version 1."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engine.dice import GivenDice
from engine.encounter import EncounterState
from engine.files import encounter_from_json, encounter_to_json
from engine.grid import Square
from engine.rules.base import Command
from engine.rules.cities_without_number.combat_state import (
    CitiesCombat,
    dropped_at,
    swarm_members,
)
from engine.tokens import DroppedItems, Side, Weapon
from engine.turns.session import Encounter

from .builders import KNIFE, fight, person

ODD = "o'neil, jr|1"


def test_ids_and_names_with_commas_and_bars_survive_a_swarm_and_a_drop() -> None:
    blade = Weapon("Knife, \"Lucky\" | 2", "1d4", melee=True)
    game = fight(person(ODD, Side.PARTY, (4, 3), blade, KNIFE), person("b", Side.PARTY, (6, 3)),
                 person("goon", Side.ENEMY, (5, 3)))
    game.apply(Command.build("swarm_attack", ODD, targets=["goon"], weapon=blade.name))
    assert swarm_members(game.state, "goon") == (ODD,)
    game.apply(Command.build("drop_item", ODD, weapon=blade.name))
    assert dropped_at(game.state, Square(4, 3)) == (blade,)
    game.apply(Command("end_turn"))
    strike = Command.build("swarm_attack", "b", targets=["goon"], weapon="Knife", strike=True)
    preview = game.preview(strike)
    assert preview.legal and any(m.name == "Swarm Attack" for m in preview.modifiers)
    game.apply(strike, GivenDice([1]))
    assert swarm_members(game.state, "goon") == ()
    document = json.loads(json.dumps(encounter_to_json(game.state)))
    kept = document["encounter"]["combat"]["system_state"]
    assert kept["system"] == "cities-without-number"
    assert kept["dropped"][0]["items"][0]["name"] == blade.name
    assert encounter_from_json(document) == game.state


def as_version_1(state: EncounterState) -> dict[str, Any]:
    """The file version 1 wrote for ``state``: swarms and dropped items as text in the data."""
    document = encounter_to_json(state)
    combat = document["encounter"]["combat"]
    kept = combat.pop("system_state")
    for target, members in kept["swarms"].items():
        combat["data"][f"swarm:{target}"] = ",".join(members)
    for pile in kept["dropped"]:
        x, y = pile["square"]
        combat["data"][f"dropped:{x},{y}"] = json.dumps(pile["items"])
    return document


def swarm_and_drop() -> Encounter:
    game = fight(person("a", Side.PARTY, (4, 3)), person("b", Side.PARTY, (6, 3)),
                 person("goon", Side.ENEMY, (5, 3)))
    game.apply(Command.build("swarm_attack", "a", targets=["goon"], weapon="Knife"))
    game.apply(Command.build("drop_item", "a", weapon="Knife"))
    game.apply(Command("end_turn"))
    return game


def test_a_version_1_file_loads_as_the_typed_state_and_plays_on_identically() -> None:
    game = swarm_and_drop()
    loaded = encounter_from_json(json.loads(json.dumps(as_version_1(game.state))))
    assert loaded.combat.system_state == CitiesCombat(
        {"goon": ("a",)}, (DroppedItems(Square(4, 3), (KNIFE,)),))
    assert not any(k.startswith(("swarm:", "dropped:")) for k in loaded.combat.data)
    assert loaded == game.state
    old = Encounter(loaded)
    strike = Command.build("swarm_attack", "b", targets=["goon"], weapon="Knife", strike=True)
    assert old.apply(strike, GivenDice([1])) == game.apply(strike, GivenDice([1]))
    assert old.state == game.state


def test_version_1_text_is_read_into_the_typed_values() -> None:
    document = as_version_1(swarm_and_drop().state)
    data = document["encounter"]["combat"]["data"]
    data.clear()
    data["swarm:goon"] = "a,,b"
    data["swarm:nobody"] = ""
    data["dropped:-1,7"] = json.dumps([{"name": "Bat", "damage": "1d8", "melee": True}])
    kept = encounter_from_json(document).combat.system_state
    assert kept == CitiesCombat({"goon": ("a", "b")}, (
        DroppedItems(Square(-1, 7), (Weapon("Bat", "1d8", melee=True),)),))


def test_swarms_and_dropped_items_are_never_read_from_text_in_play() -> None:
    state = swarm_and_drop().state
    text = {"swarm:b": "a", "dropped:0,0": json.dumps([{"name": "Bat", "damage": "1d8"}])}
    state = replace(state, combat=replace(state.combat, system_state=None,
                                          data={**state.combat.data, **text}))
    assert swarm_members(state, "b") == () and dropped_at(state, Square(0, 0)) == ()
