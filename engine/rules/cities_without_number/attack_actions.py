"""Cities Without Number attacks: melee, ranged and Snap Attacks, the Swarm Attack and
the Charge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.routes.charge import ChargeOption
from engine.routes.charge import charge as charge_route
from engine.routes.graph import graph_for
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.cities_without_number import attack_math, board, combat_state, tables
from engine.rules.cities_without_number import combat_rules as rules
from engine.rules.cities_without_number.combat_state import swarm_members
from engine.rules.cities_without_number.handlers import (
    register,
    weapon_of,
)
from engine.rules.common import Check, Describe, Resolve, actor_of, error_reasons, target_of
from engine.rules.overlays import approach_overlay, refused_lines_overlay, target_overlay
from engine.tokens import Token, Weapon
from engine.words import counted

# --- attacks ---------------------------------------------------------------------------------


Extras = Callable[[EncounterState, Command], list[Modifier]]


def _plan(state: EncounterState, command: Command, melee: bool | None,
          extra: Extras | None = None) -> tuple[Token, Token, attack_math.AttackPlan]:
    actor, target = actor_of(state, command), target_of(state, command)
    if target.id == actor.id:
        raise attack_math.AttackError("a token cannot attack itself")
    weapon = weapon_of(actor, command, melee=melee)
    if melee is True and not weapon.melee:
        raise attack_math.AttackError(f"{weapon.name} is not a melee weapon")
    if melee is False and weapon.melee:
        raise attack_math.AttackError(f"{weapon.name} is not a ranged weapon")
    if weapon.uses_ammunition and weapon.ammo < 1:
        raise attack_math.AttackError(f"{actor.name}'s {weapon.name} is empty")
    plan = attack_math.plan_attack(state, actor, target, weapon, extra(state, command) if extra
                                   else ())
    return actor, target, plan


def attack_check(melee: bool | None, extra: Extras | None = None) -> Check:
    def check(state: EncounterState, command: Command) -> list[str]:
        try:
            _plan(state, command, melee, extra)
        except (KeyError, attack_math.AttackError) as error:
            return error_reasons(error)
        return []
    return check


def _to_hit(plan: attack_math.AttackPlan) -> int:
    """What the attack roll adds to its d20: every modifier but those to the target's AC."""
    return sum(m.value for m in plan.modifiers if m.applies_to != "AC")


def attack_describe(name: str, melee: bool | None, extra: Extras | None = None,
                    note: str = "") -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        try:
            actor, target, plan = _plan(state, command, melee, extra)
        except (KeyError, attack_math.AttackError) as error:
            return Preview(command, False, summary=f"{name}: {error}")
        to_hit = _to_hit(plan)
        text = (f"{name}: {actor.name} with {plan.weapon.name} at {target.name}, 1d20{to_hit:+d} "
                f"against AC {plan.armour_class}; damage {plan.weapon.damage}"
                f"{plan.damage_bonus:+d}.")
        if note:
            text += " " + note
        modifiers = (*plan.modifiers, *plan.damage_modifiers)
        return Preview(command, True, summary=text, targets=(target.id,), modifiers=modifiers,
                       overlay=target_overlay(actor.id, (target.id,), modifiers),
                       shots=1 if plan.weapon.uses_ammunition else 0,
                       rolls=(f"attack 1d20{to_hit:+d}", f"damage {plan.weapon.damage}"))
    return describe


def spend_round(state: EncounterState, actor: Token, weapon: Weapon) -> EncounterState:
    if not weapon.uses_ammunition:
        return state
    return common.put(state, replace(state.token(actor.id), weapons=tuple(
        w.with_ammo(w.ammo - 1) if w.name == weapon.name else w for w in actor.weapons)))


def attack_resolve(label: str, melee: bool | None, extra: Extras | None = None) -> Resolve:
    def resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target, plan = _plan(state, command, melee, extra)
        state = spend_round(state, actor, plan.weapon)
        state, target, screen = attack_math.resolve_screen(state, actor, target,
                                                           not plan.weapon.melee, dice)
        if screen:
            plan = attack_math.plan_attack(state, actor, target, plan.weapon,
                                           extra(state, command) if extra else ())
        state, result = attack_math.roll_attack(state, actor, target, plan, dice, label)
        return state, (*screen, *result.events)
    return resolve


register("melee_attack", attack_check(True), attack_describe("Make a Melee Attack", True),
          attack_resolve("attacks", True))
register("ranged_attack", attack_check(False), attack_describe("Make a Ranged Attack", False),
          attack_resolve("shoots", False))


def _snap(state: EncounterState, command: Command) -> list[Modifier]:
    return [Modifier("Snap Attack", rules.SNAP_ATTACK_PENALTY)]


def _snap_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not board.is_pc(actor) and not board.STATS.flag(actor, rules.DISCIPLINED_STAT):
        return [f"only well-drilled NPCs can Snap Attack; {actor.name} is not marked disciplined"]
    return attack_check(None, _snap)(state, command)


register("snap_attack", _snap_check, attack_describe("Make a Snap Attack", None, _snap),
          attack_resolve("snaps off an attack", None, _snap))


# --- Swarm Attack ----------------------------------------------------------------------------


def _swarm_bonus(state: EncounterState, command: Command) -> list[Modifier]:
    members = swarm_members(state, str(command.target))
    count = len({*members, str(command.actor)})
    bonus = rules.swarm_bonus(min(count, rules.SWARM_MAX_ASSAILANTS))
    return [Modifier("Swarm Attack", bonus.to_hit)] if bonus.to_hit else []


