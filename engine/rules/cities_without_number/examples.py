"""Concrete Cities Without Number commands worth trying for a token now."""

from __future__ import annotations

from collections.abc import Iterator

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command
from engine.rules.cities_without_number import tables


def example_commands(state: EncounterState, token_id: str) -> Iterator[Command]:
    actor = state.token(token_id)
    foes, friends = common.foes_and_friends(state, actor)
    for square in actor.square.neighbours():
        yield Command.build("run", token_id, squares=[square])
        yield Command.build("pick_up_item", token_id, squares=[square])
    for simple in ("total_defense", "fighting_withdrawal", "use_skill", "ready_item",
                   "stow_item", "stand_up", "go_prone", "hold_action"):
        yield Command(simple, token_id)
    yield Command.build("pick_up_item", token_id, squares=[actor.square])
    for weapon in actor.weapons:
        yield Command.build("reload", token_id, weapon=weapon.name)
        yield Command.build("drop_item", token_id, weapon=weapon.name)
    for foe in foes:
        for weapon in actor.weapons:
            key = "melee_attack" if weapon.melee else "ranged_attack"
            yield Command.build(key, token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("snap_attack", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("swarm_attack", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("swarm_attack", token_id, targets=[foe.id], weapon=weapon.name,
                                strike=True)
        yield Command.build("melee_attack", token_id, targets=[foe.id])
        yield Command.build("charge", token_id, targets=[foe.id])
    for friend in friends:
        yield Command.build("screen_ally", token_id, targets=[friend.id])
        path = common.walk_beside(state, actor, friend,
                                  difficult_cost=tables.DIFFICULT_TERRAIN_COST)
        if path:
            yield Command("screen_ally", token_id, (friend.id,), squares=path)

