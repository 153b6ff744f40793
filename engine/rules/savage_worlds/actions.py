"""How each Savage Worlds action is checked, previewed and resolved.

The system (``system.py``) checks what every action shares (combat running, whose turn,
Shaken/Stunned/Bound, the three-action limit, the whole-turn actions); a handler here only
says what is special to its action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.results import TemplateResult
from engine.grid import Square
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.savage_worlds import attacks, board, hold, maneuvers, movement, templates
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds import opposed_actions as opp
from engine.rules.savage_worlds import suppressive_fire as sup
from engine.rules.savage_worlds.catalogue import action_spec
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.traits import outcome, trait_roll
from engine.tokens import Condition, Token, Weapon

Check = Callable[[EncounterState, Command], list[str]]
Describe = Callable[[EncounterState, Command], Preview]
Resolve = Callable[[EncounterState, Command, Dice], Outcome]

STAND_UP_INCHES = 2
RUN_DIE = "1d6"


@dataclass(frozen=True, slots=True)
class Handler:
    key: str
    check: Check
    describe: Describe
    resolve: Resolve


HANDLERS: dict[str, Handler] = {}


def _register(key: str, check: Check, describe: Describe, resolve: Resolve) -> None:
    action_spec(key)
    HANDLERS[key] = Handler(key, check, describe, resolve)


# --- shared pieces ---------------------------------------------------------------------------


def actor_of(state: EncounterState, command: Command) -> Token:
    return state.token(str(command.actor))


def target_of(state: EncounterState, command: Command) -> Token:
    if command.target is None:
        raise KeyError("no target given")
    return state.token(command.target)


def weapon_of(actor: Token, command: Command, *, melee: bool | None = None) -> Weapon:
    if command.weapon is not None:
        return actor.weapon(command.weapon)
    for weapon in actor.weapons:
        if melee is None or weapon.melee == melee:
            return weapon
    if melee:
        return Weapon("Unarmed", "Str", melee=True)
    raise KeyError(f"{actor.name} has no {'melee' if melee else 'ranged'} weapon")


def _target_reasons(state: EncounterState, command: Command) -> list[str]:
    if command.target is None:
        return ["choose a target"]
    try:
        target = target_of(state, command)
    except KeyError:
        return [f"there is no token {command.target!r}"]
    if target.id == command.actor:
        return ["a token cannot target itself"]
    return []


def _attack_extras(state: EncounterState, command: Command) -> list[Modifier]:
    """Modifiers that come from the command's options: GM cover and a free modifier."""
    extra: list[Modifier] = []
    cover = int(command.option("cover", 0) or 0)
    if cover:
        extra.append(Modifier("Cover", -abs(cover)))
    free = int(command.option("modifier", 0) or 0)
    if free:
        extra.append(Modifier("GM modifier", free))
    actor = actor_of(state, command)
    supported = [c for c in actor.conditions
                 if c.name == SWCondition.SUPPORTED and c.source in ("fighting", "shooting")]
    for c in supported:
        extra.append(Modifier(f"Support ({c.source})", c.value))
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
) -> tuple[Token, Token, Weapon, attacks.AttackPlan]:
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command, melee=melee)
    if melee is True and not weapon.melee:
        raise attacks.AttackError(f"{weapon.name} is not a melee weapon")
    if melee is False and weapon.melee:
        raise attacks.AttackError(f"{weapon.name} is not a ranged weapon")
    options = _attack_extras(state, command)
    plan = attacks.plan_attack(state, actor, target, weapon, [*options, *(extra or [])],
                               extra_damage or [])
    if not weapon.melee and int(board.data(state, actor.id, "actions_taken", 0)) == 0:
        aim = _aim_modifiers(actor, target, list(plan.modifiers))
        plan = replace(plan, modifiers=(*plan.modifiers, *aim))
    return actor, target, weapon, plan


def _attack_check(melee: bool | None, extra: Callable[[Command], list[Modifier]] | None = None,
                  ) -> Check:
    def check(state: EncounterState, command: Command) -> list[str]:
        reasons = _target_reasons(state, command)
        if reasons:
            return reasons
        actor = actor_of(state, command)
        try:
            _, _, weapon, _ = plan_for(state, command, melee=melee,
                                       extra=extra(command) if extra else None)
        except (KeyError, attacks.AttackError, maneuvers.ManeuverError) as error:
            return [str(error.args[0]) if error.args else str(error)]
        if weapon.uses_ammunition and weapon.ammo < 1:
            return [f"{actor.name}'s {weapon.name} is empty"]
        if board.out_of_fight(target_of(state, command)):
            return [f"{target_of(state, command).name} is already out of the fight"]
        return []
    return check