def _swarm_check(state: EncounterState, command: Command) -> list[str]:
    try:
        target = target_of(state, command)
    except KeyError as error:
        return error_reasons(error)
    members = swarm_members(state, target.id)
    if str(command.actor) in members:
        return ["already part of this swarm this round"]
    if len(members) >= rules.SWARM_MAX_ASSAILANTS:
        return [f"{rules.SWARM_MAX_ASSAILANTS} assailants already swarm {target.name}"]
    return attack_check(None, _swarm_bonus)(state, command)


def _swarm_describe(state: EncounterState, command: Command) -> Preview:
    preview = attack_describe("Make a Swarm Attack", None, _swarm_bonus)(state, command)
    members = swarm_members(state, str(command.target))
    count = len(members) + 1
    strike = bool(command.option("strike", False)) or count >= rules.SWARM_MAX_ASSAILANTS
    what = "strikes now" if strike else "joins the swarm (tick Strike now to attack)"
    bonus = rules.swarm_bonus(min(count, rules.SWARM_MAX_ASSAILANTS))
    return replace(preview, summary=f"{preview.summary} Assailant {count} of at most "
                   f"{rules.SWARM_MAX_ASSAILANTS} {what}: +{bonus.to_hit} to hit, "
                   f"+{bonus.damage} damage.")


def _swarm_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    members = (*swarm_members(state, target.id), actor.id)
    strike = bool(command.option("strike", False)) or len(members) >= rules.SWARM_MAX_ASSAILANTS
    if not strike:
        state = combat_state.set_swarm(state, target.id, members)
        return state, (Event(EventKind.ACTION, f"{actor.name} joins the swarm on {target.name} "
                             f"({counted(len(members), 'assailant')}; Swarm Attack).",
                             (actor.id, target.id)),)
    _, _, plan = _plan(state, command, None, _swarm_bonus)
    bonus = rules.swarm_bonus(len(members))
    state = spend_round(state, actor, plan.weapon)
    state = combat_state.set_swarm(state, target.id, ())
    state, result = attack_math.roll_attack(state, actor, target, plan, dice,
                                            f"strikes with a swarm of {len(members)}", swarm=bonus)
    return state, result.events


register("swarm_attack", _swarm_check, _swarm_describe, _swarm_resolve)


# --- Charge ----------------------------------------------------------------------------------


def _charge_option(
    state: EncounterState, command: Command
) -> tuple[Token, Token, Weapon, ChargeOption]:
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command, melee=None if command.weapon else True)
    option = charge_route(
        graph_for(state, difficult_cost=tables.DIFFICULT_TERRAIN_COST),
        actor.id,
        target.id,
        rule=rules.CHARGE,
        reach=board.stat_int(actor, "reach"),
    )
    return actor, target, weapon, option


def _charge_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, target, weapon, option = _charge_option(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    refusal = rules.charge_weapon_refusal(weapon)
    if refusal:
        return [refusal]
    if not option.allowed:
        return list(option.reasons) or [f"cannot Charge {target.name}"]
    try:
        _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    return []


def _charge_plan(state: EncounterState, command: Command,
                 ) -> tuple[Token, Token, attack_math.AttackPlan, tuple[Square, ...]]:
    actor, target, weapon, option = _charge_option(state, command)
    squares = option.route.squares if option.route is not None else ()
    moved = state
    if squares:
        moved = common.put(state, actor.moved_to(squares[-1]))
    plan = attack_math.plan_attack(moved, moved.token(actor.id), target, weapon,
                                   [Modifier("Charge", rules.CHARGE_TO_HIT)])
    return actor, target, plan, squares


def _charge_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, _weapon, option = _charge_option(state, command)
        if not option.allowed:  # each line tried, refused with its why (they name its space)
            tried = refused_lines_overlay(option.tried)
            return Preview(command, False, summary="Charge",
                           overlay=approach_overlay(actor.id, (), target.id).plus(tried))
        actor, target, plan, squares = _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Charge: {error}")
    run = counted(len(squares) - 1, "square")
    overlay = approach_overlay(actor.id, squares, target.id, plan.modifiers, "Charge")
    return Preview(command, True, summary=f"Charge: {actor.name} runs {run} "
                   f"at {target.name} and attacks at +2; -2 to both ACs until the round ends.",
                   squares=squares, targets=(target.id,), modifiers=plan.modifiers,
                   rolls=(f"attack 1d20{_to_hit(plan):+d}", f"damage {plan.weapon.damage}"),
                   overlay=overlay)


def _charge_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, plan, squares = _charge_plan(state, command)
    if squares:
        state = common.put(state, state.token(actor.id).moved_to(squares[-1]))
    state, marked = board.add_condition(state, actor.id, board.CHARGING, board.end_of_round(state))
    moved = Event(EventKind.MOVE, f"{actor.name} charges to {squares[-1] if squares else '?'}.",
                  (actor.id,))
    state = spend_round(state, actor, plan.weapon)
    state, result = attack_math.roll_attack(state, state.token(actor.id), target, plan, dice,
                                            "charges")
    return state, (moved, marked, *result.events)


register("charge", _charge_check, _charge_describe, _charge_resolve)

#: The attacks whose rules pick the weapon when the command names none, and of which kind
#: (True: the first melee weapon, else Unarmed; None: the first weapon carried).
RULES_PICK: dict[str, bool | None] = {"melee_attack": True, "charge": True, "swarm_attack": None}


def rules_weapon(state: EncounterState, command: Command) -> str | None:
    """The weapon ``command`` attacks with when it names none, for the attacks in
    ``RULES_PICK`` (the system's ``rules_weapon``); None for any other action."""
    if command.action not in RULES_PICK:
        return None
    actor = actor_of(state, command)
    return weapon_of(actor, replace(command, weapon=None), melee=RULES_PICK[command.action]).name
