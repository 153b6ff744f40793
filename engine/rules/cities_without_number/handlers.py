"""The Cities Without Number action handlers: the registry and what every action shares.

The system checks what every action shares (combat running, whose turn, the action
economy); a handler says what is special to its action. Handlers live in
``attack_actions``, ``defence_actions`` and ``item_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pydantic

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Command, Outcome, Preview
from engine.rules.cities_without_number import attacks
from engine.rules.cities_without_number.catalogue import action_spec
from engine.tokens import Token, Weapon

Check = Callable[[EncounterState, Command], list[str]]
Describe = Callable[[EncounterState, Command], Preview]
Resolve = Callable[[EncounterState, Command, Dice], Outcome]

SKILL_ROLL = "2d6"
DEFAULT_DIFFICULTY = 8
#: Dropped weapons travel in the combat data as JSON.
WEAPON_LIST = pydantic.TypeAdapter(list[Weapon])


@dataclass(frozen=True, slots=True)
class Handler:
    key: str
    check: Check
    describe: Describe
    resolve: Resolve


HANDLERS: dict[str, Handler] = {}


def register(key: str, check: Check, describe: Describe, resolve: Resolve) -> None:
    action_spec(key)
    HANDLERS[key] = Handler(key, check, describe, resolve)


def actor_of(state: EncounterState, command: Command) -> Token:
    return state.token(str(command.actor))


def target_of(state: EncounterState, command: Command) -> Token:
    if command.target is None:
        raise KeyError("choose a target")
    return state.token(command.target)


def weapon_of(actor: Token, command: Command, *, melee: bool | None = None) -> Weapon:
    if command.weapon is not None:
        return actor.weapon(command.weapon)
    for weapon in actor.weapons:
        if melee is None or weapon.melee == melee:
            return weapon
    if melee is not False:
        return attacks.UNARMED
    raise KeyError(f"{actor.name} has no ranged weapon")


def errors(error: Exception) -> list[str]:
    return [str(error.args[0]) if error.args else str(error)]


def simple_describe(name: str) -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        actor = actor_of(state, command)
        return Preview(command, True, summary=f"{name}: {actor.name}. "
                       f"{action_spec(command.action).summary}", targets=command.targets)
    return describe


def no_check(state: EncounterState, command: Command) -> list[str]:
    return []
