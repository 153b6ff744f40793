"""The Savage Worlds action handlers: the registry and the pieces every action shares.

The system (``system.py``) checks what every action shares (combat running, whose turn,
Shaken/Stunned/Bound, the three-action limit, the whole-turn actions); a handler only says
what is special to its action. Handlers live in ``attack_actions``, ``maneuver_actions``
and ``movement_actions``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command, Event, Modifier, Outcome, Preview
from engine.rules.common import Check, Describe, HandlerTable, Resolve, actor_of
from engine.rules.overlays import target_overlay
from engine.rules.savage_worlds import area_attack, attack_math, board, maneuvers
from engine.rules.savage_worlds.catalogue import action_spec
from engine.rules.savage_worlds.conditions import SWCondition
from engine.tokens import Token, Weapon

HANDLERS = HandlerTable(action_spec)
register = HANDLERS.register
simple_describe = HANDLERS.simple_describe


# --- shared pieces ---------------------------------------------------------------------------


def target_of(state: EncounterState, command: Command) -> Token:
    return common.target_of(state, command, missing="no target given")


def weapon_of(actor: Token, command: Command, *, melee: bool | None = None) -> Weapon:
    weapon = common.chosen_weapon(actor, command, melee=melee)
    if weapon is not None:
        return weapon
    if melee:
        return attack_math.UNARMED
    raise KeyError(f"{actor.name} has no {'melee' if melee else 'ranged'} weapon")


def target_reasons(state: EncounterState, command: Command) -> list[str]:
    if command.target is None:
        return ["choose a target"]
    try:
        target = target_of(state, command)
    except KeyError:
        return [f"there is no token {command.target!r}"]
    if target.id == command.actor:
        return ["a token cannot target itself"]
    return []


def attack_extras(state: EncounterState, command: Command) -> list[Modifier]:
    """Modifiers that come from the command's options: GM cover and a free modifier."""
    extra: list[Modifier] = []
    cover = int(command.option("cover", 0) or 0)
    if cover:
        extra.append(Modifier("Cover", -abs(cover)))
    free = int(command.option("modifier", 0) or 0)
    if free:
        extra.append(Modifier("GM modifier", free))
    return extra


def _aim_modifiers(actor: Token, target: Token, mods: list[Modifier]) -> list[Modifier]:
    """An Aim at this target, used on the first action: cancel penalties or add +2."""
    aims = [c for c in actor.conditions if c.name == SWCondition.AIMING and c.source == target.id]
    if not aims:
        return []
    choice = maneuvers.AimChoice.PLUS_TWO if aims[0].value == 2 else \
        maneuvers.AimChoice.IGNORE_PENALTIES
    aimable = sum(m.value for m in mods if m.value < 0 and any(
        word in m.name.lower() for word in ("range", "cover", "called shot", "scale", "speed")))
    bonus = maneuvers.aim_bonus(choice, aimable)
    return [Modifier("Aim", bonus)] if bonus else []


def plan_for(
    state: EncounterState, command: Command, *, melee: bool | None,
    extra: list[Modifier] | None = None, extra_damage: list[Modifier] | None = None,
) -> tuple[Token, Token, Weapon, attack_math.AttackPlan]:
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command, melee=melee)
    if melee is True and not weapon.melee:
        raise attack_math.AttackError(f"{weapon.name} is not a melee weapon")
    if melee is False and weapon.melee:
        raise attack_math.AttackError(f"{weapon.name} is not a ranged weapon")
    if area_attack.template_of(weapon) is not None:
        raise attack_math.AttackError(f"{weapon.name} lays a template: use the Area Effect "
                                      "Attack")
    options = attack_extras(state, command)
    plan = attack_math.plan_attack(state, actor, target, weapon, [*options, *(extra or [])],
                                   extra_damage or [])
    if not weapon.melee and int(common.data(state, actor.id, "actions_taken", 0)) == 0:
        aim = _aim_modifiers(actor, target, list(plan.modifiers))
        plan = replace(plan, modifiers=(*plan.modifiers, *aim))
    return actor, target, weapon, plan


def attack_check(melee: bool | None, extra: Callable[[Command], list[Modifier]] | None = None,
                  ) -> Check:
    def check(state: EncounterState, command: Command) -> list[str]:
        reasons = target_reasons(state, command)
        if reasons:
            return reasons
        actor = actor_of(state, command)
        try:
            _, _, weapon, _ = plan_for(state, command, melee=melee,
                                       extra=extra(command) if extra else None)
        except (KeyError, attack_math.AttackError, maneuvers.ManeuverError) as error:
            return [str(error.args[0]) if error.args else str(error)]
        if weapon.uses_ammunition and weapon.ammo < 1:
            return [f"{actor.name}'s {weapon.name} is empty"]
        if board.out_of_fight(target_of(state, command)):
            return [f"{target_of(state, command).name} is already out of the fight"]
        return []
    return check


def attack_describe(name: str, melee: bool | None,
                     extra: Callable[[Command], list[Modifier]] | None = None,
                     extra_damage: Callable[[Command], list[Modifier]] | None = None,
                     note: str = "") -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        try:
            actor, target, weapon, plan = plan_for(
                state, command, melee=melee, extra=extra(command) if extra else None,
                extra_damage=extra_damage(command) if extra_damage else None)
        except (KeyError, attack_math.AttackError, maneuvers.ManeuverError) as error:
            return Preview(command, False, summary=f"{name}: {error}")
        die, _ = board.trait_die(actor, plan.skill)
        text = (f"{name} (rule: {name}): {actor.name} with {weapon.name} at {target.name}, "
                f"{plan.skill.title()} d{die} {plan.to_hit:+d} against {plan.target_number}; "
                f"damage {weapon.damage}{plan.damage_bonus:+d}.")
        if note:
            text += " " + note
        modifiers = (*plan.modifiers, *plan.damage_modifiers)
        return Preview(command, True, summary=text, targets=(target.id,), modifiers=modifiers,
                       overlay=target_overlay(actor.id, (target.id,), modifiers),
                       shots=1 if weapon.uses_ammunition else 0,
                       rolls=(f"{plan.skill} d{die}", "damage"), cost="1 action")
    return describe


def attack_resolve(label: str, melee: bool | None,
                    extra: Callable[[Command], list[Modifier]] | None = None,
                    extra_damage: Callable[[Command], list[Modifier]] | None = None,
                    after: Callable[[EncounterState, Command, attack_math.AttackResult, Dice],
                                    Outcome] | None = None, *, rerollable: bool = True) -> Resolve:
    """``rerollable``: a miss is kept for a Benny (not when a hit brings more than damage)."""
    def resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target, weapon, plan = plan_for(
            state, command, melee=melee, extra=extra(command) if extra else None,
            extra_damage=extra_damage(command) if extra_damage else None)
        events: list[Event] = []
        if weapon.uses_ammunition:
            actor = replace(actor, weapons=tuple(
                w.with_ammo(w.ammo - 1) if w.name == weapon.name else w for w in actor.weapons))
            state = common.put(state, actor)
        if any(m.name == "Aim" for m in plan.modifiers) or actor.has_condition(SWCondition.AIMING):
            state = common.remove_condition(state, actor.id, SWCondition.AIMING)
        state, result = attack_math.roll_attack(state, actor, target, weapon, plan, dice, label,
                                                rerollable=rerollable)
        events.extend(result.events)
        if after is not None:
            state, more = after(state, command, result, dice)
            events.extend(more)
        return state, tuple(events)
    return resolve
