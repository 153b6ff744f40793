"""How each d20 firearms action is checked, previewed and resolved.

The system checks what every action shares (combat running, whose turn, the action
budget, weapons in hand); a handler here says what is special to its action.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.areas import covering_fire_area
from engine.geometry.cover import CoverLevel
from engine.geometry.los import has_line_of_sight, token_line_of_sight
from engine.geometry.results import TemplateResult
from engine.geometry.suppression import SuppressionArea, d20_suppressive_fire
from engine.grid import Square, distance_squares
from engine.routes.charge import ChargeOption
from engine.routes.charge import charge as charge_route
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.d20_firearms import attacks, board, movement
from engine.rules.d20_firearms import special_actions as special
from engine.rules.d20_firearms.budget import Cost, full_auto_steps
from engine.rules.d20_firearms.catalogue import action_spec
from engine.tokens import Token, Weapon

Check = Callable[[EncounterState, Command], list[str]]
Describe = Callable[[EncounterState, Command], Preview]
Resolve = Callable[[EncounterState, Command, Dice], Outcome]

REFLEX_ROLL = "1d20"
LOCATE_DC = 15


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


def actor_of(state: EncounterState, command: Command) -> Token:
    return state.token(str(command.actor))


def target_of(state: EncounterState, command: Command) -> Token:
    if command.target is None:
        raise KeyError("choose a target")
    target = state.token(command.target)
    if target.id == command.actor:
        raise KeyError("a token cannot target itself")
    return target


def weapon_of(actor: Token, command: Command) -> Weapon:
    if command.weapon is not None:
        return actor.weapon(command.weapon)
    if not actor.weapons:
        raise KeyError(f"{actor.name} carries no weapon")
    return actor.weapons[0]


def _errors(error: Exception) -> list[str]:
    return [str(error.args[0]) if error.args else str(error)]


def _simple(name: str) -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        actor = actor_of(state, command)
        return Preview(command, True, summary=f"{name}: {actor.name}. "
                       f"{action_spec(command.action).summary}", targets=command.targets)
    return describe


def _in_hand(actor: Token, weapon: Weapon) -> str | None:
    return None if weapon.name in board.drawn(actor) else f"draw the {weapon.name} first"


def rounds_per_action(weapon: Weapon) -> int:
    """Rounds one attack action spends (the weapon's rate of fire, at least 1)."""
    return max(1, weapon.rate_of_fire)


def spend_rounds(state: EncounterState, actor_id: str, weapon: Weapon, rounds: int,
                 ) -> EncounterState:
    if not weapon.uses_ammunition:
        return state
    actor = state.token(actor_id)
    return board.put(state, replace(actor, weapons=tuple(
        w.with_ammo(max(0, w.ammo - rounds)) if w.name == weapon.name else w
        for w in actor.weapons)))


def two_weapons(actor: Token) -> bool:
    ranged = [w for w in actor.weapons if w.name in board.drawn(actor) and not w.melee]
    return len(ranged) >= 2


def direction_to(actor: Token, square: tuple[int, int]) -> float:
    """Degrees clockwise from east (screen y grows down), from the actor's centre."""
    cx = actor.square.x + actor.size / 2
    cy = actor.square.y + actor.size / 2
    return math.degrees(math.atan2(square[1] + 0.5 - cy, square[0] + 0.5 - cx))


# --- Move ------------------------------------------------------------------------------------


def speed_now(state: EncounterState, actor: Token, command: Command) -> float:
    speed = actor.speed
    if actor.has_condition(board.AIMING):
        speed = special.aiming_speed(speed)
    suppressed = board.condition(actor, board.SUPPRESSED)
    if suppressed is not None and not command.option("accept_fire", False):
        speed = min(speed, special.aiming_speed(actor.speed))
    return speed


def _move_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reasons, cost = movement.path_problems(state, actor.id, command.squares)
    if reasons:
        return reasons
    allowed = speed_now(state, actor, command)
    if state.scale.distance(cost) > allowed:
        why = " (Aiming halves speed)" if actor.has_condition(board.AIMING) else ""
        if actor.has_condition(board.SUPPRESSED) and not command.option("accept_fire", False):
            why += " (suppressed: half speed, or accept_fire=true to draw fire)"
        return [f"the path is {state.scale.describe(cost)}; {actor.name} may move {allowed:g} "
                f"ft{why}"]
    return []


def _move_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    _, cost = movement.path_problems(state, actor.id, command.squares)
    return Preview(command, True, summary=f"Move: {actor.name} moves "
                   f"{state.scale.describe(cost)}.", squares=command.squares)


def _move_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    events: list[Event] = []
    suppressed = board.condition(actor, board.SUPPRESSED)
    if suppressed is not None and suppressed.source and command.option("accept_fire", False):
        state, fired = _opportunity_fire(state, suppressed.source, actor.id, dice)
        events.extend(fired)
        if board.out_of_fight(state.token(actor.id)):
            return state, tuple(events)
    state = board.put(state, state.token(actor.id).moved_to(command.squares[-1]))
    events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}.",
                        (actor.id,)))
    return state, tuple(events)