def _attack_describe(name: str, melee: bool | None,
                     extra: Callable[[Command], list[Modifier]] | None = None,
                     extra_damage: Callable[[Command], list[Modifier]] | None = None,
                     note: str = "") -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        try:
            actor, target, weapon, plan = plan_for(
                state, command, melee=melee, extra=extra(command) if extra else None,
                extra_damage=extra_damage(command) if extra_damage else None)
        except (KeyError, attacks.AttackError, maneuvers.ManeuverError) as error:
            return Preview(command, False, summary=f"{name}: {error}")
        die, _ = board.trait_die(actor, plan.skill)
        text = (f"{name} (rule: {name}): {actor.name} with {weapon.name} at {target.name}, "
                f"{plan.skill.title()} d{die} {plan.to_hit:+d} against {plan.target_number}; "
                f"damage {weapon.damage}{plan.damage_bonus:+d}.")
        if note:
            text += " " + note
        return Preview(command, True, summary=text, targets=(target.id,),
                       modifiers=(*plan.modifiers, *plan.damage_modifiers),
                       shots=1 if weapon.uses_ammunition else 0,
                       rolls=(f"{plan.skill} d{die}", "damage"), cost="1 action")
    return describe


def _attack_resolve(label: str, melee: bool | None,
                    extra: Callable[[Command], list[Modifier]] | None = None,
                    extra_damage: Callable[[Command], list[Modifier]] | None = None,
                    after: Callable[[EncounterState, Command, attacks.AttackResult, Dice],
                                    Outcome] | None = None) -> Resolve:
    def resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target, weapon, plan = plan_for(
            state, command, melee=melee, extra=extra(command) if extra else None,
            extra_damage=extra_damage(command) if extra_damage else None)
        events: list[Event] = []
        if weapon.uses_ammunition:
            actor = replace(actor, weapons=tuple(
                w.with_ammo(w.ammo - 1) if w.name == weapon.name else w for w in actor.weapons))
            state = board.put(state, actor)
        if any(m.name == "Aim" for m in plan.modifiers) or actor.has_condition(SWCondition.AIMING):
            state = board.remove_condition(state, actor.id, SWCondition.AIMING)
        state, result = attacks.roll_attack(state, actor, target, weapon, plan, dice, label)
        events.extend(result.events)
        if after is not None:
            state, more = after(state, command, result, dice)
            events.extend(more)
        return state, tuple(events)
    return resolve


# --- Move, Stand Up, Go Prone ----------------------------------------------------------------


def pace_left(state: EncounterState, token_id: str) -> int:
    return state.combat.combatant(token_id).budget.get("pace", 0)


def _move_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not cond.can_move(actor):
        return [f"{actor.name} cannot move while "
                f"{', '.join(sorted(n for n in cond.active(actor) if not cond.RULES[n].can_move))}"]
    reasons, cost = movement.path_problems(state, actor.id, command.squares)
    if reasons:
        return reasons
    inches = state.scale.distance(cost)
    if actor.has_condition(SWCondition.PRONE):
        return ["stand up first (2\" of Pace) or crawl as the GM allows"]
    run = bool(command.option("run", False))
    if run and board.data(state, actor.id, "defending", False):
        return ["a defender may move but not run (Defend)"]
    allowance = pace_left(state, actor.id) + (6 if run and not board.data(
        state, actor.id, "ran", False) else 0)
    if inches > allowance:
        return [f"the path is {inches:g}\" and {actor.name} has {allowance:g}\" of Pace left"
                + (" (a run adds at most 6\")" if run else "")]
    return []


def _move_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    _, cost = movement.path_problems(state, actor.id, command.squares)
    run = " running (Running: -2 to actions this turn)" if command.option("run", False) else ""
    return Preview(command, True, summary=f"Move: {actor.name}{run} walks "
                   f"{state.scale.describe(cost)}.", squares=command.squares,
                   cost=f"{state.scale.distance(cost):g}\" of Pace",
                   rolls=("running die d6",) if command.option("run", False) else ())


def _move_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    _, cost = movement.path_problems(state, actor.id, command.squares)
    inches = int(state.scale.distance(cost))
    events: list[Event] = []
    mine = state.combat.combatant(actor.id)
    budget = dict(mine.budget)
    if command.option("run", False) and not board.data(state, actor.id, "ran", False):
        roll = dice.roll(RUN_DIE, f"{actor.name} running die")
        budget["pace"] = budget.get("pace", 0) + roll.total
        state = board.set_data(state, actor.id, ran=True)
        events.append(Event(EventKind.ROLL, f"{actor.name} runs: +{roll.total}\" of Pace.",
                            (actor.id,), roll))
        if inches > budget["pace"]:
            inches = budget["pace"]
            reach = _trim_path(state, actor.id, command.squares, inches)
            command = replace(command, squares=reach)
            events.append(Event(EventKind.NOTE, f"The running die falls short: {actor.name} "
                                f"stops after {inches}\".", (actor.id,)))
    from engine.turns import order as turn_order
    mine = state.combat.combatant(actor.id)
    budget["pace"] = budget.get("pace", 0) - inches
    state = turn_order.update(state, replace(mine, budget=budget))
    moved = int(board.data(state, actor.id, "moved_inches", 0)) + inches
    state = board.set_data(state, actor.id, moved_inches=moved)
    if command.squares:
        state = board.put(state, state.token(actor.id).moved_to(command.squares[-1]))
        events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}.",
                            (actor.id,)))
    return state, tuple(events)


