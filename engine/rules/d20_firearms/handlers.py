"""The d20 firearms action handlers: the registry and what every action shares.

The system checks what every action shares (combat running, whose turn, the action budget);
a handler says what is special to its action. Handlers live in ``movement_actions``,
``attack_actions`` and ``fire_support_actions``.
"""

from __future__ import annotations

import math
from dataclasses import replace

from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command, Modifier
from engine.rules.common import HandlerTable, actor_of
from engine.rules.d20_firearms import attack_math
from engine.rules.d20_firearms.catalogue import action_spec
from engine.tokens import Token, Weapon
from engine.words import counted

REFLEX_ROLL = "1d20"
LOCATE_DC = 15

HANDLERS = HandlerTable(action_spec)
register = HANDLERS.register
simple_describe = HANDLERS.simple_describe


def target_of(state: EncounterState, command: Command) -> Token:
    target = common.target_of(state, command)
    if target.id == command.actor:
        raise KeyError("a token cannot target itself")
    return target


def weapon_of(actor: Token, command: Command) -> Weapon:
    if command.weapon is not None:
        return actor.weapon(command.weapon)
    if not actor.weapons:
        raise KeyError(f"{actor.name} carries no weapon")
    return actor.weapons[0]


def in_hand(actor: Token, weapon: Weapon) -> str | None:
    return None if weapon.drawn else f"draw the {weapon.name} first"


def rounds_per_action(weapon: Weapon) -> int:
    """Rounds one attack action spends (the weapon's rate of fire, at least 1)."""
    return max(1, weapon.rate_of_fire)


def spend_rounds(state: EncounterState, actor_id: str, weapon: Weapon, rounds: int,
                 ) -> EncounterState:
    if not weapon.uses_ammunition:
        return state
    actor = state.token(actor_id)
    return common.put(state, replace(actor, weapons=tuple(
        w.with_ammo(max(0, w.ammo - rounds)) if w.name == weapon.name else w
        for w in actor.weapons)))


def two_weapons(actor: Token) -> bool:
    ranged = [w for w in actor.weapons if w.drawn and not w.melee]
    return len(ranged) >= 2


def direction_to(actor: Token, square: tuple[int, int]) -> float:
    """Degrees clockwise from east (screen y grows down), from the actor's centre."""
    cx = actor.square.x + actor.size / 2
    cy = actor.square.y + actor.size / 2
    return math.degrees(math.atan2(square[1] + 0.5 - cy, square[0] + 0.5 - cx))

def attack_plan(state: EncounterState, command: Command, *, step: int = 1,
                 blind: bool = False, extra: tuple[Modifier, ...] = ()
                 ) -> tuple[Token, Token, Weapon, attack_math.AttackPlan]:
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command)
    reason = in_hand(actor, weapon)
    if reason:
        raise attack_math.AttackError(reason)
    plan = attack_math.plan_attack(state, actor, target, weapon, recoil_step=step, blind=blind,
                                   extra=extra)
    return actor, target, weapon, plan


def ammo_reason(weapon: Weapon, rounds: int) -> list[str]:
    if weapon.uses_ammunition and weapon.ammo < rounds:
        return [f"the {weapon.name} has {counted(weapon.ammo, 'round')}; this needs {rounds}"]
    return []
