"""Swarms and dropped items kept as typed combat state: any id or name, files, version 1."""

from __future__ import annotations

import json

from engine.dice import GivenDice
from engine.files import encounter_from_json, encounter_to_json
from engine.grid import Square
from engine.rules.base import Command
from engine.rules.cities_without_number.combat_state import (
    CitiesCombat,
    dropped_at,
    swarm_members,
)
from engine.tokens import Side, Weapon

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


def test_a_version_1_file_with_swarms_and_drops_as_text_still_reads() -> None:
    blade = Weapon("Knife", "1d4", melee=True)
    game = fight(person("a", Side.PARTY, (4, 3)), person("goon", Side.ENEMY, (5, 3)))
    document = encounter_to_json(game.state)
    combat = document["encounter"]["combat"]
    combat.pop("system_state", None)
    combat["data"]["swarm:goon"] = "a,b"
    combat["data"]["dropped:4,3"] = json.dumps([{"name": "Knife", "damage": "1d4",
                                                 "melee": True}])
    state = encounter_from_json(document)
    assert swarm_members(state, "goon") == ("a", "b")
    assert dropped_at(state, Square(4, 3)) == (blade,)
    game = type(game)(state)
    game.apply(Command.build("pick_up_item", "a", squares=[(4, 3)]))
    assert isinstance(game.state.combat.system_state, CitiesCombat)
    assert not any(k.startswith(("swarm:", "dropped:")) for k in game.state.combat.data)
    assert swarm_members(game.state, "goon") == ("a", "b")
    assert dropped_at(game.state, Square(4, 3)) == ()