def _trim_path(state: EncounterState, token_id: str, path: tuple[Square, ...], inches: int,
               ) -> tuple[Square, ...]:
    kept: list[Square] = []
    for i in range(1, len(path) + 1):
        _, cost = movement.path_problems(state, token_id, path[:i])
        if state.scale.distance(cost) > inches:
            break
        kept = list(path[:i])
    return tuple(kept)


def _stand_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not actor.has_condition(SWCondition.PRONE):
        return [f"{actor.name} is not prone"]
    if not cond.can_move(actor):
        return [f"{actor.name} cannot move right now"]
    if pace_left(state, actor.id) < STAND_UP_INCHES:
        return ["standing up takes 2\" of Pace"]
    return []


def _stand_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    from engine.turns import order as turn_order
    actor = actor_of(state, command)
    mine = state.combat.combatant(actor.id)
    budget = {**mine.budget, "pace": mine.budget.get("pace", 0) - STAND_UP_INCHES}
    state = turn_order.update(state, replace(mine, budget=budget))
    state = board.remove_condition(state, actor.id, SWCondition.PRONE)
    return state, (Event(EventKind.CONDITION, f"{actor.name} stands up.", (actor.id,)),)


def _prone_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [f"{actor.name} is already prone"] if actor.has_condition(SWCondition.PRONE) else []


def _prone_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    state, events = board.add_condition(state, str(command.actor), SWCondition.PRONE)
    return state, tuple(events)


def _simple(name: str) -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        actor = actor_of(state, command)
        spec = action_spec(command.action)
        return Preview(command, True, summary=f"{name}: {actor.name}. {spec.summary}",
                       targets=command.targets)
    return describe


_register("move", _move_check, _move_describe, _move_resolve)
_register("stand_up", _stand_check, _simple("Stand Up"), _stand_resolve)
_register("go_prone", _prone_check, _simple("Drop Prone"), _prone_resolve)

# --- Fighting, Shooting and their variants -----------------------------------------------------

_register("fighting", _attack_check(True), _attack_describe("Fighting", True),
          _attack_resolve("attacks (Fighting)", True))
_register("shooting", _attack_check(False), _attack_describe("Shooting", False),
          _attack_resolve("shoots", False))


def _desperate(command: Command) -> list[Modifier]:
    step = int(command.option("step", 2) or 2)
    mods = maneuvers.desperate_attack(step)
    return [Modifier("Desperate Attack", mods.to_hit)]


def _desperate_damage(command: Command) -> list[Modifier]:
    step = int(command.option("step", 2) or 2)
    return [Modifier("Desperate Attack", -step, "damage")]


def _desperate_check(state: EncounterState, command: Command) -> list[str]:
    if board.data(state, str(command.actor), "wild_attack", False):
        return ["a Desperate Attack cannot be combined with a Wild Attack"]
    return _attack_check(True, _desperate)(state, command)


_register("desperate_attack", _desperate_check,
          _attack_describe("Desperate Attack", True, _desperate, _desperate_damage),
          _attack_resolve("makes a Desperate Attack", True, _desperate, _desperate_damage))


def _wild(command: Command) -> list[Modifier]:
    return [Modifier("Wild Attack", maneuvers.WILD_ATTACK.to_hit)]


def _wild_damage(command: Command) -> list[Modifier]:
    return [Modifier("Wild Attack", maneuvers.WILD_ATTACK.damage, "damage")]


def _after_wild(state: EncounterState, command: Command, result: attacks.AttackResult,
                dice: Dice) -> Outcome:
    actor = str(command.actor)
    state = board.set_data(state, actor, wild_attack=True)
    token = state.token(actor)
    # Vulnerable until the end of the attacker's *next* turn, not this one.
    vulnerable = cond.condition(SWCondition.VULNERABLE, state.combat.round, actor, True,
                                source="Wild Attack")
    state = board.put(state, cond.with_condition(token, vulnerable))
    return state, (Event(EventKind.CONDITION,
                         f"{token.name} is Vulnerable until the end of the next turn "
                         "(Wild Attack).", (actor,)),)


def _wild_check(state: EncounterState, command: Command) -> list[str]:
    return _attack_check(True, _wild)(state, command)


_register("wild_attack", _wild_check,
          _attack_describe("Wild Attack", True, _wild, _wild_damage,
                           "Leaves the attacker Vulnerable until the end of the next turn."),
          _attack_resolve("makes a Wild Attack", True, _wild, _wild_damage, _after_wild))


def _touch(command: Command) -> list[Modifier]:
    return [Modifier("Touch Attack", maneuvers.TOUCH_ATTACK.to_hit)]


def _touch_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    return [] if board.adjacent(actor, target) else [f"{target.name} is not within reach"]


def _touch_plan(state: EncounterState, command: Command) -> attacks.AttackPlan:
    actor, target = actor_of(state, command), target_of(state, command)
    hand = Weapon("Touch", "0", melee=True)
    extra = _attack_extras(state, command)
    return attacks.plan_attack(state, actor, target, hand, [*extra, *_touch(command)])


def _touch_describe(state: EncounterState, command: Command) -> Preview:
    try:
        plan = _touch_plan(state, command)
    except (KeyError, attacks.AttackError) as error:
        return Preview(command, False, summary=f"Touch Attack: {error}")
    return Preview(command, True, summary=f"Touch Attack: Fighting {plan.to_hit:+d} against "
                   f"Parry {plan.target_number}; a hit only touches.", modifiers=plan.modifiers,
                   targets=command.targets, rolls=("fighting",), cost="1 action")