def _opportunity_fire(state: EncounterState, shooter_id: str, target_id: str, dice: Dice,
                      ) -> Outcome:
    """The suppressing shooter's attack on a suppressed mover who moves at full speed."""
    if not any(t.id == shooter_id for t in state.tokens):
        return state, ()
    shooter, target = state.token(shooter_id), state.token(target_id)
    weapon = next((w for w in shooter.weapons if not w.melee and w.ammo > 0), None)
    if weapon is None or board.out_of_fight(shooter):
        return state, (Event(EventKind.NOTE, f"{shooter.name} has no ammunition left to fire.",
                             (shooter_id,)),)
    try:
        plan = attacks.plan_attack(state, shooter, target, weapon)
    except attacks.AttackError as error:
        return state, (Event(EventKind.NOTE, f"{shooter.name} cannot fire: {error}",
                             (shooter_id,)),)
    state = spend_rounds(state, shooter_id, weapon, 1)
    return attacks.roll_attack_outcome(state, shooter, target, plan, dice,
                                       "fires at the fleeing target (Suppressive Fire)")


_register("move", _move_check, _move_describe, _move_resolve)


# --- Attack and Full-Auto --------------------------------------------------------------------


def _attack_plan(state: EncounterState, command: Command, *, step: int = 1,
                 blind: bool = False, extra: tuple[Modifier, ...] = ()
                 ) -> tuple[Token, Token, Weapon, attacks.AttackPlan]:
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command)
    reason = _in_hand(actor, weapon)
    if reason:
        raise attacks.AttackError(reason)
    plan = attacks.plan_attack(state, actor, target, weapon, recoil_step=step, blind=blind,
                               extra=extra)
    return actor, target, weapon, plan


def _ammo_reason(weapon: Weapon, rounds: int) -> list[str]:
    if weapon.uses_ammunition and weapon.ammo < rounds:
        return [f"the {weapon.name} has {weapon.ammo} rounds; this needs {rounds}"]
    return []


def _attack_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, _, weapon, _ = _attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    return _ammo_reason(weapon, 1)


def _attack_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, weapon, plan = _attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Attack: {error}")
    return Preview(command, True, summary=f"Attack: {actor.name} with the {weapon.name} at "
                   f"{target.name}, 1d20{plan.bonus:+d} against Defense {plan.defense}; "
                   f"threat {plan.threat}-20.", targets=(target.id,), modifiers=plan.modifiers,
                   shots=1 if weapon.uses_ammunition else 0,
                   rolls=(f"attack 1d20{plan.bonus:+d}", f"damage {weapon.damage}"))


