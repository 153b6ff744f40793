"""Cities Without Number defence and movement: Screen an Ally, Total Defense, Run (with
its free attacks), Fighting Withdrawal, Stand Up, Go Prone and Hold an Action.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.overlay import Overlay, OverlayToken, Role
from engine.routes import walk
from engine.routes.graph import graph_for
from engine.routes.withdraw import run_free_attacks
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.cities_without_number import attack_math, board, movement, tables
from engine.rules.cities_without_number import combat_rules as rules
from engine.rules.cities_without_number.combat_state import dropped_at, store_dropped
from engine.rules.cities_without_number.economy import ActionType
from engine.rules.cities_without_number.handlers import (
    no_check,
    register,
    simple_describe,
)
from engine.rules.common import actor_of, error_reasons, target_of
from engine.rules.overlays import route_overlay
from engine.tokens import Token, Weapon, are_opponents

# --- Screen an Ally, Total Defense -------------------------------------------------------------


def _screen_check(state: EncounterState, command: Command) -> list[str]:
    try:
        actor, ward = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return error_reasons(error)
    if ward.id == actor.id or are_opponents(actor.side, ward.side):
        return ["Screen an Ally guards a friend"]
    if rules.screen_capacity(board.combat_skill(actor)) < 1:
        return [f"{actor.name} needs at least level-1 in a combat skill to screen"]
    if command.squares:
        reasons, cost = walk.path_problems(
            state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
        )
        if reasons:
            return reasons
        if state.scale.distance(cost) > movement.speed(actor):
            return [f"the move is longer than {actor.name}'s {movement.speed(actor):g} m"]
        standing = actor.moved_to(command.squares[-1])
    else:
        standing = actor
    if not common.adjacent(standing, ward):
        return [f"{actor.name} must end beside {ward.name}"]
    return []


def _screen_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, ward = actor_of(state, command), target_of(state, command)
    events: list[Event] = []
    if command.squares:
        state = common.put(state, actor.moved_to(command.squares[-1]))
        events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}.",
                            (actor.id,)))
    until = common.until_next_turn(state, actor.id)
    state, one = board.add_condition(state, actor.id, board.SCREENING, until, source=ward.id)
    state, two = board.add_condition(state, ward.id, board.SCREENED, until, source=actor.id)
    return state, (*events, one, two)


_screen_named = simple_describe("Screen an Ally")


def _screen_describe(state: EncounterState, command: Command) -> Preview:
    """The ward ringed and, when the screener first moves beside it, the route it walks."""
    preview = _screen_named(state, command)
    if not command.squares:
        return preview
    route = route_overlay(state, str(command.actor), command.squares)
    ward = Overlay(tokens=tuple(t for t in preview.overlay.tokens if t.role is not Role.ACTOR))
    return replace(preview, squares=command.squares, overlay=route.plus(ward))


register("screen_ally", _screen_check, _screen_describe, _screen_resolve)


def _total_defense_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state, event = board.add_condition(state, actor.id, board.TOTAL_DEFENSE,
                                       common.until_next_turn(state, actor.id))
    return state, (event,)


register("total_defense", no_check, simple_describe("Total Defense"), _total_defense_resolve)


# --- Run and Fighting Withdrawal ---------------------------------------------------------------


def _run_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reasons, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    if reasons:
        return reasons
    allowed = movement.speed(actor) * _moves(command)
    if state.scale.distance(cost) > allowed + 1e-9:
        return [f"the path is {state.scale.describe(cost)}; {actor.name} moves {allowed:g} m"
                + (" with two Moves" if _second(command) else "")
                + (" while prone" if actor.has_condition(board.PRONE) else "")]
    return []


def _second(command: Command) -> bool:
    return bool(command.option(movement.SECOND_MOVE, False))


def _moves(command: Command) -> int:
    return movement.SECOND_MOVE_TIMES if _second(command) else 1


def _run_cost(state: EncounterState, command: Command) -> ActionType | None:
    """A second Move spends the Main action with the Move; else the catalogue's Move."""
    return ActionType.MAIN_AND_MOVE if _second(command) else None


def _spent_words(command: Command) -> str:
    return " (the Move and the Main action)" if _second(command) else ""