def _touch_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    plan = _touch_plan(state, command)
    die, untrained = board.trait_die(actor, "fighting")
    roll = trait_roll(die, dice, modifier=plan.to_hit + untrained,
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} touch")
    hit = outcome(roll.total, plan.target_number).success
    text = "touches" if hit else "fails to touch"
    return state, (Event(EventKind.ATTACK, f"{actor.name} {text} {target.name} (Touch Attack, "
                         f"{roll}).", (actor.id, target.id)),)


_register("touch_attack", _touch_check, _touch_describe, _touch_resolve)


def _called(command: Command) -> maneuvers.CalledShot:
    where = maneuvers.CalledShotTarget(str(command.option("location", "head or vitals")))
    scale_value = command.option("scale")
    scale = maneuvers.Scale(int(scale_value)) if scale_value is not None else None
    return maneuvers.called_shot(where, scale=scale,
                                 open_faced_helmet=bool(command.option("helmet", False)))


def _called_mods(command: Command) -> list[Modifier]:
    shot = _called(command)
    return [Modifier(f"Called Shot ({shot.target})", shot.modifier)]


def _called_damage(command: Command) -> list[Modifier]:
    shot = _called(command)
    return [Modifier("Called Shot (head or vitals)", shot.extra_damage, "damage")] \
        if shot.extra_damage else []


def _called_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _called(command)
    except ValueError as error:
        return [f"Called Shot: {error}"]
    return _attack_check(None, _called_mods)(state, command)


def _after_called(state: EncounterState, command: Command, result: attacks.AttackResult,
                  dice: Dice) -> Outcome:
    shot = _called(command)
    if result.hit and shot.may_disarm:
        return _disarm_after(state, command, result, dice)
    return state, ()


_register("called_shot", _called_check,
          _attack_describe("Called Shot", None, _called_mods, _called_damage),
          _attack_resolve("makes a Called Shot", None, _called_mods, _called_damage,
                          _after_called))


# --- Disarm ------------------------------------------------------------------------------------


def _disarm_location(command: Command) -> maneuvers.CalledShotTarget:
    return maneuvers.CalledShotTarget(str(command.option("location", "hand")))


def _disarm_mods(command: Command) -> list[Modifier]:
    where = _disarm_location(command)
    scale = maneuvers.Scale(int(command.option("scale", -4) or 0)) \
        if where is maneuvers.CalledShotTarget.ITEM else None
    shot = maneuvers.called_shot(where, scale=scale)
    return [Modifier(f"Called Shot ({where})", shot.modifier)]


def _disarm_check(state: EncounterState, command: Command) -> list[str]:
    try:
        where = _disarm_location(command)
    except ValueError:
        return ["Disarm aims at a hand, a limb or the item"]
    if where not in (maneuvers.CalledShotTarget.HAND, maneuvers.CalledShotTarget.LIMB,
                     maneuvers.CalledShotTarget.ITEM):
        return ["Disarm aims at a hand, a limb or the item"]
    reasons = _attack_check(None, _disarm_mods)(state, command)
    if not reasons and not target_of(state, command).weapons:
        reasons.append(f"{target_of(state, command).name} holds nothing to drop")
    return reasons


def _drop_weapon(state: EncounterState, target: Token) -> tuple[EncounterState, list[Event]]:
    if not target.weapons:
        return state, []
    dropped, rest = target.weapons[0], target.weapons[1:]
    state = board.put(state, replace(state.token(target.id), weapons=rest))
    return state, [Event(EventKind.NOTE, f"{target.name} drops the {dropped.name} (Disarm).",
                         (target.id,))]


def _disarm_after(state: EncounterState, command: Command, result: attacks.AttackResult,
                  dice: Dice) -> Outcome:
    target = target_of(state, command)
    where = _disarm_location(command) if command.action == "disarm" else _called(command).target
    die, _ = board.trait_die(target, "strength")
    if where is maneuvers.CalledShotTarget.ITEM:
        roll = trait_roll(die, dice, wild_card=board.is_wild_card(target),
                          purpose=f"{target.name} Strength to keep hold")
        keeps = maneuvers.keeps_item(roll.total, item_damage=result.damage)
    else:
        shaken_or_hurt = target.has_condition(SWCondition.SHAKEN) or board.wounds(target) > 0
        if not shaken_or_hurt:
            return state, ()
        modifier = maneuvers.disarm_strength_modifier(where, board.wound_penalty(target))
        roll = trait_roll(die, dice, modifier=modifier, wild_card=board.is_wild_card(target),
                          purpose=f"{target.name} Strength to keep hold")
        keeps = maneuvers.keeps_item(roll.total)
    events = [Event(EventKind.ROLL, f"{target.name} Strength to keep hold: {roll}.",
                    (target.id,))]
    if keeps:
        events.append(Event(EventKind.NOTE, f"{target.name} keeps hold.", (target.id,)))
        return state, tuple(events)
    state, dropped = _drop_weapon(state, target)
    return state, (*events, *dropped)


