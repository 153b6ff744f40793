"""Concrete Savage Worlds commands worth trying for a token now (palettes, random play)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command
from engine.rules.savage_worlds import hold, incapacitation, rerolls, tables
from engine.rules.savage_worlds.area_attack import template_of
from engine.rules.savage_worlds.soak_actions import hit_wounds


def example_commands(state: EncounterState, token_id: str) -> Iterator[Command]:
    actor = state.token(token_id)
    foes, friends = common.foes_and_friends(state, actor)
    for square in actor.square.neighbours():
        yield Command.build("move", token_id, squares=[square])
        yield Command.build("move", token_id, squares=[square], run=True)
    for simple in ("defend", "hold", "act_from_hold", "stand_up", "go_prone", "break_free",
                   "soak", "reroll"):
        yield Command(simple, token_id)
    # Acting from Hold interrupts whoever's turn it is; a Wound is soaked as it is taken.
    for waiting in state.tokens:
        if waiting.id != token_id and hold.is_on_hold(waiting):
            yield Command("act_from_hold", waiting.id)
        if waiting.id != token_id and hit_wounds(state, waiting.id) > 0:
            yield Command("soak", waiting.id)
        if waiting.id != token_id and rerolls.last_roll(state, waiting.id) is not None:
            yield Command("reroll", waiting.id)
    melee = [w for w in actor.weapons if w.melee]
    ranged = [w for w in actor.weapons if not w.melee]
    for foe in foes:
        near = common.adjacent(actor, foe)
        approach = common.walk_beside(state, actor, foe,
                                      difficult_cost=tables.DIFFICULT_TERRAIN_COST)
        if approach:
            yield Command("move", token_id, squares=approach)
        for weapon in ranged:
            if template_of(weapon) is not None:
                yield Command.build("area_attack", token_id, squares=[foe.square],
                                    weapon=weapon.name)
                continue
            yield Command.build("shooting", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("aim", token_id, targets=[foe.id], weapon=weapon.name)
            yield Command.build("called_shot", token_id, targets=[foe.id], weapon=weapon.name,
                                location="head or vitals")
            yield Command.build("suppressive_fire", token_id, squares=[foe.square],
                                weapon=weapon.name)
        if near:
            names: list[str | None] = [w.name for w in melee] or [None]
            for name in names:
                yield Command.build("fighting", token_id, targets=[foe.id], weapon=name)
                yield Command.build("wild_attack", token_id, targets=[foe.id], weapon=name)
                yield Command.build("desperate_attack", token_id, targets=[foe.id], weapon=name,
                                    step=2)
                yield Command.build("disarm", token_id, targets=[foe.id], weapon=name,
                                    location="hand")
                yield Command.build("finishing_move", token_id, targets=[foe.id], weapon=name)
            yield Command.build("touch_attack", token_id, targets=[foe.id])
            yield Command.build("grapple", token_id, targets=[foe.id])
            yield Command.build("crush", token_id, targets=[foe.id])
            yield Command.build("push", token_id, targets=[foe.id])
        yield Command.build("test", token_id, targets=[foe.id], skill="taunt",
                            effect="Distracted")
    for friend in friends:
        yield Command.build("support", token_id, targets=[friend.id], trait="fighting")
    # Anyone Bleeding Out, friend or foe, can be stabilised by someone beside him.
    for patient in state.tokens:
        if patient.id == token_id or not incapacitation.bleeding_out(patient):
            continue
        yield Command.build("stabilise", token_id, targets=[patient.id])
        approach = common.walk_beside(state, actor, patient,
                                      difficult_cost=tables.DIFFICULT_TERRAIN_COST)
        if approach:
            yield Command("move", token_id, squares=approach)
