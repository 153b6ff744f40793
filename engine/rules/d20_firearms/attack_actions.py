"""d20 firearms attacks: a single Attack, Full-Auto Fire, Charge, Two-Weapon Combat and the
coup de grace (d20 Modern's core rule; the texts we hold name only helpless creatures)."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice, summed
from engine.encounter import EncounterState
from engine.routes.charge import ChargeOption
from engine.routes.charge import charge as charge_route
from engine.routes.graph import graph_for
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of, error_reasons
from engine.rules.d20_firearms import attack_math, board, health, tables
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.economy import full_auto_steps
from engine.rules.d20_firearms.handlers import (
    ammo_reason,
    attack_plan,
    in_hand,
    register,
    rounds_per_action,
    simple_describe,
    spend_rounds,
    target_of,
    weapon_of,
)
from engine.rules.overlays import approach_overlay, refused_lines_overlay, target_overlay
from engine.tokens import Token, Weapon

# --- Attack and Full-Auto --------------------------------------------------------------------




def _attack_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, _, weapon, _ = attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    return ammo_reason(weapon, 1)


def _attack_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, weapon, plan = attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Attack: {error}")
    return Preview(command, True, summary=f"Attack: {actor.name} with the {weapon.name} at "
                   f"{target.name}, 1d20{plan.bonus:+d} against Defense {plan.defense}; "
                   f"threat {plan.threat}-20.", targets=(target.id,), modifiers=plan.modifiers,
                   overlay=target_overlay(actor.id, (target.id,), plan.modifiers),
                   shots=1 if weapon.uses_ammunition else 0,
                   rolls=(f"attack 1d20{plan.bonus:+d}", f"damage {weapon.damage}"))


def _attack_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, weapon, plan = attack_plan(state, command)
    state = spend_rounds(state, actor.id, weapon, 1)
    state = common.remove_condition(state, actor.id, board.OVERWATCH)
    state, result = attack_math.roll_attack(state, actor, target, plan, dice, "attacks")
    return state, result.events


register("attack", _attack_check, _attack_describe, _attack_resolve)


def _full_auto_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, _, weapon, _ = attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    if not special.is_automatic(weapon):
        return [f"the {weapon.name} cannot fire full-auto"]
    return ammo_reason(weapon, 3 * rounds_per_action(weapon))


def _full_auto_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, weapon, _ = attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Full-Auto Fire: {error}")
    steps = full_auto_steps(special.weapon_recoil(weapon))
    penalties = ", ".join(str(s.recoil_penalty) for s in steps)
    return Preview(command, True, summary=f"Full-Auto Fire: {actor.name} empties three attack "
                   f"actions at {target.name}, recoil {penalties}.", targets=(target.id,),
                   overlay=target_overlay(actor.id, (target.id,)),
                   shots=3 * rounds_per_action(weapon), rolls=("attack", "attack", "attack"))


def _full_auto_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, weapon, _ = attack_plan(state, command)
    events: list[Event] = []
    for step in (1, 2, 3):
        target = state.token(target.id)
        state = spend_rounds(state, actor.id, weapon, rounds_per_action(weapon))
        try:
            plan = attack_math.plan_attack(state, state.token(actor.id), target, weapon,
                                           recoil_step=step)
        except attack_math.AttackError as error:
            events.append(Event(EventKind.NOTE, f"Attack action {step}: {error}", (actor.id,)))
            continue
        state, result = attack_math.roll_attack(state, state.token(actor.id), target, plan, dice,
                                                f"fires full-auto ({step}x recoil)")
        events.extend(result.events)
    state = common.remove_condition(state, actor.id, board.OVERWATCH)
    return state, tuple(events)


register("full_auto", _full_auto_check, _full_auto_describe, _full_auto_resolve)


# --- Charge ----------------------------------------------------------------------------------


def _charge_option(state: EncounterState, command: Command) -> ChargeOption:
    actor, target = actor_of(state, command), target_of(state, command)
    return charge_route(
        graph_for(state, difficult_cost=tables.DIFFICULT_TERRAIN_COST),
        actor.id,
        target.id,
        rule=special.CHARGE,
        reach=board.stat_int(actor, "reach"),
    )


def _melee_weapon(actor: Token, command: Command) -> Weapon:
    if command.weapon:
        weapon = actor.weapon(command.weapon)
        if not weapon.melee:
            raise KeyError(f"the {weapon.name} is not a melee weapon")
        return weapon
    return next((w for w in actor.weapons if w.melee), Weapon("Unarmed", "1d3", melee=True))


def charge_weapon(state: EncounterState, command: Command) -> str:
    """The weapon a Charge that names none attacks with (the system's ``rules_weapon``)."""
    return _melee_weapon(actor_of(state, command), replace(command, weapon=None)).name


def _charge_plan(state: EncounterState, command: Command,
                 ) -> tuple[Token, Token, attack_math.AttackPlan, ChargeOption]:
    actor, target = actor_of(state, command), target_of(state, command)
    option = _charge_option(state, command)
    weapon = _melee_weapon(actor, command)
    end = option.route.squares[-1] if option.route is not None else actor.square
    moved = common.put(state, actor.moved_to(end))
    plan = attack_math.plan_attack(moved, moved.token(actor.id), target, weapon,
                                   extra=(Modifier("Charge", special.CHARGE_ATTACK_BONUS),))
    return actor, target, plan, option


def _charge_check(state: EncounterState, command: Command) -> list[str]:
    try:
        option = _charge_option(state, command)
        if not option.allowed:
            return list(option.reasons) or ["cannot Charge"]
        _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    return []


def _charge_describe(state: EncounterState, command: Command) -> Preview:
    try:
        option = _charge_option(state, command)
        if not option.allowed:  # each line tried, refused with its why (they name its space)
            tried = refused_lines_overlay(option.tried)
            return Preview(command, False, summary="Charge", overlay=approach_overlay(
                str(command.actor), (), option.target_id).plus(tried))
        actor, target, plan, option = _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Charge: {error}")
    squares = option.route.squares if option.route is not None else ()
    return Preview(command, True, summary=f"Charge: {actor.name} rushes {target.name} and "
                   f"attacks at +2 (1d20{plan.bonus:+d} against {plan.defense}); -2 Defense "
                   "until the next turn.", squares=squares, targets=(target.id,),
                   modifiers=plan.modifiers, notes=option.reasons,
                   overlay=approach_overlay(actor.id, squares, target.id, plan.modifiers,
                                            "Charge"))


def _charge_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, plan, option = _charge_plan(state, command)
    end = option.route.squares[-1] if option.route is not None else actor.square
    state = common.put(state, actor.moved_to(end))
    state, mark = board.add_condition(state, actor.id, board.CHARGING,
                                      common.until_next_turn(state, actor.id))
    moved = Event(EventKind.MOVE, f"{actor.name} charges to {end}.", (actor.id,))
    state, result = attack_math.roll_attack(state, state.token(actor.id), target, plan, dice,
                                            "charges")
    return state, (moved, mark, *result.events)


register("charge", _charge_check, _charge_describe, _charge_resolve)


# --- Two-Weapon Combat -----------------------------------------------------------------------


def _pair(actor: Token, command: Command) -> tuple[Weapon, Weapon]:
    first = weapon_of(actor, command)
    other = command.option("offhand")
    if other is None:
        second = next((w for w in actor.weapons if w.name != first.name and not w.melee
                       and w.drawn), None)
        if second is None:
            raise KeyError(f"{actor.name} has no second gun in hand")
        return first, second
    return first, actor.weapon(str(other))


def _strength_reason(actor: Token, weapon: Weapon) -> str | None:
    base = next((int(value) for t in weapon.traits
                 for prefix in ("strength:", "str:")
                 if t.lower().startswith(prefix) and (value := t[len(prefix):]).isdigit()),
                None)
    if base is None:
        return None
    need = special.strength_requirement(base, two_weapons=True)
    have = board.stat_int(actor, "str_score")
    return None if have >= need else (f"the {weapon.name} needs Strength {need} when firing two "
                                      f"guns; {actor.name} has {have}")


def _two_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        target = target_of(state, command)
        first, second = _pair(actor, command)
    except KeyError as error:
        return error_reasons(error)
    reason = special.two_weapon_refusal(first, second) or in_hand(actor, first) or \
        in_hand(actor, second) or _strength_reason(actor, first) or \
        _strength_reason(actor, second)
    if reason:
        return [reason]
    for weapon in (first, second):
        try:
            attack_math.plan_attack(state, actor, target, weapon)
        except attack_math.AttackError as error:
            return error_reasons(error)
        reasons = ammo_reason(weapon, 1)
        if reasons:
            return reasons
    return []


def _two_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    events: list[Event] = []
    for weapon in _pair(actor, command):
        state = spend_rounds(state, actor.id, weapon, 1)
        try:
            plan = attack_math.plan_attack(
                state, state.token(actor.id), state.token(target.id), weapon,
                extra=(Modifier("Two-Weapon Combat", special.TWO_WEAPON_PENALTY),))
        except attack_math.AttackError as error:
            events.append(Event(EventKind.NOTE, str(error), (actor.id,)))
            continue
        state, result = attack_math.roll_attack(state, state.token(actor.id),
                                                state.token(target.id), plan, dice,
                                                f"fires the {weapon.name}")
        events.extend(result.events)
    return state, tuple(events)


register("two_weapon_attack", _two_check, simple_describe("Two-Weapon Combat"), _two_resolve)


# --- Coup de grace ---------------------------------------------------------------------------


def _coup_weapon(state: EncounterState, command: Command) -> tuple[Token, Token, Weapon]:
    """The killer, the helpless victim and the weapon, or KeyError/AttackError saying why
    not: a melee weapon in reach, or a firearm from the next square (d20 Modern lets a
    ranged weapon deliver it from beside the victim)."""
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command)
    if board.health(target) is board.Health.DEAD:
        raise attack_math.AttackError(f"{target.name} is dead")
    if not board.helpless(target):
        raise attack_math.AttackError(f"{target.name} is not helpless (only a dying or stable "
                                      "soldier is)")
    reason = in_hand(actor, weapon)
    if reason:
        raise attack_math.AttackError(reason)
    reach = board.stat_int(actor, "reach") if weapon.melee else 1
    if not common.within(actor, target, reach):
        raise attack_math.AttackError(f"{target.name} is not within "
                                      + ("reach" if weapon.melee else "the next square"))
    return actor, target, weapon


