"""Savage Worlds movement and whole-turn actions: Move (and run), Stand Up, Drop Prone,
Aim, Defend, and the Hold actions (which the system resolves).
"""

from __future__ import annotations

import math
from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.routes import walk
from engine.rules import common
from engine.rules.base import Command, DragBand, Event, EventKind, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.overlays import route_overlay
from engine.rules.savage_worlds import board, hold, maneuvers, tables
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.handlers import (
    register,
    simple_describe,
    target_of,
    target_reasons,
    weapon_of,
)
from engine.turns import order as turn_order

STAND_UP_INCHES = 2
RUN_DIE = "1d6"
#: The most the running die adds (its highest face): how far past Pace a run may be aimed.
RUN_DIE_MOST = 6

# --- Move, Stand Up, Go Prone ----------------------------------------------------------------


def pace_left(state: EncounterState, token_id: str) -> int:
    return state.combat.combatant(token_id).budget.get("pace", 0)


def _move_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not cond.can_move(actor):
        return [f"{actor.name} cannot move while "
                f"{', '.join(sorted(n for n in cond.active(actor) if not cond.RULES[n].can_move))}"]
    reasons, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    if reasons:
        return reasons
    inches = state.scale.distance(cost)
    if actor.has_condition(SWCondition.PRONE):
        return ["stand up first (2\" of Pace) or crawl as the GM allows"]
    run = bool(command.option("run", False))
    if run and common.data(state, actor.id, "defending", False):
        return ["a defender may move but not run (Defend)"]
    allowance = pace_left(state, actor.id) + (RUN_DIE_MOST if run and not _ran(state, actor.id)
                                              else 0)
    if inches > allowance:
        return [f"the path is {inches:g}\" and {actor.name} has {allowance:g}\" of Pace left"
                + (" (a run adds at most 6\")" if run else "")]
    return []


def _ran(state: EncounterState, token_id: str) -> bool:
    return bool(common.data(state, token_id, "ran", False))


def drag_bands(state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
    """A drag's reach: a Move within the Pace left, then a run up to the running die's best
    past it, while the token has not run this turn nor is Defending (a defender may not
    run). The run is rolled when the drag is dropped: a short roll stops the token on the
    route where the die lets it (``_move_resolve``), which the preview says beforehand."""
    pace = state.scale.squares(pace_left(state, token_id))
    bands = (DragBand("move", pace, "Pace"),)
    if _ran(state, token_id) or common.data(state, token_id, "defending", False):
        return bands
    return (*bands, DragBand("run", pace + state.scale.squares(RUN_DIE_MOST),
                             "Pace and the running die, -2 to actions this turn",
                             (("run", True),), f"the running die ({RUN_DIE})"))


def run_odds(state: EncounterState, token_id: str, inches: float) -> str:
    """What the running die must show for a run of ``inches`` to get there, or ""."""
    short = inches - pace_left(state, token_id)
    if short <= 0 or _ran(state, token_id):
        return ""
    needed = max(1, math.ceil(short))
    chance = round(100 * (RUN_DIE_MOST - needed + 1) / RUN_DIE_MOST)
    return f"the running die must show {needed} or more to get there ({chance}%)"


def _move_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    _, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    running = bool(command.option("run", False))
    run = " running (Running: -2 to actions this turn)" if running else ""
    odds = run_odds(state, actor.id, state.scale.distance(cost)) if running else ""
    return Preview(command, True, summary=f"Move: {actor.name}{run} walks "
                   f"{state.scale.describe(cost)}.", squares=command.squares,
                   notes=(odds,) if odds else (),
                   overlay=route_overlay(state, actor.id, command.squares,
                                         state.scale.describe(cost)),
                   cost=f"{state.scale.distance(cost):g}\" of Pace",
                   rolls=("running die d6",) if command.option("run", False) else ())


def _move_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    _, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    inches = int(state.scale.distance(cost))
    events: list[Event] = []
    mine = state.combat.combatant(actor.id)
    budget = dict(mine.budget)
    if command.option("run", False) and not _ran(state, actor.id):
        roll = dice.roll(RUN_DIE, f"{actor.name} running die")
        budget["pace"] = budget.get("pace", 0) + roll.total
        state = common.set_data(state, actor.id, ran=True)
        events.append(Event(EventKind.ROLL, f"{actor.name} runs: +{roll.total}\" of Pace.",
                            (actor.id,), roll))
        if inches > budget["pace"]:
            inches = budget["pace"]
            reach = _trim_path(state, actor.id, command.squares, inches)
            command = replace(command, squares=reach)
            events.append(Event(EventKind.NOTE, f"The running die falls short: {actor.name} "
                                f"stops after {inches}\".", (actor.id,)))
    mine = state.combat.combatant(actor.id)
    budget["pace"] = budget.get("pace", 0) - inches
    state = turn_order.update(state, replace(mine, budget=budget))
    moved = int(common.data(state, actor.id, "moved_inches", 0)) + inches
    state = common.set_data(state, actor.id, moved_inches=moved)
    if command.squares:
        state = common.put(state, state.token(actor.id).moved_to(command.squares[-1]))
        events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}.",
                            (actor.id,)))
    return state, tuple(events)