def _disarm_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    where = _disarm_location(command)
    if where is maneuvers.CalledShotTarget.ITEM:
        # Hitting the item: damage goes to the item, not the wielder.
        actor, target, weapon, plan = plan_for(state, command, melee=None,
                                               extra=_disarm_mods(command))
        die, untrained = board.trait_die(actor, plan.skill)
        roll = trait_roll(die, dice, modifier=plan.to_hit + untrained,
                          wild_card=board.is_wild_card(actor), purpose=f"{actor.name} disarm")
        hit = outcome(roll.total, plan.target_number).success
        events = [Event(EventKind.ATTACK, f"{actor.name} strikes at {target.name}'s weapon: "
                        f"{roll} - {'hit' if hit else 'miss'}.", (actor.id, target.id))]
        if not hit:
            return state, tuple(events)
        damage = attacks.roll_damage(weapon.damage, actor, dice, f"{actor.name} item damage")
        result = attacks.AttackResult(True, 0, damage, ())
        state, more = _disarm_after(state, command, result, dice)
        return state, (*events, *more)
    return _attack_resolve("tries to Disarm", None, _disarm_mods, None, _disarm_after)(
        state, command, dice)


_register("disarm", _disarm_check, _attack_describe("Disarm", None, _disarm_mods),
          _disarm_resolve)


# --- Finishing Move --------------------------------------------------------------------------


def _finish_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return [str(error.args[0])]
    lethal = weapon.name != "Unarmed"
    reason = maneuvers.finishing_move_refusal(
        target, adjacent=board.adjacent(actor, target), lethal_weapon=lethal,
        allow_at_range=bool(command.option("at_range", False)))
    if reason is None and target.has_condition("Dead"):
        reason = f"{target.name} is already dead"
    return [reason] if reason else []


def _finish_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    state = board.plain_condition(state, target.id, board.INCAPACITATED)
    state = board.plain_condition(state, target.id, "Dead")
    return state, (Event(EventKind.DAMAGE, f"{actor.name} finishes {target.name} "
                         "(Finishing Move).", (actor.id, target.id)),)


_register("finishing_move", _finish_check, _simple("Finishing Move"), _finish_resolve)


# --- Grappling ------------------------------------------------------------------------------


def _grapple_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    if not board.adjacent(actor, target):
        return [f"{target.name} is not within reach"]
    if target.has_condition(SWCondition.BOUND):
        return [f"{target.name} is already Bound"]
    size = opp.size_refusal("Grapple", board.stat_int(actor, "size"),
                            board.stat_int(target, "size"))
    return [size] if size else []


def _grapple_mods(state: EncounterState, actor: Token, target: Token) -> list[Modifier]:
    mods = attacks.common_modifiers(state, actor, target)
    scale = opp.grapple_scale_penalty(board.stat_int(actor, "scale"),
                                      board.stat_int(target, "scale"))
    if scale:
        mods.append(Modifier("Size Matters", scale))
    gang = board.gang_up(state, actor, target)
    if gang:
        mods.append(Modifier("Gang Up", gang))
    return mods


def _grapple_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return Preview(command, False, summary=f"Grapple: {error}")
    mods = _grapple_mods(state, actor, target)
    return Preview(command, True, summary=f"Grapple: {actor.name} Athletics "
                   f"{sum(m.value for m in mods):+d} against {target.name}'s Athletics; a win "
                   "Entangles, a raise Binds.", modifiers=tuple(mods), targets=(target.id,),
                   rolls=("athletics", "target athletics"), cost="1 action")


def _opposed_rolls(state: EncounterState, actor: Token, target: Token, skill: str,
                   resist: str, mods: list[Modifier], dice: Dice, label: str,
                   ) -> tuple[int, int, list[Event]]:
    die, untrained = board.trait_die(actor, skill)
    mine = trait_roll(die, dice, modifier=sum(m.value for m in mods) + untrained,
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} {label}")
    tdie, tuntrained = board.trait_die(target, resist)
    theirs = trait_roll(tdie, dice, modifier=tuntrained + cond.trait_modifier(target)
                        + board.wound_penalty(target),
                        wild_card=board.is_wild_card(target), purpose=f"{target.name} resists")
    text = f"{label}: {actor.name} {mine} against {target.name} {theirs}."
    return mine.total, theirs.total, [Event(EventKind.ROLL, text, (actor.id, target.id))]


def _grapple_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    mods = _grapple_mods(state, actor, target)
    mine, theirs, events = _opposed_rolls(state, actor, target, "athletics", "athletics", mods,
                                          dice, "Grapple")
    result = opp.grapple(mine, theirs, defender_entangled=target.has_condition(
        SWCondition.ENTANGLED))
    if result.defender is None:
        events.append(Event(EventKind.NOTE, f"{target.name} slips the grapple.", (target.id,)))
        return state, tuple(events)
    state = board.remove_condition(state, target.id, SWCondition.ENTANGLED)
    state, more = board.add_condition(state, target.id, result.defender, source=actor.id)
    events.extend(more)
    if result.grappler_vulnerable:
        token = state.token(actor.id)
        state = board.put(state, cond.with_condition(token, Condition(
            SWCondition.VULNERABLE, None, f"holding {target.id}")))
        events.append(Event(EventKind.CONDITION, f"{actor.name} is Vulnerable while holding "
                            f"{target.name} Bound.", (actor.id,)))
    return state, tuple(events)