def _attack_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, weapon, plan = _attack_plan(state, command)
    state = spend_rounds(state, actor.id, weapon, 1)
    state = board.remove_condition(state, actor.id, board.OVERWATCH)
    state, result = attacks.roll_attack(state, actor, target, plan, dice, "attacks")
    return state, result.events


_register("attack", _attack_check, _attack_describe, _attack_resolve)


def _full_auto_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, _, weapon, _ = _attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    if not special.is_automatic(weapon):
        return [f"the {weapon.name} cannot fire full-auto"]
    return _ammo_reason(weapon, 3 * rounds_per_action(weapon))


def _full_auto_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, weapon, _ = _attack_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Full-Auto Fire: {error}")
    steps = full_auto_steps(special.weapon_recoil(weapon))
    penalties = ", ".join(str(s.recoil_penalty) for s in steps)
    return Preview(command, True, summary=f"Full-Auto Fire: {actor.name} empties three attack "
                   f"actions at {target.name}, recoil {penalties}.", targets=(target.id,),
                   shots=3 * rounds_per_action(weapon), rolls=("attack", "attack", "attack"))


def _full_auto_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, weapon, _ = _attack_plan(state, command)
    events: list[Event] = []
    for step in (1, 2, 3):
        target = state.token(target.id)
        state = spend_rounds(state, actor.id, weapon, rounds_per_action(weapon))
        try:
            plan = attacks.plan_attack(state, state.token(actor.id), target, weapon,
                                       recoil_step=step)
        except attacks.AttackError as error:
            events.append(Event(EventKind.NOTE, f"Attack action {step}: {error}", (actor.id,)))
            continue
        state, result = attacks.roll_attack(state, state.token(actor.id), target, plan, dice,
                                            f"fires full-auto ({step}x recoil)")
        events.extend(result.events)
    state = board.remove_condition(state, actor.id, board.OVERWATCH)
    return state, tuple(events)


_register("full_auto", _full_auto_check, _full_auto_describe, _full_auto_resolve)


# --- Aiming and Overwatch ---------------------------------------------------------------------


def aim_cost(state: EncounterState, command: Command) -> Cost:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError:
        return Cost.ONE
    return Cost.TWO if special.aiming_actions(weapon) == 2 else Cost.ONE


def _aim_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return _errors(error)
    if actor.has_condition(board.AIMING):
        return [f"{actor.name} is already Aiming"]
    reason = _in_hand(actor, weapon) or special.aiming_refusal(weapon,
                                                                two_weapons=two_weapons(actor))
    return [reason] if reason else []


def _aim_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    direction = direction_to(actor, command.squares[0]) if command.squares else 0.0
    area = None
    try:
        from engine.geometry.areas import aiming_area
        area = aiming_area(state, actor.id, direction)
    except (KeyError, ValueError):
        area = None
    return Preview(command, True, summary=f"Aiming: {actor.name} takes aim (+1 threat range, "
                   f"Perception +5 in the 60-ft cone, -5 outside, speed "
                   f"{special.aiming_speed(actor.speed)} ft).",
                   squares=tuple(sorted(area.squares)) if area else (),
                   shapes=(area.shape,) if area else ())


def _aim_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    state, event = board.add_condition(state, actor.id, board.AIMING, source=weapon.name)
    return state, (event,)


_register("aim", _aim_check, _aim_describe, _aim_resolve)


def _stop_aim_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [] if actor.has_condition(board.AIMING) else [f"{actor.name} is not Aiming"]


def _stop_aim_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = board.remove_condition(state, actor.id, board.AIMING)
    state = board.remove_condition(state, actor.id, board.OVERWATCH)
    return state, (Event(EventKind.CONDITION, f"{actor.name} stops Aiming.", (actor.id,)),)


_register("stop_aiming", _stop_aim_check, _simple("Stop Aiming"), _stop_aim_resolve)