def _trim_path(state: EncounterState, token_id: str, path: tuple[Square, ...], inches: int,
               ) -> tuple[Square, ...]:
    kept: list[Square] = []
    for i in range(1, len(path) + 1):
        _, cost = walk.path_problems(
            state, token_id, path[:i], difficult_cost=tables.DIFFICULT_TERRAIN_COST
        )
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
    actor = actor_of(state, command)
    mine = state.combat.combatant(actor.id)
    budget = {**mine.budget, "pace": mine.budget.get("pace", 0) - STAND_UP_INCHES}
    state = turn_order.update(state, replace(mine, budget=budget))
    state = common.remove_condition(state, actor.id, SWCondition.PRONE)
    return state, (Event(EventKind.CONDITION, f"{actor.name} stands up.", (actor.id,)),)


def _prone_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [f"{actor.name} is already prone"] if actor.has_condition(SWCondition.PRONE) else []


def _prone_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    state, events = board.add_condition(state, str(command.actor), SWCondition.PRONE)
    return state, tuple(events)




register("move", _move_check, _move_describe, _move_resolve)
register("stand_up", _stand_check, simple_describe("Stand Up"), _stand_resolve)
register("go_prone", _prone_check, simple_describe("Drop Prone"), _prone_resolve)

# --- Aim and Defend ----------------------------------------------------------------------------


def _aim_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError as error:
        return [str(error.args[0])]
    reason = maneuvers.aim_refusal(
        moved_this_turn=int(common.data(state, actor.id, "moved_inches", 0)) > 0,
        acted_this_turn=int(common.data(state, actor.id, "actions_taken", 0)) > 0,
        ranged=not weapon.melee)
    return [reason] if reason else []


def _aim_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    choice = 2 if str(command.option("choice", "ignore")) in ("+2", "plus_two", "2") else 1
    aim = cond.condition(SWCondition.AIMING, state.combat.round, actor.id, True, value=choice,
                         source=target.id)
    state = common.put(state, cond.with_condition(actor, aim))
    words = "+2" if choice == 2 else "up to 4 points of penalties ignored"
    return state, (Event(EventKind.ACTION, f"{actor.name} takes aim at {target.name} (Aim: "
                         f"{words} on the first action next turn).", (actor.id, target.id)),)


register("aim", _aim_check, simple_describe("Aim"), _aim_resolve)


def _defend_check(state: EncounterState, command: Command) -> list[str]:
    reason = maneuvers.defend_refusal(
        int(common.data(state, str(command.actor), "actions_taken", 0)) > 0,
        bool(common.data(state, str(command.actor), "ran", False)))
    return [reason] if reason else []


def _defend_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = common.set_data(state, actor.id, defending=True)
    state, events = board.add_condition(state, actor.id, SWCondition.DEFENDING)
    return state, tuple(events)


register("defend", _defend_check, simple_describe("Defend"), _defend_resolve)


# --- Hold ------------------------------------------------------------------------------------


def _hold_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reason = hold.cannot_hold_reason(actor)
    if reason:
        return [reason]
    if int(common.data(state, actor.id, "actions_taken", 0)) > 0:
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


register("hold", _hold_check, simple_describe("Hold"), _turn_order_resolve)
register("act_from_hold", _act_check, simple_describe("Act from Hold"), _turn_order_resolve,
         out_of_turn=True)
