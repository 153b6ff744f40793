"""How each Cities Without Number action is checked, previewed and resolved.

The system checks what every action shares (combat running, whose turn, the action
economy); a handler here says what is special to its action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pydantic

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.routes.charge import ChargeOption
from engine.routes.charge import charge as charge_route
from engine.routes.withdraw import run_free_attacks
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.cities_without_number import attacks, board, movement
from engine.rules.cities_without_number import combat_rules as rules
from engine.rules.cities_without_number.catalogue import action_spec, action_type
from engine.rules.cities_without_number.economy import ActionType
from engine.tokens import Token, Weapon, are_opponents

Check = Callable[[EncounterState, Command], list[str]]
Describe = Callable[[EncounterState, Command], Preview]
Resolve = Callable[[EncounterState, Command, Dice], Outcome]

SKILL_ROLL = "2d6"
DEFAULT_DIFFICULTY = 8
_WEAPONS = pydantic.TypeAdapter(list[Weapon])


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


def _errors(error: Exception) -> list[str]:
    return [str(error.args[0]) if error.args else str(error)]


def _simple(name: str) -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        actor = actor_of(state, command)
        return Preview(command, True, summary=f"{name}: {actor.name}. "
                       f"{action_spec(command.action).summary}", targets=command.targets)
    return describe


def _no_check(state: EncounterState, command: Command) -> list[str]:
    return []


# --- attacks ---------------------------------------------------------------------------------


Extras = Callable[[EncounterState, Command], list[Modifier]]


def _plan(state: EncounterState, command: Command, melee: bool | None,
          extra: Extras | None = None) -> tuple[Token, Token, attacks.AttackPlan]:
    actor, target = actor_of(state, command), target_of(state, command)
    if target.id == actor.id:
        raise attacks.AttackError("a token cannot attack itself")
    weapon = weapon_of(actor, command, melee=melee)
    if melee is True and not weapon.melee:
        raise attacks.AttackError(f"{weapon.name} is not a melee weapon")
    if melee is False and weapon.melee:
        raise attacks.AttackError(f"{weapon.name} is not a ranged weapon")
    if weapon.uses_ammunition and weapon.ammo < 1:
        raise attacks.AttackError(f"{actor.name}'s {weapon.name} is empty")
    plan = attacks.plan_attack(state, actor, target, weapon, extra(state, command) if extra
                               else ())
    return actor, target, plan


def attack_check(melee: bool | None, extra: Extras | None = None) -> Check:
    def check(state: EncounterState, command: Command) -> list[str]:
        try:
            _plan(state, command, melee, extra)
        except (KeyError, attacks.AttackError) as error:
            return _errors(error)
        return []
    return check


def attack_describe(name: str, melee: bool | None, extra: Extras | None = None,
                    note: str = "") -> Describe:
    def describe(state: EncounterState, command: Command) -> Preview:
        try:
            actor, target, plan = _plan(state, command, melee, extra)
        except (KeyError, attacks.AttackError) as error:
            return Preview(command, False, summary=f"{name}: {error}")
        to_hit = sum(m.value for m in plan.modifiers if m.applies_to != "AC")
        text = (f"{name}: {actor.name} with {plan.weapon.name} at {target.name}, 1d20{to_hit:+d} "
                f"against AC {plan.armour_class}; damage {plan.weapon.damage}"
                f"{plan.damage_bonus:+d}.")
        if note:
            text += " " + note
        return Preview(command, True, summary=text, targets=(target.id,),
                       modifiers=(*plan.modifiers, *plan.damage_modifiers),
                       shots=1 if plan.weapon.uses_ammunition else 0,
                       rolls=(f"attack 1d20{to_hit:+d}", f"damage {plan.weapon.damage}"))
    return describe


def spend_round(state: EncounterState, actor: Token, weapon: Weapon) -> EncounterState:
    if not weapon.uses_ammunition:
        return state
    return board.put(state, replace(state.token(actor.id), weapons=tuple(
        w.with_ammo(w.ammo - 1) if w.name == weapon.name else w for w in actor.weapons)))


def attack_resolve(label: str, melee: bool | None, extra: Extras | None = None) -> Resolve:
    def resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target, plan = _plan(state, command, melee, extra)
        state = spend_round(state, actor, plan.weapon)
        state, target, screen = attacks.resolve_screen(state, actor, target,
                                                       not plan.weapon.melee, dice)
        if screen:
            plan = attacks.plan_attack(state, actor, target, plan.weapon,
                                       extra(state, command) if extra else ())
        state, result = attacks.roll_attack(state, actor, target, plan, dice, label)
        return state, (*screen, *result.events)
    return resolve


_register("melee_attack", attack_check(True), attack_describe("Make a Melee Attack", True),
          attack_resolve("attacks", True))
_register("ranged_attack", attack_check(False), attack_describe("Make a Ranged Attack", False),
          attack_resolve("shoots", False))


def _snap(state: EncounterState, command: Command) -> list[Modifier]:
    return [Modifier("Snap Attack", rules.SNAP_ATTACK_PENALTY)]


def _snap_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not board.is_pc(actor) and not actor.stat(rules.DISCIPLINED_STAT, False):
        return [f"only well-drilled NPCs can Snap Attack; {actor.name} is not marked disciplined"]
    return attack_check(None, _snap)(state, command)


_register("snap_attack", _snap_check, attack_describe("Make a Snap Attack", None, _snap),
          attack_resolve("snaps off an attack", None, _snap))


# --- Swarm Attack ----------------------------------------------------------------------------


def swarm_key(target_id: str) -> str:
    return f"swarm:{target_id}"


def swarm_members(state: EncounterState, target_id: str) -> list[str]:
    text = str(state.combat.data.get(swarm_key(target_id), ""))
    return [m for m in text.split(",") if m]


def _swarm_bonus(state: EncounterState, command: Command) -> list[Modifier]:
    members = swarm_members(state, str(command.target))
    count = len({*members, str(command.actor)})
    bonus = rules.swarm_bonus(min(count, rules.SWARM_MAX_ASSAILANTS))
    return [Modifier("Swarm Attack", bonus.to_hit)] if bonus.to_hit else []


def _swarm_check(state: EncounterState, command: Command) -> list[str]:
    try:
        target = target_of(state, command)
    except KeyError as error:
        return _errors(error)
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
    what = "strikes now" if strike else "joins the swarm (strike=true to attack)"
    bonus = rules.swarm_bonus(min(count, rules.SWARM_MAX_ASSAILANTS))
    return replace(preview, summary=f"{preview.summary} Assailant {count} of at most "
                   f"{rules.SWARM_MAX_ASSAILANTS} {what}: +{bonus.to_hit} to hit, "
                   f"+{bonus.damage} damage.")


def _swarm_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    members = [*swarm_members(state, target.id), actor.id]
    strike = bool(command.option("strike", False)) or len(members) >= rules.SWARM_MAX_ASSAILANTS
    if not strike:
        state = board.set_combat_data(state, **{swarm_key(target.id): ",".join(members)})
        return state, (Event(EventKind.ACTION, f"{actor.name} joins the swarm on {target.name} "
                             f"({len(members)} assailants; Swarm Attack).",
                             (actor.id, target.id)),)
    _, _, plan = _plan(state, command, None, _swarm_bonus)
    bonus = rules.swarm_bonus(len(members))
    state = spend_round(state, actor, plan.weapon)
    state = board.set_combat_data(state, **{swarm_key(target.id): ""})
    state, result = attacks.roll_attack(state, actor, target, plan, dice,
                                        f"strikes with a swarm of {len(members)}", swarm=bonus)
    return state, result.events


_register("swarm_attack", _swarm_check, _swarm_describe, _swarm_resolve)


# --- Charge ----------------------------------------------------------------------------------


def _charge_option(
    state: EncounterState, command: Command
) -> tuple[Token, Token, Weapon, ChargeOption]:
    actor, target = actor_of(state, command), target_of(state, command)
    weapon = weapon_of(actor, command, melee=None if command.weapon else True)
    option = charge_route(movement.graph_for(state), actor.id, target.id, system=state.system)
    return actor, target, weapon, option


def _charge_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _, target, weapon, option = _charge_option(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    if not (weapon.melee or rules.is_thrown(weapon)):
        return [f"a Charge ends in a melee or thrown attack, and {weapon.name} is neither"]
    if not option.allowed:
        return list(option.reasons) or [f"cannot Charge {target.name}"]
    try:
        _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return _errors(error)
    return []


def _charge_plan(state: EncounterState, command: Command,
                 ) -> tuple[Token, Token, attacks.AttackPlan, tuple[Square, ...]]:
    actor, target, weapon, option = _charge_option(state, command)
    squares = option.route.squares if option.route is not None else ()
    moved = state
    if squares:
        moved = board.put(state, actor.moved_to(squares[-1]))
    plan = attacks.plan_attack(moved, moved.token(actor.id), target, weapon,
                               [Modifier("Charge", rules.CHARGE_TO_HIT)])
    return actor, target, plan, squares


def _charge_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target, plan, squares = _charge_plan(state, command)
    except (KeyError, ValueError) as error:
        return Preview(command, False, summary=f"Charge: {error}")
    return Preview(command, True, summary=f"Charge: {actor.name} runs {len(squares) - 1} squares "
                   f"at {target.name} and attacks at +2; -2 to both ACs until the round ends.",
                   squares=squares, targets=(target.id,), modifiers=plan.modifiers,
                   rolls=("attack 1d20", f"damage {plan.weapon.damage}"))


def _charge_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target, plan, squares = _charge_plan(state, command)
    if squares:
        state = board.put(state, state.token(actor.id).moved_to(squares[-1]))
    state, marked = board.add_condition(state, actor.id, board.CHARGING, board.end_of_round(state))
    moved = Event(EventKind.MOVE, f"{actor.name} charges to {squares[-1] if squares else '?'}.",
                  (actor.id,))
    state = spend_round(state, actor, plan.weapon)
    state, result = attacks.roll_attack(state, state.token(actor.id), target, plan, dice,
                                        "charges")
    return state, (moved, marked, *result.events)


_register("charge", _charge_check, _charge_describe, _charge_resolve)


# --- Screen an Ally, Total Defense -------------------------------------------------------------


def _screen_check(state: EncounterState, command: Command) -> list[str]:
    try:
        actor, ward = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return _errors(error)
    if ward.id == actor.id or are_opponents(actor.side, ward.side):
        return ["Screen an Ally guards a friend"]
    if rules.screen_capacity(board.combat_skill(actor)) < 1:
        return [f"{actor.name} needs at least level-1 in a combat skill to screen"]
    if command.squares:
        reasons, cost = movement.path_problems(state, actor.id, command.squares)
        if reasons:
            return reasons
        if state.scale.distance(cost) > movement.speed(actor):
            return [f"the move is longer than {actor.name}'s {movement.speed(actor):g} m"]
        standing = actor.moved_to(command.squares[-1])
    else:
        standing = actor
    if not board.adjacent(standing, ward):
        return [f"{actor.name} must end beside {ward.name}"]
    return []


def _screen_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, ward = actor_of(state, command), target_of(state, command)
    events: list[Event] = []
    if command.squares:
        state = board.put(state, actor.moved_to(command.squares[-1]))
        events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}.",
                            (actor.id,)))
    until = board.until_next_turn(state, actor.id)
    state, one = board.add_condition(state, actor.id, board.SCREENING, until, source=ward.id)
    state, two = board.add_condition(state, ward.id, board.SCREENED, until, source=actor.id)
    return state, (*events, one, two)


_register("screen_ally", _screen_check, _simple("Screen an Ally"), _screen_resolve)


def _total_defense_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state, event = board.add_condition(state, actor.id, board.TOTAL_DEFENSE,
                                       board.until_next_turn(state, actor.id))
    return state, (event,)


_register("total_defense", _no_check, _simple("Total Defense"), _total_defense_resolve)


# --- Run and Fighting Withdrawal ---------------------------------------------------------------


def _run_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reasons, cost = movement.path_problems(state, actor.id, command.squares)
    if reasons:
        return reasons
    allowed = movement.speed(actor)
    if state.scale.distance(cost) > allowed + 1e-9:
        return [f"the path is {state.scale.describe(cost)}; {actor.name} moves {allowed:g} m"
                + (" while prone" if actor.has_condition(board.PRONE) else "")]
    return []


def _free_attackers(state: EncounterState, actor: Token) -> list[tuple[Token, Weapon]]:
    if board.data(state, actor.id, "withdrew", False):
        return []
    found = []
    for free in run_free_attacks(movement.graph_for(state), actor.id):
        enemy = state.token(free.attacker_id)
        if board.out_of_fight(enemy):
            continue
        found.append((enemy, enemy.weapon(free.weapon)))
    return found


def _run_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    _, cost = movement.path_problems(state, actor.id, command.squares)
    free = _free_attackers(state, actor)
    notes = tuple(f"{enemy.name} gets a free attack with the {weapon.name} as {actor.name} "
                  "leaves" for enemy, weapon in free)
    return Preview(command, True, summary=f"Run: {actor.name} moves {state.scale.describe(cost)}.",
                   squares=command.squares, notes=notes,
                   targets=tuple(enemy.id for enemy, _ in free))


def _run_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    events: list[Event] = []
    for enemy, weapon in _free_attackers(state, actor):
        runner = state.token(actor.id)
        if board.out_of_fight(runner):
            break
        plan = attacks.plan_attack(state, enemy, runner, weapon)
        state, result = attacks.roll_attack(state, enemy, runner, plan, dice,
                                            "takes a free swing (Run)")
        events.extend(result.events)
    if not board.out_of_fight(state.token(actor.id)):
        state = board.put(state, state.token(actor.id).moved_to(command.squares[-1]))
        events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}.",
                            (actor.id,)))
    return state, tuple(events)


_register("run", _run_check, _run_describe, _run_resolve)


def _withdraw_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = board.set_data(state, actor.id, withdrew=True)
    return state, (Event(EventKind.ACTION, f"{actor.name} disengages (Fighting Withdrawal): "
                         "no free attacks on the way out this round.", (actor.id,)),)


_register("fighting_withdrawal", _no_check, _simple("Make a Fighting Withdrawal"),
          _withdraw_resolve)


# --- Use a Skill -----------------------------------------------------------------------------


def _skill_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    name = str(command.option("skill", "heal"))
    difficulty = int(command.option("difficulty", DEFAULT_DIFFICULTY) or DEFAULT_DIFFICULTY)
    bonus = board.skill(actor, name) + board.stat_int(actor, str(command.option("attribute",
                                                                              "int_mod")))
    roll = dice.roll(f"{SKILL_ROLL}{bonus:+d}", f"{actor.name} {name}")
    words = "succeeds" if roll.total >= difficulty else "fails"
    return state, (Event(EventKind.ROLL, f"{actor.name} uses {name.title()}: {roll.total} against "
                         f"difficulty {difficulty} - {words}.", (actor.id,), roll),)


_register("use_skill", _no_check, _simple("Use a Skill"), _skill_resolve)


# --- Items -----------------------------------------------------------------------------------


def dropped_key(square: Square) -> str:
    return f"dropped:{square.x},{square.y}"


def dropped_at(state: EncounterState, square: Square) -> list[Weapon]:
    text = str(state.combat.data.get(dropped_key(square), ""))
    return list(_WEAPONS.validate_json(text)) if text else []


def _store_dropped(state: EncounterState, square: Square, items: list[Weapon]) -> EncounterState:
    text = _WEAPONS.dump_json(items).decode() if items else ""
    return board.set_combat_data(state, **{dropped_key(square): text})


def _item_resolve(verb: str) -> Resolve:
    def resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = actor_of(state, command)
        item = str(command.option("item", command.weapon or "an item"))
        return state, (Event(EventKind.ACTION, f"{actor.name} {verb} {item}.", (actor.id,)),)
    return resolve


_register("ready_item", _no_check, _simple("Ready an Item"), _item_resolve("readies"))
_register("stow_item", _no_check, _simple("Stow an Item"), _item_resolve("stows"))


def _reload_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError as error:
        return _errors(error)
    if not weapon.uses_ammunition:
        return [f"{weapon.name} takes no ammunition"]
    if weapon.ammo >= weapon.capacity:
        return [f"{weapon.name} is already full"]
    return []


def reload_cost(state: EncounterState, command: Command) -> ActionType:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError:
        return ActionType.MAIN
    return rules.reload_cost(weapon, board.skill(actor, "shoot"))


def _reload_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command, melee=False)
    state = board.put(state, replace(actor, weapons=tuple(
        w.with_ammo(w.capacity) if w.name == weapon.name else w for w in actor.weapons)))
    return state, (Event(EventKind.AMMO, f"{actor.name} reloads the {weapon.name} "
                         f"({reload_cost(state, command)}).", (actor.id,)),)


_register("reload", _reload_check, _simple("Reload a Weapon"), _reload_resolve)


def _drop_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if command.weapon is None:
        return ["name the item to drop"]
    try:
        actor.weapon(command.weapon)
    except KeyError as error:
        return _errors(error)
    return []


def _drop_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = actor.weapon(str(command.weapon))
    kept = list(actor.weapons)
    kept.remove(weapon)
    state = board.put(state, replace(actor, weapons=tuple(kept)))
    state = _store_dropped(state, actor.square, [*dropped_at(state, actor.square), weapon])
    return state, (Event(EventKind.ACTION, f"{actor.name} drops the {weapon.name} at "
                         f"{actor.square}.", (actor.id,)),)


_register("drop_item", _drop_check, _simple("Drop an Item"), _drop_resolve)


def _pick_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if len(command.squares) != 1:
        return ["choose the square where the item lies"]
    square = command.squares[0]
    if not any(max(abs(square.x - s.x), abs(square.y - s.y)) <= 1 for s in actor.squares):
        return [f"{square} is not within reach"]
    if not dropped_at(state, square):
        return [f"nothing lies on {square}"]
    return []


def _pick_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    square = command.squares[0]
    items = dropped_at(state, square)
    wanted = str(command.option("item", items[0].name))
    item = next((w for w in items if w.name == wanted), items[0])
    items.remove(item)
    state = _store_dropped(state, square, items)
    state = board.put(state, replace(actor, weapons=(*actor.weapons, item)))
    return state, (Event(EventKind.ACTION, f"{actor.name} picks up the {item.name}, ready in "
                         "hand.", (actor.id,)),)


_register("pick_up_item", _pick_check, _simple("Pick up an Item"), _pick_resolve)


# --- Stand Up, Go Prone, Hold ---------------------------------------------------------------------


def _stand_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [] if actor.has_condition(board.PRONE) else [f"{actor.name} is not prone"]


def _stand_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = board.remove_condition(state, actor.id, board.PRONE)
    events = [Event(EventKind.CONDITION, f"{actor.name} stands up.", (actor.id,))]
    items = dropped_at(state, actor.square)
    if items:
        state = _store_dropped(state, actor.square, [])
        token = state.token(actor.id)
        state = board.put(state, replace(token, weapons=(*token.weapons, *items)))
        events.append(Event(EventKind.ACTION, f"{actor.name} grabs "
                            f"{', '.join(w.name for w in items)} on the way up.", (actor.id,)))
    return state, tuple(events)


_register("stand_up", _stand_check, _simple("Stand Up"), _stand_resolve)


def _prone_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [f"{actor.name} is already prone"] if actor.has_condition(board.PRONE) else []


def _prone_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    state, event = board.add_condition(state, str(command.actor), board.PRONE)
    return state, (event,)


_register("go_prone", _prone_check, _simple("Go Prone"), _prone_resolve)


def _hold_check(state: EncounterState, command: Command) -> list[str]:
    if board.data(state, str(command.actor), "holding", False):
        return ["already holding"]
    return []


def _hold_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    raise NotImplementedError("the system resolves Hold an Action (it ends the turn)")


_register("hold_action", _hold_check, _simple("Hold an Action"), _hold_resolve)


def cost_of(state: EncounterState, command: Command) -> ActionType:
    if command.action == "reload":
        return reload_cost(state, command)
    return action_type(command.action)