def _free_attackers(state: EncounterState, actor: Token, command: Command,
                    ) -> list[tuple[Token, Weapon]]:
    """Adjacent armed melee foes who swing as the runner leaves: none after a Fighting
    Withdrawal, nor for movement from a hyper-accelerated bonus action (option
    ``hyper_accelerated``, e.g. an Enhanced Reflexes activation)."""
    if common.data(state, actor.id, "withdrew", False):
        return []
    if command.option("hyper_accelerated", False):
        return []
    found = []
    for free in run_free_attacks(graph_for(
        state, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    ), actor.id):
        enemy = state.token(free.attacker_id)
        if board.out_of_fight(enemy):
            continue
        found.append((enemy, enemy.weapon(free.weapon)))
    return found


def _run_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    _, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    free = _free_attackers(state, actor, command)
    notes = tuple(f"{enemy.name} gets a free attack with the {weapon.name} as {actor.name} "
                  "leaves" for enemy, weapon in free)
    threats = Overlay(tokens=tuple(OverlayToken(enemy.id, Role.THREAT, note=f"free attack with "
                                                f"the {weapon.name}") for enemy, weapon in free))
    return Preview(command, True, summary=f"Run: {actor.name} moves {state.scale.describe(cost)}"
                   f"{_spent_words(command)}.",
                   squares=command.squares, notes=notes,
                   targets=tuple(enemy.id for enemy, _ in free),
                   overlay=route_overlay(state, actor.id, command.squares,
                                         state.scale.describe(cost)).plus(threats))


def _run_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    events: list[Event] = []
    for enemy, weapon in _free_attackers(state, actor, command):
        runner = state.token(actor.id)
        if board.out_of_fight(runner):
            break
        plan = attack_math.plan_attack(state, enemy, runner, weapon)
        state, result = attack_math.roll_attack(state, enemy, runner, plan, dice,
                                                "takes a free swing (Run)")
        events.extend(result.events)
    if not board.out_of_fight(state.token(actor.id)):
        state = common.put(state, state.token(actor.id).moved_to(command.squares[-1]))
        events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}"
                            f"{_spent_words(command)}.", (actor.id,)))
    return state, tuple(events)


register("run", _run_check, _run_describe, _run_resolve, cost=_run_cost)


def _withdraw_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = common.set_data(state, actor.id, withdrew=True)
    return state, (Event(EventKind.ACTION, f"{actor.name} disengages (Fighting Withdrawal): "
                         "no free attacks on the way out this round.", (actor.id,)),)


register("fighting_withdrawal", no_check, simple_describe("Make a Fighting Withdrawal"),
          _withdraw_resolve)


# --- Stand Up, Go Prone, Hold ---------------------------------------------------------------------


def _stand_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [] if actor.has_condition(board.PRONE) else [f"{actor.name} is not prone"]


def _stand_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = common.remove_condition(state, actor.id, board.PRONE)
    events = [Event(EventKind.CONDITION, f"{actor.name} stands up.", (actor.id,))]
    items = dropped_at(state, actor.square)
    if items:
        state = store_dropped(state, actor.square, ())
        token = state.token(actor.id)
        state = common.put(state, token.taking(*items))
        events.append(Event(EventKind.ACTION, f"{actor.name} grabs "
                            f"{', '.join(w.name for w in items)} on the way up.", (actor.id,)))
    return state, tuple(events)


register("stand_up", _stand_check, simple_describe("Stand Up"), _stand_resolve)


def _prone_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [f"{actor.name} is already prone"] if actor.has_condition(board.PRONE) else []


def _prone_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    state, event = board.add_condition(state, str(command.actor), board.PRONE)
    return state, (event,)


register("go_prone", _prone_check, simple_describe("Go Prone"), _prone_resolve)


def _hold_check(state: EncounterState, command: Command) -> list[str]:
    if common.data(state, str(command.actor), "holding", False):
        return ["already holding"]
    return []


def _hold_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    raise NotImplementedError("the system resolves Hold an Action (it ends the turn)")


register("hold_action", _hold_check, simple_describe("Hold an Action"), _hold_resolve)
