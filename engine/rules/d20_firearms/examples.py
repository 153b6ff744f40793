"""Concrete d20 firearms commands worth trying for a token now."""

from __future__ import annotations

from collections.abc import Iterator

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command
from engine.rules.d20_firearms.take_cover_actions import COVER_OWED, TAKE_COVER


def example_commands(state: EncounterState, token_id: str) -> Iterator[Command]:
    actor = state.token(token_id)
    foes, friends = common.foes_and_friends(state, actor)
    for square in actor.square.neighbours():
        yield Command.build("move", token_id, squares=[square])
        yield Command.build("move", token_id, squares=[square], accept_fire=True)
    yield Command("stop_aiming", token_id)
    yield Command("locate_enemies", token_id)
    for weapon in actor.weapons:
        yield Command.build("aim", token_id, weapon=weapon.name)
        yield Command.build("draw_holster", token_id, weapon=weapon.name)
        yield Command.build("reload", token_id, weapon=weapon.name)
        yield Command.build("drop_item", token_id, weapon=weapon.name)
    for friend in friends:
        yield Command.build("treat_injury", token_id, targets=[friend.id])
    for foe in foes:
        for weapon in actor.weapons:
            yield Command.build("coup_de_grace", token_id, targets=[foe.id], weapon=weapon.name)
        yield Command.build("charge", token_id, targets=[foe.id])
        yield Command.build("overwatch", token_id, targets=[foe.id])
        yield Command.build("overwatch", token_id, squares=[foe.square])
        yield Command.build("two_weapon_attack", token_id, targets=[foe.id])
        for weapon in actor.weapons[1:]:
            yield Command.build("two_weapon_attack", token_id, targets=[foe.id],
                                weapon=weapon.name)
        for weapon in actor.weapons:
            yield Command.build("attack", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("full_auto", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("blind_fire", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("blind_fire", token_id, weapon=weapon.name, full_auto=True,
                                squares=[foe.square, foe.square.offset(1, 0)])
            yield Command.build("covering_fire", token_id, squares=[foe.square],
                                weapon=weapon.name)
            yield Command.build("covering_fire", token_id, squares=[foe.square],
                                weapon=weapon.name,
                                take_cover={foe.id: foe.square.offset(0, 1)})
            yield Command.build("suppressive_fire", token_id, squares=[foe.square],
                                weapon=weapon.name)
    yield from _dives(state)


def _dives(state: EncounterState) -> Iterator[Command]:
    """Take Cover is out of turn: any foe who saved against Covering Fire may still dive,
    whoever's turn it is."""
    for combatant in state.combat.order:
        if not combatant.get(COVER_OWED, False):
            continue
        diver = state.token(combatant.token_id)
        for square in diver.square.neighbours():
            yield Command.build(TAKE_COVER, diver.id, squares=[square])
