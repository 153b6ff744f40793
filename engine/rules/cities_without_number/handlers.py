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
from engine.rules.cities_without_number.catalogue import action_spec, action_type
from engine.rules.cities_without_number.economy import OUT_OF_TURN
from engine.rules.common import (
    Check,
    CostOf,
    Describe,
    HandlerTable,
    Resolve,
    catalogue_cost,
)
from engine.tokens import Token, Weapon

SKILL_ROLL = "2d6"
DEFAULT_DIFFICULTY = 8

HANDLERS = HandlerTable(action_spec)


def register(key: str, check: Check, describe: Describe, resolve: Resolve, *,
             cost: CostOf = catalogue_cost) -> None:
    """Register an action's handler; an Instant action may be taken out of turn."""
    HANDLERS.register(key, check, describe, resolve, cost=cost,
                      out_of_turn=action_type(key) in OUT_OF_TURN)

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