_register("grapple", _grapple_check, _grapple_describe, _grapple_resolve)


def _held_by(target: Token, grappler: str) -> bool:
    return any(c.name in (SWCondition.ENTANGLED, SWCondition.BOUND) and c.source == grappler
               for c in target.conditions)


def _crush_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    target = target_of(state, command)
    held = _held_by(target, str(command.actor))
    reason = opp.crush_refusal(held, False)
    return [reason] if reason else []


def _crush_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    die, _ = board.trait_die(actor, "strength")
    mods = attacks.common_modifiers(state, actor, target)
    roll = trait_roll(die, dice, modifier=sum(m.value for m in mods),
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} Crush")
    state, events = attacks.apply_damage(state, target.id, roll.total)
    return state, (Event(EventKind.ATTACK, f"{actor.name} crushes {target.name}: {roll} (Crush).",
                         (actor.id, target.id)), *events)


_register("crush", _crush_check, _simple("Crush"), _crush_resolve)


def _break_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not (actor.has_condition(SWCondition.ENTANGLED) or actor.has_condition(SWCondition.BOUND)):
        return [f"{actor.name} is not held"]
    return []


def _break_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    now = SWCondition.BOUND if actor.has_condition(SWCondition.BOUND) else SWCondition.ENTANGLED
    die, untrained = board.trait_die(actor, "athletics")
    mods = sum(m.value for m in attacks.own_modifiers(state, actor))
    roll = trait_roll(die, dice, modifier=mods + untrained, wild_card=board.is_wild_card(actor),
                      purpose=f"{actor.name} breaks free")
    after = opp.break_free(roll.total, now)
    grappler = next((c.source for c in actor.conditions if c.name == now), None)
    state = board.remove_condition(state, actor.id, now)
    events = [Event(EventKind.ROLL, f"{actor.name} struggles: {roll}.", (actor.id,))]
    if after is not None:
        state, more = board.add_condition(state, actor.id, after, source=grappler)
        events.extend(more)
    else:
        events.append(Event(EventKind.CONDITION, f"{actor.name} breaks free.", (actor.id,)))
    if after is not SWCondition.BOUND and grappler:
        grip = state.token(grappler) if any(t.id == grappler for t in state.tokens) else None
        if grip is not None:
            kept = tuple(c for c in grip.conditions if c.source != f"holding {actor.id}")
            state = board.put(state, replace(grip, conditions=kept))
    return state, tuple(events)


_register("break_free", _break_check, _simple("Break Free"), _break_resolve)


# --- Push ------------------------------------------------------------------------------------


def _push_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _grapple_check(state, command) if command.target else ["choose a target"]
    return [r.replace("Grapple", "Push") for r in reasons if "Bound" not in r]


def _push_mods(state: EncounterState, actor: Token, target: Token) -> list[Modifier]:
    mods = attacks.common_modifiers(state, actor, target)
    ran = float(board.data(state, actor.id, "moved_inches", 0))
    run_bonus = opp.push_total_modifier(ran_inches=ran,
                                        shield_parry=board.stat_int(actor, "shield_parry"))
    if run_bonus:
        mods.append(Modifier("Push run-up / shield", run_bonus))
    return mods


def _push_squares(state: EncounterState, actor: Token, target: Token, inches: int,
                  ) -> list[Square]:
    """Squares the target is shoved through, straight away from the pusher, until blocked."""
    dx = (target.square.x > actor.square.x) - (target.square.x < actor.square.x)
    dy = (target.square.y > actor.square.y) - (target.square.y < actor.square.y)
    steps = int(inches / state.scale.square_size)
    path: list[Square] = []
    here = target.square
    for _ in range(steps):
        nxt = here.offset(dx, dy)
        problems, _ = movement.path_problems(state, target.id, (*path, nxt))
        if problems:
            break
        path.append(nxt)
        here = nxt
    return path


def _push_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return Preview(command, False, summary=f"Push: {error}")
    mods = _push_mods(state, actor, target)
    reach = _push_squares(state, actor, target, 2)
    return Preview(command, True, summary=f"Push: {actor.name} Strength "
                   f"{sum(m.value for m in mods):+d} against {target.name}'s Strength; "
                   "1\" back on a win, 2\" on a raise, then Athletics or prone.",
                   modifiers=tuple(mods), targets=(target.id,),
                   squares=tuple(reach),
                   rolls=("strength", "target strength", "target athletics"), cost="1 action")


