"""Cities Without Number skills and items: Use a Skill, Ready or Stow, Reload, Drop and
Pick up an Item.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.cities_without_number import board
from engine.rules.cities_without_number import combat_rules as rules
from engine.rules.cities_without_number.combat_state import dropped_at, store_dropped
from engine.rules.cities_without_number.economy import ActionType
from engine.rules.cities_without_number.handlers import (
    DEFAULT_DIFFICULTY,
    SKILL_ROLL,
    no_check,
    register,
    simple_describe,
    weapon_of,
)
from engine.rules.common import Resolve, actor_of, error_reasons
from engine.rules.overlays import chosen_squares

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


register("use_skill", no_check, simple_describe("Use a Skill"), _skill_resolve)


# --- Items -----------------------------------------------------------------------------------



def _item_resolve(verb: str) -> Resolve:
    def resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = actor_of(state, command)
        item = str(command.option("item", command.weapon or "an item"))
        return state, (Event(EventKind.ACTION, f"{actor.name} {verb} {item}.", (actor.id,)),)
    return resolve


register("ready_item", no_check, simple_describe("Ready an Item"), _item_resolve("readies"))
register("stow_item", no_check, simple_describe("Stow an Item"), _item_resolve("stows"))


def _reload_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError as error:
        return error_reasons(error)
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
    state = common.put(state, replace(actor, weapons=tuple(
        w.with_ammo(w.capacity) if w.name == weapon.name else w for w in actor.weapons)))
    return state, (Event(EventKind.AMMO, f"{actor.name} reloads the {weapon.name} "
                         f"({reload_cost(state, command)}).", (actor.id,)),)


register("reload", _reload_check, simple_describe("Reload a Weapon"), _reload_resolve,
         cost=reload_cost)


def _drop_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if command.weapon is None:
        return ["name the item to drop"]
    try:
        actor.weapon(command.weapon)
    except KeyError as error:
        return error_reasons(error)
    return []


def _drop_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = actor.weapon(str(command.weapon))
    kept = list(actor.weapons)
    kept.remove(weapon)
    state = common.put(state, replace(actor, weapons=tuple(kept)))
    state = store_dropped(state, actor.square, (*dropped_at(state, actor.square), weapon))
    return state, (Event(EventKind.ACTION, f"{actor.name} drops the {weapon.name} at "
                         f"{actor.square}.", (actor.id,)),)


register("drop_item", _drop_check, simple_describe("Drop an Item"), _drop_resolve)


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
    index = next((i for i, w in enumerate(items) if w.name == wanted), 0)
    item = items[index]
    state = store_dropped(state, square, (*items[:index], *items[index + 1:]))
    state = common.put(state, actor.taking(item))
    return state, (Event(EventKind.ACTION, f"{actor.name} picks up the {item.name}, ready in "
                         "hand.", (actor.id,)),)


def _pick_describe(state: EncounterState, command: Command) -> Preview:
    """Names what lies on the chosen square and marks it on the map."""
    preview = simple_describe("Pick up an Item")(state, command)
    chosen = command.squares[:1]
    lying = ", ".join(w.name for w in dropped_at(state, chosen[0])) if chosen else ""
    return replace(preview, squares=chosen, overlay=chosen_squares(
        str(command.actor), chosen, f"pick up: {lying or 'nothing lies here'}"))


register("pick_up_item", _pick_check, _pick_describe, _pick_resolve)