def watched(state: EncounterState, command: Command) -> tuple[str, str, bool, float]:
    """(Overwatch key, words, in sight, distance in ft) for a watched token or square."""
    actor = actor_of(state, command)
    if command.target is not None:
        target = target_of(state, command)
        return (target.id, target.name, token_line_of_sight(state.battlemap, actor, target),
                board.feet_between(state, actor, target))
    if len(command.squares) != 1:
        raise KeyError("watch one target or one square")
    square = command.squares[0]
    sees = any(has_line_of_sight(state.battlemap, s, square) for s in actor.squares)
    distance = min(distance_squares(s, square, state.scale.diagonal) for s in actor.squares)
    return square_key(square), f"square {square}", sees, state.scale.distance(distance)


def square_key(square: Square) -> str:
    return f"square:{square.x},{square.y}"


def _overwatch_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        key, _, visible, distance = watched(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    aim = board.condition(actor, board.AIMING)
    weapon_name = aim.source if aim is not None and aim.source else None
    weapon = actor.weapon(weapon_name) if weapon_name else (actor.weapons[0] if actor.weapons
                                                            else None)
    if weapon is None:
        return [f"{actor.name} has no weapon"]
    reason = special.overwatch_refusal(
        weapon, aiming=aim is not None,
        target_unaware=not bool(command.option("target_aware", False)),
        target_visible=visible, distance_ft=distance)
    if reason:
        return [reason]
    current = board.condition(actor, board.OVERWATCH)
    spent = current.value if current is not None and current.source == key else 0
    if spent >= special.overwatch_cap(board.stat_int(actor, "int_mod")):
        return [f"Overwatch is at its limit of +{spent} (Intelligence x3)"]
    return []


def _overwatch_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    key, words, _, _ = watched(state, command)
    current = board.condition(actor, board.OVERWATCH)
    spent = current.value if current is not None and current.source == key else 0
    bonus = special.overwatch_bonus(spent + 1, board.stat_int(actor, "int_mod"))
    state, _ = board.add_condition(state, actor.id, board.OVERWATCH, source=key, value=bonus)
    return state, (Event(EventKind.CONDITION, f"{actor.name} watches {words}: threat range "
                         f"+{bonus} on the next shot (Overwatch).", (actor.id, *command.targets)),)


_register("overwatch", _overwatch_check, _simple("Overwatch"), _overwatch_resolve)


# --- Covering Fire ---------------------------------------------------------------------------


def _covering_actions(weapon: Weapon) -> int:
    return 3 if special.is_automatic(weapon) else 1


def _covering_area(state: EncounterState, command: Command) -> TemplateResult:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    return covering_fire_area(state, actor.id, direction_to(actor, command.squares[0]),
                              weapon.name)


def _covering_check(state: EncounterState, command: Command) -> list[str]:
    if len(command.squares) != 1:
        return ["aim the cone at one square"]
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return _errors(error)
    reason = _in_hand(actor, weapon) or special.covering_fire_refusal(weapon)
    if reason:
        return [reason]
    area = _covering_area(state, command)
    if not area.allowed:
        return list(area.reasons)
    return _ammo_reason(weapon, _covering_actions(weapon) * rounds_per_action(weapon))


def _covering_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor = actor_of(state, command)
        weapon = weapon_of(actor, command)
        area = _covering_area(state, command)
    except (KeyError, IndexError, ValueError) as error:
        return Preview(command, False, summary=f"Covering Fire: {error}")
    actions = _covering_actions(weapon)
    return Preview(command, True, summary=f"Covering Fire: {actor.name} sprays a "
                   f"{weapon.range_increment:g}-ft cone with {actions} attack action(s); each "
                   "foe inside can be hit once per action; after the first, Reflex DC 15 to "
                   "dive for cover.", squares=tuple(sorted(area.squares)), shapes=(area.shape,),
                   targets=area.token_ids(),
                   shots=actions * rounds_per_action(weapon))


def _covering_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    area = _covering_area(state, command)
    actions = _covering_actions(weapon)
    targets = [t for t in area.token_ids() if not board.out_of_fight(state.token(t))]
    events: list[Event] = []
    for step, hits in enumerate(special.covering_fire_hits(actions, tuple(targets)), start=1):
        state = spend_rounds(state, actor.id, weapon, rounds_per_action(weapon))
        for target_id in hits:
            target = state.token(target_id)
            if target.has_condition(board.TAKING_COVER) or board.out_of_fight(target):
                continue
            try:
                plan = attacks.plan_attack(state, state.token(actor.id), target, weapon,
                                           recoil_step=step)
            except attacks.AttackError as error:
                events.append(Event(EventKind.NOTE, f"{target.name}: {error}", (target_id,)))
                continue
            state, result = attacks.roll_attack(state, state.token(actor.id), target, plan,
                                                dice, f"lays down covering fire ({step})")
            events.extend(result.events)
        if step == 1:
            for target_id in targets:
                target = state.token(target_id)
                if board.out_of_fight(target):
                    continue
                save = dice.roll(f"{REFLEX_ROLL}{board.stat_int(target, 'reflex'):+d}",
                                 f"{target.name} Reflex against Covering Fire")
                if save.total >= special.COVERING_FIRE_REFLEX_DC:
                    reach = special.takes_cover_reach_ft(target.speed)
                    state, _ = board.add_condition(
                        state, target_id, board.TAKING_COVER,
                        board.until_next_turn(state, target_id))
                    events.append(Event(EventKind.ROLL, f"{target.name} saves ({save.total}) "
                                        f"and dives for cover within {reach:g} ft, or drops "
                                        "prone (Covering Fire).", (target_id,), save))
                else:
                    events.append(Event(EventKind.ROLL, f"{target.name} fails the save "
                                        f"({save.total}) and cannot react.", (target_id,), save))
    return state, tuple(events)


_register("covering_fire", _covering_check, _covering_describe, _covering_resolve)


# --- Suppressive Fire --------------------------------------------------------------------------


def _suppress_area(state: EncounterState, command: Command) -> SuppressionArea:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    return d20_suppressive_fire(state, actor.id, command.squares[0], weapon.name,
                                advanced_firearms_proficiency=bool(
                                    actor.stat("advanced_firearms", False)))


def _suppress_check(state: EncounterState, command: Command) -> list[str]:
    if len(command.squares) != 1:
        return ["choose the top-left square of the 10x10-ft area"]
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
        area = _suppress_area(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    reason = _in_hand(actor, weapon) or special.suppressive_refusal(weapon)
    if reason:
        return [reason]
    return list(area.reasons)


def _suppress_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor = actor_of(state, command)
        area = _suppress_area(state, command)
    except (KeyError, IndexError, ValueError) as error:
        return Preview(command, False, summary=f"Suppressive Fire: {error}")
    bonus = board.stat_int(actor, "ranged_attack") + special.suppressive_attack_modifier(
        bool(actor.stat("advanced_firearms", False)))
    return Preview(command, True, summary=f"Suppressive Fire: {actor.name} fires 10 rounds into "
                   f"the area, 1d20{bonus:+d} against Defense 10.",
                   squares=tuple(sorted(area.squares)), shapes=(area.shape,),
                   targets=tuple(t.token_id for t in area.tokens), shots=area.shots,
                   modifiers=tuple(Modifier(m.rule, m.value, m.applies_to) for m in area.attack),
                   rolls=("attack 1d20", "Reflex save per creature", "damage per failed save"))


def _suppress_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    area = _suppress_area(state, command)
    state = spend_rounds(state, actor.id, weapon, special.SUPPRESSIVE_ROUNDS)
    bonus = board.stat_int(actor, "ranged_attack") + special.suppressive_attack_modifier(
        bool(actor.stat("advanced_firearms", False)))
    roll = dice.roll(f"1d20{bonus:+d}", f"{actor.name} Suppressive Fire")
    hit = special.suppressive_hits_area(roll.total)
    events = [Event(EventKind.ATTACK, f"{actor.name} lays down Suppressive Fire: {roll.total} "
                    f"against Defense 10 - {'the area is suppressed' if hit else 'no effect'}.",
                    (actor.id,), roll)]
    if not hit:
        return state, tuple(events)
    for affected in area.tokens:
        target = state.token(affected.token_id)
        if board.out_of_fight(target):
            continue
        state, mark = board.add_condition(state, target.id, board.SUPPRESSED,
                                          board.until_end_of_next_turn(state, target.id),
                                          source=actor.id, value=1)
        events.append(mark)
        save = dice.roll(f"{REFLEX_ROLL}{board.stat_int(target, 'reflex'):+d}",
                         f"{target.name} Reflex against Suppressive Fire")
        if save.total >= special.SUPPRESSIVE_REFLEX_DC:
            events.append(Event(EventKind.ROLL, f"{target.name} saves ({save.total}).",
                                (target.id,), save))
            continue
        damage = dice.roll(weapon.damage, f"{target.name} suppressive damage")
        state, more = attacks.apply_damage(state, target.id, max(1, damage.total))
        events.append(Event(EventKind.ROLL, f"{target.name} fails the save ({save.total}).",
                            (target.id,), save))
        events.extend(more)
    return state, tuple(events)


_register("suppressive_fire", _suppress_check, _suppress_describe, _suppress_resolve)


# --- Blind-Fire and locating enemies -------------------------------------------------------------


def blind_cost(command: Command) -> Cost:
    return Cost.THREE if command.option("full_auto", False) else Cost.ONE


def _blind_check(state: EncounterState, command: Command) -> list[str]:
    try:
        actor, target, weapon, _ = _attack_plan(state, command, blind=True)
    except (KeyError, ValueError) as error:
        return _errors(error)
    cover = attacks.shooter_cover(state, actor, target)
    level = {CoverLevel.THREE_QUARTERS: special.BLIND_FIRE_COVER[0],
             CoverLevel.NEAR_TOTAL: special.BLIND_FIRE_COVER[1],
             CoverLevel.TOTAL: special.BLIND_FIRE_COVER[1]}.get(cover)
    reason = special.blind_fire_refusal(level)
    if reason:
        return [reason]
    shots = 3 if command.option("full_auto", False) else 1
    return _ammo_reason(weapon, shots * rounds_per_action(weapon))


def _blind_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, weapon, _ = _attack_plan(state, command, blind=True)
    actions = 3 if command.option("full_auto", False) else 1
    located = bool(board.data(state, actor.id, "located", False))
    split = special.blind_fire_shots(actions, located_enemies=located)
    events: list[Event] = []
    if split.at_empty_squares:
        events.append(Event(EventKind.NOTE, f"{split.at_empty_squares} of {actor.name}'s blind "
                            "shots go into empty squares (Blind-Fire).", (actor.id,)))
    for step in range(1, actions + 1):
        state = spend_rounds(state, actor.id, weapon, rounds_per_action(weapon))
        if step > split.at_enemies:
            continue
        try:
            plan = attacks.plan_attack(state, state.token(actor.id), state.token(target.id),
                                       weapon, recoil_step=step, blind=True)
        except attacks.AttackError as error:
            events.append(Event(EventKind.NOTE, str(error), (actor.id,)))
            continue
        state, result = attacks.roll_attack(state, state.token(actor.id), state.token(target.id),
                                            plan, dice, "fires")
        events.extend(result.events)
    return state, tuple(events)


_register("blind_fire", _blind_check, _simple("Blind-Fire"), _blind_resolve)


def locate_cost(state: EncounterState, command: Command) -> Cost:
    actor = actor_of(state, command)
    free = special.blind_fire_locate_actions(bool(actor.stat("quick_recon", False))) == 0
    return Cost.FREE if free else Cost.ONE


def _locate_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    dc = int(command.option("dc", LOCATE_DC) or LOCATE_DC)
    roll = dice.roll(f"1d20{board.stat_int(actor, 'perception'):+d}", f"{actor.name} Perception")
    located = roll.total >= dc
    state = board.set_data(state, actor.id, located=located)
    words = "places every enemy" if located else "cannot tell where the enemies are"
    return state, (Event(EventKind.ROLL, f"{actor.name} {words} ({roll.total} against {dc}).",
                         (actor.id,), roll),)


def _locate_check(state: EncounterState, command: Command) -> list[str]:
    return []


_register("locate_enemies", _locate_check, _simple("Locate Enemies"), _locate_resolve)


# --- Charge ----------------------------------------------------------------------------------


def _charge_option(state: EncounterState, command: Command) -> ChargeOption:
    actor, target = actor_of(state, command), target_of(state, command)
    return charge_route(movement.graph_for(state), actor.id, target.id, system=state.system)


def _melee_weapon(actor: Token, command: Command) -> Weapon:
    if command.weapon:
        weapon = actor.weapon(command.weapon)
        if not weapon.melee:
            raise KeyError(f"the {weapon.name} is not a melee weapon")
        return weapon
    return next((w for w in actor.weapons if w.melee), Weapon("Unarmed", "1d3", melee=True))


def _charge_plan(state: EncounterState, command: Command,
                 ) -> tuple[Token, Token, attacks.AttackPlan, ChargeOption]:
    actor, target = actor_of(state, command), target_of(state, command)
    option = _charge_option(state, command)
    weapon = _melee_weapon(actor, command)
    end = option.route.squares[-1] if option.route is not None else actor.square
    moved = board.put(state, actor.moved_to(end))
    plan = attacks.plan_attack(moved, moved.token(actor.id), target, weapon,
                               extra=(Modifier("Charge", special.CHARGE_ATTACK_BONUS),))
    return actor, target, plan, option


def _charge_check(state: EncounterState, command: Command) -> list[str]:
    try:
        option = _charge_option(state, command)
        if not option.allowed:
            return list(option.reasons) or ["cannot Charge"]
        _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    return []


def _charge_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, plan, option = _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Charge: {error}")
    squares = option.route.squares if option.route is not None else ()
    return Preview(command, True, summary=f"Charge: {actor.name} rushes {target.name} and "
                   f"attacks at +2 (1d20{plan.bonus:+d} against {plan.defense}); -2 Defense "
                   "until the next turn.", squares=squares, targets=(target.id,),
                   modifiers=plan.modifiers, notes=option.reasons)


def _charge_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, plan, option = _charge_plan(state, command)
    end = option.route.squares[-1] if option.route is not None else actor.square
    state = board.put(state, actor.moved_to(end))
    state, mark = board.add_condition(state, actor.id, board.CHARGING,
                                      board.until_next_turn(state, actor.id))
    moved = Event(EventKind.MOVE, f"{actor.name} charges to {end}.", (actor.id,))
    state, result = attacks.roll_attack(state, state.token(actor.id), target, plan, dice,
                                        "charges")
    return state, (moved, mark, *result.events)


_register("charge", _charge_check, _charge_describe, _charge_resolve)


# --- Two-Weapon Combat -----------------------------------------------------------------------


def _pair(actor: Token, command: Command) -> tuple[Weapon, Weapon]:
    first = weapon_of(actor, command)
    other = command.option("offhand")
    if other is None:
        second = next((w for w in actor.weapons if w.name != first.name and not w.melee
                       and w.name in board.drawn(actor)), None)
        if second is None:
            raise KeyError(f"{actor.name} has no second gun in hand")
        return first, second
    return first, actor.weapon(str(other))


def _strength_reason(actor: Token, weapon: Weapon) -> str | None:
    base = next((int(t[4:]) for t in weapon.traits if t.startswith("str:") and t[4:].isdigit()),
                None)
    if base is None:
        return None
    need = special.strength_requirement(base, two_weapons=True)
    have = board.stat_int(actor, "str_score", 10)
    return None if have >= need else (f"the {weapon.name} needs Strength {need} when firing two "
                                      f"guns; {actor.name} has {have}")


def _two_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        target = target_of(state, command)
        first, second = _pair(actor, command)
    except KeyError as error:
        return _errors(error)
    reason = special.two_weapon_refusal(first, second) or _in_hand(actor, first) or \
        _in_hand(actor, second) or _strength_reason(actor, first) or \
        _strength_reason(actor, second)
    if reason:
        return [reason]
    for weapon in (first, second):
        try:
            attacks.plan_attack(state, actor, target, weapon)
        except attacks.AttackError as error:
            return _errors(error)
        reasons = _ammo_reason(weapon, 1)
        if reasons:
            return reasons
    return []


def _two_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    events: list[Event] = []
    for weapon in _pair(actor, command):
        state = spend_rounds(state, actor.id, weapon, 1)
        try:
            plan = attacks.plan_attack(
                state, state.token(actor.id), state.token(target.id), weapon,
                extra=(Modifier("Two-Weapon Combat", special.TWO_WEAPON_PENALTY),))
        except attacks.AttackError as error:
            events.append(Event(EventKind.NOTE, str(error), (actor.id,)))
            continue
        state, result = attacks.roll_attack(state, state.token(actor.id),
                                            state.token(target.id), plan, dice,
                                            f"fires the {weapon.name}")
        events.extend(result.events)
    return state, tuple(events)


_register("two_weapon_attack", _two_check, _simple("Two-Weapon Combat"), _two_resolve)


# --- Items -------------------------------------------------------------------------------------


def _draw_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon_of(actor, command)
    except KeyError as error:
        return _errors(error)
    return []


def _draw_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    hand = board.drawn(actor)
    if weapon.name in hand:
        hand.remove(weapon.name)
        verb = "holsters"
    else:
        hand.append(weapon.name)
        verb = "draws"
    state = board.set_stat(state, actor.id, drawn=",".join(hand))
    return state, (Event(EventKind.ACTION, f"{actor.name} {verb} the {weapon.name}.",
                         (actor.id,)),)


_register("draw_holster", _draw_check, _simple("Draw or Holster"), _draw_resolve)


def _drop_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    kept = list(actor.weapons)
    kept.remove(weapon)
    state = board.put(state, replace(actor, weapons=tuple(kept)))
    hand = [n for n in board.drawn(actor) if n != weapon.name]
    if "drawn" in actor.stats:
        state = board.set_stat(state, actor.id, drawn=",".join(hand))
    return state, (Event(EventKind.ACTION, f"{actor.name} drops the {weapon.name} "
                         "(no action).", (actor.id,)),)


_register("drop_item", _draw_check, _simple("Drop an Item"), _drop_resolve)


def _reload_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return _errors(error)
    if not weapon.uses_ammunition:
        return [f"the {weapon.name} takes no ammunition"]
    if weapon.ammo >= weapon.capacity:
        return [f"the {weapon.name} is already full"]
    return []


def _reload_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    both = {weapon.name}
    if two_weapons(actor):
        both.update(w.name for w in actor.weapons if w.name in board.drawn(actor)
                    and not w.melee)
    state = board.put(state, replace(actor, weapons=tuple(
        w.with_ammo(w.capacity) if w.name in both and w.uses_ammunition else w
        for w in actor.weapons)))
    names = " and the ".join(sorted(both))
    return state, (Event(EventKind.AMMO, f"{actor.name} reloads the {names}.", (actor.id,)),)


_register("reload", _reload_check, _simple("Reload"), _reload_resolve)


def cost_of(state: EncounterState, command: Command) -> Cost:
    if command.action == "aim":
        return aim_cost(state, command)
    if command.action == "blind_fire":
        return blind_cost(command)
    if command.action == "locate_enemies":
        return locate_cost(state, command)
    return Cost(action_spec(command.action).time)