def _push_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    mods = _push_mods(state, actor, target)
    skill = "athletics" if command.option("skill") == "athletics" else "strength"
    mine, theirs, events = _opposed_rolls(state, actor, target, skill, "strength", mods, dice,
                                          "Push")
    larger = board.stat_int(actor, "scale") > board.stat_int(target, "scale")
    result = opp.push(mine, theirs, attacker_larger=larger)
    if not result.distance_inches:
        events.append(Event(EventKind.NOTE, f"{target.name} stands firm.", (target.id,)))
        return state, tuple(events)
    path = _push_squares(state, actor, target, result.distance_inches)
    if path:
        state = board.put(state, state.token(target.id).moved_to(path[-1]))
    events.append(Event(EventKind.MOVE, f"{target.name} is pushed {len(path)} square(s) "
                        f"(Push, {result.distance_inches}\").", (target.id,)))
    die, untrained = board.trait_die(target, "athletics")
    check = trait_roll(die, dice, modifier=int(result.prone_check_modifier or 0) + untrained,
                       wild_card=board.is_wild_card(target), purpose=f"{target.name} keeps footing")
    if opp.pushed_falls_prone(check.total):
        state, more = board.add_condition(state, target.id, SWCondition.PRONE)
        events.extend(more)
    else:
        events.append(Event(EventKind.ROLL, f"{target.name} keeps footing ({check}).",
                            (target.id,)))
    return state, tuple(events)


_register("push", _push_check, _push_describe, _push_resolve)


# --- Support and Test ------------------------------------------------------------------------


def _support_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    from engine.tokens import are_opponents
    if are_opponents(actor.side, target.side):
        return ["Support helps an ally; to hinder a foe use Test"]
    return []


def _support_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    trait = str(command.option("trait", "fighting"))
    skill = str(command.option("skill", trait))
    die, untrained = board.trait_die(actor, skill)
    own = sum(m.value for m in attacks.own_modifiers(state, actor))
    roll = trait_roll(die, dice, modifier=untrained + own, wild_card=board.is_wild_card(actor),
                      purpose=f"{actor.name} Support")
    bonus = opp.support_bonus(roll.total, critical_failure=roll.critical_failure)
    existing = [c.value for c in target.conditions
                if c.name == SWCondition.SUPPORTED and c.source == trait]
    total = opp.total_support([*existing, bonus], strength=trait == "strength")
    kept = tuple(c for c in target.conditions
                 if not (c.name == SWCondition.SUPPORTED and c.source == trait))
    acted = state.combat.has(target.id) and state.combat.combatant(target.id).acted
    new = cond.condition(SWCondition.SUPPORTED, state.combat.round, target.id, acted,
                         value=total, source=trait)
    state = board.put(state, replace(target, conditions=(*kept, new)))
    return state, (Event(EventKind.ROLL, f"{actor.name} supports {target.name}'s {trait}: {roll} "
                         f"gives {bonus:+d}, {total:+d} in all (Support).",
                         (actor.id, target.id)),)


_register("support", _support_check, _simple("Support"), _support_resolve)


def _test_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    skill = str(command.option("skill", "taunt")).lower()
    attribute = opp.TEST_RESISTED_BY.get(skill.title(), "Agility").lower()
    effect = opp.SWTestEffect(str(command.option("effect", "Distracted")).title())
    mods = attacks.common_modifiers(state, actor, target)
    mine, theirs, events = _opposed_rolls(state, actor, target, skill, attribute, mods, dice,
                                          f"Test ({skill} against {attribute})")
    result = opp.resolve_test(mine, theirs, effect)
    for name in result.conditions:
        state, more = board.add_condition(state, target.id, name, source=actor.id)
        events.extend(more)
    if not result.conditions:
        events.append(Event(EventKind.NOTE, f"{target.name} is unfazed.", (target.id,)))
    return state, tuple(events)


def _test_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    try:
        opp.SWTestEffect(str(command.option("effect", "Distracted")).title())
    except ValueError:
        return ["a Test leaves the foe Distracted or Vulnerable"]
    return []


_register("test", _test_check, _simple("Test"), _test_resolve)


# --- Aim and Defend ----------------------------------------------------------------------------


def _aim_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _target_reasons(state, command)
    if reasons:
        return reasons
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError as error:
        return [str(error.args[0])]
    reason = maneuvers.aim_refusal(
        moved_this_turn=int(board.data(state, actor.id, "moved_inches", 0)) > 0,
        acted_this_turn=int(board.data(state, actor.id, "actions_taken", 0)) > 0,
        ranged=not weapon.melee)
    return [reason] if reason else []


def _aim_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    choice = 2 if str(command.option("choice", "ignore")) in ("+2", "plus_two", "2") else 1
    aim = cond.condition(SWCondition.AIMING, state.combat.round, actor.id, True, value=choice,
                         source=target.id)
    state = board.put(state, cond.with_condition(actor, aim))
    words = "+2" if choice == 2 else "up to 4 points of penalties ignored"
    return state, (Event(EventKind.ACTION, f"{actor.name} takes aim at {target.name} (Aim: "
                         f"{words} on the first action next turn).", (actor.id, target.id)),)


_register("aim", _aim_check, _simple("Aim"), _aim_resolve)


def _defend_check(state: EncounterState, command: Command) -> list[str]:
    reason = maneuvers.defend_refusal(
        int(board.data(state, str(command.actor), "actions_taken", 0)) > 0,
        bool(board.data(state, str(command.actor), "ran", False)))
    return [reason] if reason else []


def _defend_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = board.set_data(state, actor.id, defending=True)
    state, events = board.add_condition(state, actor.id, SWCondition.DEFENDING)
    return state, tuple(events)


