"""Spycraft's typed combat state: lying items, harm tallies and Stand Off members keep any
id or name, survive a file, and version-1 text becomes them when a file loads."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engine.encounter import EncounterState
from engine.files import encounter_from_json, encounter_to_json
from engine.grid import Square
from engine.rules.spycraft.combat_state import (
    Harm,
    SpycraftCombat,
    fired_without_proficiency,
    harm_done,
    lying_items,
)
from engine.rules.spycraft.stand_offs import stand_off_members, stand_offs
from engine.tokens import DroppedItems, Side, Weapon
from engine.turns.combat import DataValue, PendingAction
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


KNIFE = Weapon("knife", "1d4", melee=True)


def as_version_1(state: EncounterState) -> dict[str, Any]:
    """The file version 1 wrote for ``state``: lying items, harm, the weapons fired without
    proficiency and the ids of Stand Offs and Joint Actions as text."""
    document = encounter_to_json(state)
    combat = document["encounter"]["combat"]
    kept = combat.pop("system_state")
    for pile in kept["items"]:
        x, y = pile["square"]
        for item in pile["items"]:
            combat["data"][f"item:{x},{y}:{item['name']}"] = json.dumps(item)
    for harm in kept["harm"]:
        key = f"harm:{harm['attacker']}>{harm['target']}"
        combat["data"][key] = f"{harm['vitality']}/{harm['wounds']}"
    for combatant in combat["order"]:
        names = kept["nonproficient"].get(combatant["token_id"])
        if names:
            combatant["data"]["weapons_nonprof"] = "|".join(names)
    for pending in combat["pending"]:
        key = {"standoff": "members", "joint": "order"}.get(pending["kind"])
        if key:
            pending["data"][key] = ",".join(pending.pop("tokens"))
    return document


def everything_typed() -> Encounter:
    """A fight holding each piece of Spycraft's state that version 1 kept as text."""
    fight = started(agent("kevin", 4, 4, resolve=4, wis=1, tactics=4),
                    agent("ann", 3, 4), agent("bob", 2, 4), agent("guard", 5, 4, Side.ENEMY),
                    agent("boss", 9, 9, Side.ENEMY), rolls=[20, 15, 12, 10, 1])
    combat = fight.state.combat
    kept = SpycraftCombat((DroppedItems(Square(6, 4), (KNIFE, PISTOL)),),
                          (Harm("kevin", "guard", 5, 1), Harm("guard", "ann", 3, 0)),
                          {"kevin": ("pistol", "knife")})
    pending = (PendingAction("kevin", "standoff", "", "stand_off", tokens=("kevin", "guard")),
               PendingAction("ann", "joint", "", "joint_action", {"round": 2},
                             tokens=("bob", "ann")))
    return Encounter(replace(fight.state, combat=replace(combat, system_state=kept,
                                                         pending=pending)))


def test_a_version_1_file_loads_as_the_typed_state_and_plays_on_identically() -> None:
    fight = everything_typed()
    document = as_version_1(fight.state)
    assert "system_state" not in document["encounter"]["combat"]
    loaded = encounter_from_json(json.loads(json.dumps(document)))
    assert loaded.combat.system_state == fight.state.combat.system_state
    assert [p.tokens for p in loaded.combat.pending] == [("kevin", "guard"), ("bob", "ann")]
    assert not any("members" in p.data or "order" in p.data for p in loaded.combat.pending)
    assert not any("weapons_nonprof" in c.data for c in loaded.combat.order)
    assert not any(k.startswith(("item:", "harm:")) for k in loaded.combat.data)
    assert loaded == fight.state
    old = Encounter(loaded)
    while fight.state.combat.round < 3:  # the Stand Off's contests, the Joint Action's order
        assert old.apply(cmd("end_turn")) == fight.apply(cmd("end_turn"))
        assert old.state == fight.state
        if fight.state.combat.round == 2:
            assert joined(fight.state) == {"bob": "ann", "ann": "ann"}


def joined(state: EncounterState) -> dict[str, DataValue]:
    """Who acts in a Joint Action this round, and whose."""
    return {c.token_id: c.data["joint"] for c in state.combat.order if "joint" in c.data}


def test_version_1_text_in_a_file_is_read_into_the_typed_values() -> None:
    fight = odd_duel()
    fight.apply(cmd("stand_off", ODD, targets=["guard"]))
    document = encounter_to_json(fight.state)
    combat = document["encounter"]["combat"]
    combat.pop("system_state", None)
    combat["pending"][0]["tokens"] = []
    combat["pending"][0]["data"] = {"members": "kevin,guard"}
    combat["data"]["item:6,4:knife"] = json.dumps({"name": "knife", "damage": "1d4",
                                                   "melee": True})
    combat["data"]["harm:kevin>guard"] = "5"
    combat["order"][0]["data"]["weapons_nonprof"] = "|x||y"
    state = encounter_from_json(document)
    assert state.combat.pending[0].tokens == ("kevin", "guard")
    assert state.combat.system_state == SpycraftCombat(
        (DroppedItems(Square(6, 4), (KNIFE,)),), (Harm("kevin", "guard", 5, 0),),
        {combat["order"][0]["token_id"]: ("x", "y")})


def test_a_pending_action_whose_tokens_are_set_drops_its_leftover_text() -> None:
    fight = odd_duel()
    fight.apply(cmd("stand_off", ODD, targets=["guard"]))
    document = encounter_to_json(fight.state)
    document["encounter"]["combat"]["pending"][0]["data"] = {"members": "kevin"}
    (pending,) = encounter_from_json(document).combat.pending
    assert pending.tokens == (ODD, "guard") and "members" not in pending.data


def test_spycraft_state_is_never_read_from_text_in_play() -> None:
    fight = everything_typed()
    combat = fight.state.combat
    text = {"item:6,4:knife": json.dumps({"name": "knife"}), "harm:kevin>guard": "5/1"}
    kevin = replace(combat.order[0], data={**combat.order[0].data, "weapons_nonprof": "pistol"})
    pending = tuple(replace(p, tokens=(), data={**p.data, "members": "kevin,guard",
                                               "order": "bob,ann"}) for p in combat.pending)
    state = replace(fight.state, combat=replace(
        combat, system_state=None, data={**combat.data, **text}, pending=pending,
        order=(kevin, *combat.order[1:])))
    assert lying_items(state) == () and harm_done(state, "kevin", "guard") == (0, 0)
    assert fired_without_proficiency(state, "kevin") == ()
    assert [stand_off_members(p) for p in stand_offs(state)] == [[]]
    game = Encounter(state)
    while game.state.combat.round < 2:
        game.apply(cmd("end_turn"))
    assert joined(game.state) == {}
