"""The Cities Without Number action handlers: the registry and what every action shares.

The system checks what every action shares (combat running, whose turn, the action
economy); a handler says what is special to its action. Handlers live in
``attack_actions``, ``defence_actions`` and ``item_actions``.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command
from engine.rules.cities_without_number import attack_math
from engine.rules.cities_without_number.catalogue import action_spec
from engine.rules.common import HandlerTable
from engine.tokens import Token, Weapon

SKILL_ROLL = "2d6"
DEFAULT_DIFFICULTY = 8

HANDLERS = HandlerTable(action_spec)
register = HANDLERS.register
simple_describe = HANDLERS.simple_describe


def weapon_of(actor: Token, command: Command, *, melee: bool | None = None) -> Weapon:
    weapon = common.chosen_weapon(actor, command, melee=melee)
    if weapon is not None:
        return weapon
    if melee is not False:
        return attack_math.UNARMED
    raise KeyError(f"{actor.name} has no ranged weapon")


def no_check(state: EncounterState, command: Command) -> list[str]:
    return []
