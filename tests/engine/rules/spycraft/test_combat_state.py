"""Spycraft's typed combat state: lying items, harm tallies and Stand Off members keep any
id or name, survive a file, and version-1 text is still read."""

from __future__ import annotations

import json
from dataclasses import replace

from engine.files import encounter_from_json, encounter_to_json
from engine.rules.spycraft.combat_state import (
    SpycraftCombat,
    harm_done,
    items_at,
    lying_items,
)
from engine.rules.spycraft.stand_offs import stand_off_members, stand_offs
from engine.tokens import Side
from engine.turns.session import Encounter
from tests.engine.rules.spycraft.builders import PISTOL, agent, cmd, started

ODD = "o'neil, jr:2>1"
GUN = "pistol: 9mm, compact|2"


def odd_duel() -> Encounter:
    return started(agent(ODD, 4, 4, resolve=4, wis=1),
                   agent("guard", 5, 4, Side.ENEMY, weapons=(replace(PISTOL, name=GUN),)),
                   rolls=[20, 1])


def round_trip(fight: Encounter) -> Encounter:
    document = json.loads(json.dumps(encounter_to_json(fight.state)))
    loaded = encounter_from_json(document)
    assert loaded == fight.state
    return Encounter(loaded)


def test_a_disarmed_weapon_with_any_name_lies_on_its_square_and_can_be_picked_up() -> None:
    fight = odd_duel()
    fight.apply(cmd("disarm", ODD, targets=["guard"], weapon="pistol"), [18, 2, 1])
    (pile,) = lying_items(fight.state)
    assert [w.name for w in pile.items] == [GUN]
    fight = round_trip(fight)
    assert isinstance(fight.state.combat.system_state, SpycraftCombat)
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("standard_move", "guard", squares=[pile.square]))
    fight.apply(cmd("draw_holster", "guard", weapon=GUN, mode="pick_up"))
    assert lying_items(fight.state) == () and fight.state.token("guard").weapon(GUN)


def test_harm_is_tallied_per_attacker_and_target_with_any_ids() -> None:
    fight = odd_duel()
    fight.apply(cmd("standard_attack", ODD, targets=["guard"], weapon="pistol"), [18, 6])
    vitality, wounds = harm_done(fight.state, ODD, "guard")
    assert vitality + wounds > 0 and harm_done(fight.state, "guard", ODD) == (0, 0)
    assert harm_done(round_trip(fight).state, ODD, "guard") == (vitality, wounds)


def test_stand_off_members_are_a_tuple_of_ids() -> None:
    fight = odd_duel()
    fight.apply(cmd("stand_off", ODD, targets=["guard"]))
    (pending,) = stand_offs(fight.state)
    assert pending.tokens == (ODD, "guard") and stand_off_members(pending) == [ODD, "guard"]
    (again,) = stand_offs(round_trip(fight).state)
    assert again.tokens == (ODD, "guard")


def test_version_1_text_in_the_combat_data_is_still_read() -> None:
    fight = odd_duel()
    fight.apply(cmd("stand_off", ODD, targets=["guard"]))
    document = encounter_to_json(fight.state)
    combat = document["encounter"]["combat"]
    combat.pop("system_state", None)
    combat["pending"][0]["tokens"] = []
    combat["pending"][0]["data"] = {"members": "kevin,guard"}
    combat["data"]["item:6,4:knife"] = json.dumps({"name": "knife", "damage": "1d4",
                                                   "melee": True})
    combat["data"]["harm:kevin>guard"] = "5/1"
    state = encounter_from_json(document)
    assert stand_off_members(stand_offs(state)[0]) == ["kevin", "guard"]
    assert list(items_at(state, (6, 4))) == ["knife"]  # type: ignore[arg-type]
    assert harm_done(state, "kevin", "guard") == (5, 1)