def _coup_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, _, weapon = _coup_weapon(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    return ammo_reason(weapon, 1)


def _coup_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, weapon = _coup_weapon(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Coup de Grace: {error}")
    times = attack_math.crit_multiplier(weapon)
    return Preview(command, True, summary=f"Coup de Grace: {actor.name} finishes {target.name} "
                   f"with the {weapon.name}: an automatic critical hit ({weapon.damage} x{times}); "
                   f"if {target.name} lives, Fortitude DC {special.COUP_DE_GRACE_DC_BASE} + the "
                   "damage or die.", targets=(target.id,),
                   overlay=target_overlay(actor.id, (target.id,)),
                   shots=1 if weapon.uses_ammunition else 0,
                   rolls=(f"damage {weapon.damage} x{times}", "Fortitude save"))


def _coup_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, weapon = _coup_weapon(state, command)
    state = spend_rounds(state, actor.id, weapon, 1)
    times = attack_math.crit_multiplier(weapon)
    rolled = summed([dice.roll(weapon.damage, f"{actor.name} coup de grace damage")
                     for _ in range(times)], f"{actor.name} coup de grace damage")
    damage = max(rolled.total, 1)
    events = [Event(EventKind.ATTACK, f"{actor.name} delivers a coup de grace to {target.name} "
                    f"with the {weapon.name}: an automatic critical hit (x{times}), {damage} "
                    "damage.", (actor.id, target.id))]
    state, dealt = attack_math.apply_damage(state, target.id, damage, dice, rolled)
    events.extend(dealt)
    victim = state.token(target.id)
    if board.health(victim) is board.Health.DEAD:
        return state, tuple(events)
    dc = special.coup_de_grace_dc(damage)
    save = dice.roll(f"1d20{board.stat_int(victim, 'fortitude'):+d}",
                     f"{victim.name} Fortitude against the coup de grace")
    if save.total >= dc:
        events.append(Event(EventKind.ROLL, f"{victim.name} survives: Fortitude {save.total} "
                            f"against DC {dc}.", (victim.id,), save))
        return state, tuple(events)
    events.append(Event(EventKind.ROLL, f"{victim.name} fails the Fortitude save ({save.total} "
                        f"against DC {dc}).", (victim.id,), save))
    state, dead = health.mark(state, victim.id, board.DEAD)
    return state, (*events, dead)


register("coup_de_grace", _coup_check, _coup_describe, _coup_resolve)