_register("defend", _defend_check, _simple("Defend"), _defend_resolve)


# --- Suppressive Fire ------------------------------------------------------------------------


def blast_area(state: EncounterState, command: Command) -> TemplateResult:
    return templates.blast(state, command.squares[0].centre, "medium")


def _suppress_targets(state: EncounterState, command: Command) -> list[Token]:
    touched = set(blast_area(state, command).token_ids())
    return [t for t in state.tokens if t.id != command.actor and t.id in touched
            and not board.out_of_fight(t)]


def _suppress_check(state: EncounterState, command: Command) -> list[str]:
    if len(command.squares) != 1:
        return ["Suppressive Fire needs the square at the centre of the template"]
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError as error:
        return [str(error.args[0])]
    reason = sup.refusal(weapon)
    if reason:
        return [reason]
    if not state.battlemap.in_bounds(command.squares[0]):
        return [f"{command.squares[0]} is off the map"]
    return []


def _suppress_plan(state: EncounterState, command: Command) -> list[Modifier]:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command, melee=False)
    centre = command.squares[0]
    inches = state.scale.distance(max(abs(centre.x - actor.square.x),
                                      abs(centre.y - actor.square.y)))
    mods = attacks.own_modifiers(state, actor)
    band = attacks.range_modifier(weapon, inches)
    if band is not None and band[0]:
        mods.append(Modifier(f"{band[1]} range", band[0]))
    mods.append(Modifier("Recoil", sup.recoil_modifier(
        recoil_negated=bool(command.option("recoil_negated", False)))))
    return mods


def _suppress_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor = actor_of(state, command)
        weapon = weapon_of(actor, command, melee=False)
        mods = _suppress_plan(state, command)
        area = blast_area(state, command)
    except (KeyError, IndexError) as error:
        return Preview(command, False, summary=f"Suppressive Fire: {error}")
    targets = tuple(t.id for t in _suppress_targets(state, command))
    return Preview(command, True, summary=f"Suppressive Fire: {actor.name} sprays a Medium Blast "
                   f"with {weapon.name}; Shooting {sum(m.value for m in mods):+d}; success "
                   f"Distracts, a raise hits (at most {weapon.rate_of_fire}).",
                   squares=tuple(sorted(area.squares)), shapes=(area.shape,),
                   targets=targets, notes=area.reasons,
                   modifiers=tuple(mods), shots=sup.bullets_needed(weapon),
                   rolls=("shooting", "damage per target hit"), cost="1 action")


def _target_cover(state: EncounterState, shooter: Token, target: Token) -> int | None:
    """Each target under the template counts its own cover from the shooter (None: total
    cover, the spray cannot reach it)."""
    try:
        found = attacks.cover_modifiers(state, shooter, target,
                                        board.inches_between(state, shooter, target))
    except attacks.AttackError:
        return None
    return sum(m.value for m in found)


def _suppress_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command, melee=False)
    mods = _suppress_plan(state, command)
    targets = _suppress_targets(state, command)
    spent = sup.bullets_needed(weapon)
    state = board.put(state, replace(actor, weapons=tuple(
        w.with_ammo(w.ammo - spent) if w.name == weapon.name and w.uses_ammunition else w
        for w in actor.weapons)))
    die, untrained = board.trait_die(actor, "shooting")
    roll = trait_roll(die, dice, modifier=sum(m.value for m in mods) + untrained,
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} Suppressive Fire")
    events: list[Event] = [Event(EventKind.ATTACK, f"{actor.name} lays down Suppressive Fire: "
                                 f"{roll}; {spent} rounds.", (actor.id,))]
    covers = {t.id: _target_cover(state, actor, t) for t in targets}
    per_target = {t.id: cond.modifier_against(t) + int(covers[t.id] or 0) for t in targets
                  if covers[t.id] is not None}
    result = sup.resolve(roll.total, per_target, weapon.rate_of_fire)
    for tid in result.distracted:
        state, more = board.add_condition(state, tid, SWCondition.DISTRACTED, source=actor.id)
        events.extend(more)
    for tid in result.hit:
        damage = attacks.roll_damage(weapon.damage, actor, dice, f"{actor.name} damage")
        state, more = attacks.apply_damage(state, tid, damage)
        events.extend(more)
    return state, tuple(events)


_register("suppressive_fire", _suppress_check, _suppress_describe, _suppress_resolve)


# --- Hold ------------------------------------------------------------------------------------


def _hold_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reason = hold.cannot_hold_reason(actor)
    if reason:
        return [reason]
    if int(board.data(state, actor.id, "actions_taken", 0)) > 0:
        return ["go on Hold before acting this turn"]
    return []


# Hold and Act from Hold change the turn order; the system resolves them (system.py).
def _turn_order_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    raise NotImplementedError("resolved by the Savage Worlds system")


def _act_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not hold.is_on_hold(actor):
        return [f"{actor.name} is not on Hold"]
    if state.combat.active == actor.id:
        return [f"it is already {actor.name}'s turn"]
    return []


_register("hold", _hold_check, _simple("Hold"), _turn_order_resolve)
_register("act_from_hold", _act_check, _simple("Act from Hold"), _turn_order_resolve)
