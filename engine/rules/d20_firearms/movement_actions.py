"""d20 firearms movement and items: Move (half speed while Aiming or suppressed), Draw or
Holster, Drop an Item, Reload.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.overlay import Overlay, OverlayToken, Role
from engine.routes import walk
from engine.rules import common
from engine.rules.base import Command, DragBand, Event, EventKind, Outcome, Preview
from engine.rules.common import actor_of, error_reasons
from engine.rules.d20_firearms import attack_math, board, tables
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.economy import MOST_MOVES, MOVE_COSTS, MOVES, Cost
from engine.rules.d20_firearms.fire_support_actions import (
    covering_fire_on_mover,
    covering_fire_threats,
)
from engine.rules.d20_firearms.handlers import (
    register,
    simple_describe,
    spend_rounds,
    two_weapons,
    weapon_of,
)
from engine.rules.d20_firearms.options import OPTIONS
from engine.rules.overlays import route_overlay
from engine.tokens import Token, Weapon
from engine.words import counted

#: The Move's option a suppressed mover ticks to move on through the fire (named in refusals).
_ACCEPT_FIRE = next(o for o in OPTIONS["move"] if o.name == "accept_fire")

# --- Move ------------------------------------------------------------------------------------


def speed_now(state: EncounterState, actor: Token, command: Command) -> float:
    speed = actor.speed
    if actor.has_condition(board.AIMING):
        speed = special.aiming_speed(speed)
    suppressed = board.condition(actor, board.SUPPRESSED)
    if suppressed is not None and not command.option("accept_fire", False):
        speed = min(speed, special.aiming_speed(actor.speed))
    return speed


def moves_of(command: Command) -> int:
    """How many movement actions the Move spends (option ``moves``, each up to the speed)."""
    moves = command.option(MOVES, 1)
    return moves if isinstance(moves, int) and moves in MOVE_COSTS else 1


def _move_cost(state: EncounterState, command: Command) -> Cost:
    return MOVE_COSTS[moves_of(command)]


def _moves_words(moves: int) -> str:
    return counted(moves, "move action")


def drag_bands(state: EncounterState, token_id: str, actions_left: int,
               disabled: bool) -> tuple[DragBand, ...]:
    """A drag's reach: a Move, then a double and a triple move while the round's pool holds
    the actions (a Disabled soldier has the one)."""
    actor = state.token(token_id)
    per_move = state.scale.squares(speed_now(state, actor, Command("move")))
    most = 1 if disabled else max(1, min(actions_left, MOST_MOVES))
    names = ("move", "double move", "triple move")
    return tuple(
        DragBand(names[moves - 1], per_move * moves, _moves_words(moves),
                 ((MOVES, moves),) if moves > 1 else ())
        for moves in range(1, most + 1))


def _move_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    reasons, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    if reasons:
        return reasons
    moves = moves_of(command)
    allowed = speed_now(state, actor, command) * moves
    if state.scale.distance(cost) > allowed:
        why = " (Aiming halves speed)" if actor.has_condition(board.AIMING) else ""
        if actor.has_condition(board.SUPPRESSED) and not command.option("accept_fire", False):
            why += f" (suppressed: half speed, or tick {_ACCEPT_FIRE.label})"
        spent = f" with {_moves_words(moves)}" if moves > 1 else ""
        return [f"the path is {state.scale.describe(cost)}; {actor.name} may move {allowed:g} "
                f"ft{spent}{why}"]
    return []


def _move_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    _, cost = walk.path_problems(
        state, actor.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    threats = _shots_drawn(state, actor, command)
    notes = tuple(f"{shooter.name} fires the {weapon} ({why})" for shooter, weapon, why in threats)
    rings = tuple(OverlayToken(shooter.id, Role.THREAT, note=f"fires the {weapon} ({why})")
                  for shooter, weapon, why in threats)
    route = route_overlay(state, actor.id, command.squares, state.scale.describe(cost))
    moves = moves_of(command)
    spent = f" ({_moves_words(moves)})" if moves > 1 else ""
    return Preview(command, True, summary=f"Move: {actor.name} moves "
                   f"{state.scale.describe(cost)}{spent}.", squares=command.squares, notes=notes,
                   targets=tuple(dict.fromkeys(shooter.id for shooter, _, _ in threats)),
                   overlay=route.plus(Overlay(tokens=rings)))


def _shots_drawn(state: EncounterState, actor: Token, command: Command,
                 ) -> list[tuple[Token, str, str]]:
    """(shooter, weapon, why) of each attack the move draws, as its resolution fires them:
    the suppressing shooter's when a suppressed mover accepts fire, then each Covering Fire
    whose cone the move enters."""
    found: list[tuple[Token, str, str]] = []
    suppressed = board.condition(actor, board.SUPPRESSED)
    if suppressed is not None and suppressed.source and command.option("accept_fire", False):
        shooter = next((t for t in state.tokens if t.id == suppressed.source), None)
        weapon = _suppressor_weapon(shooter) if shooter is not None else None
        if shooter is not None and weapon is not None:
            found.append((shooter, weapon.name, "Suppressive Fire: the mover accepts fire"))
    if command.squares:
        for shooter, cover_weapon in covering_fire_threats(state, actor.id, command.squares[-1]):
            if all(shooter.id != known.id for known, _, _ in found):
                found.append((shooter, cover_weapon.name, "Covering Fire: it enters the cone"))
    return found


def _move_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    events: list[Event] = []
    suppressed = board.condition(actor, board.SUPPRESSED)
    if suppressed is not None and suppressed.source and command.option("accept_fire", False):
        state, fired = _opportunity_fire(state, suppressed.source, actor.id, dice)
        events.extend(fired)
        if board.out_of_fight(state.token(actor.id)):
            return state, tuple(events)
    before = actor.square
    state = common.put(state, state.token(actor.id).moved_to(command.squares[-1]))
    moves = moves_of(command)
    spent = f" ({_moves_words(moves)})" if moves > 1 else ""
    events.append(Event(EventKind.MOVE, f"{actor.name} moves to {command.squares[-1]}{spent}.",
                        (actor.id,)))

    state, fired = covering_fire_on_mover(state, actor.id, before, dice)
    return state, (*events, *fired)


def _suppressor_weapon(shooter: Token) -> Weapon | None:
    """The ranged weapon with rounds left the suppressing shooter fires, if it still can."""
    if board.out_of_fight(shooter):
        return None
    return next((w for w in shooter.weapons if not w.melee and w.ammo > 0), None)


def _opportunity_fire(state: EncounterState, shooter_id: str, target_id: str, dice: Dice,
                      ) -> Outcome:
    """The suppressing shooter's attack on a suppressed mover who moves at full speed."""
    if not any(t.id == shooter_id for t in state.tokens):
        return state, ()
    shooter, target = state.token(shooter_id), state.token(target_id)
    weapon = _suppressor_weapon(shooter)
    if weapon is None:
        return state, (Event(EventKind.NOTE, f"{shooter.name} has no ammunition left to fire.",
                             (shooter_id,)),)
    try:
        plan = attack_math.plan_attack(state, shooter, target, weapon)
    except attack_math.AttackError as error:
        return state, (Event(EventKind.NOTE, f"{shooter.name} cannot fire: {error}",
                             (shooter_id,)),)
    state = spend_rounds(state, shooter_id, weapon, 1)
    return attack_math.roll_attack_outcome(state, shooter, target, plan, dice,
                                           "fires at the fleeing target (Suppressive Fire)")


register("move", _move_check, _move_describe, _move_resolve, cost=_move_cost)


# --- Items -------------------------------------------------------------------------------------


def _draw_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon_of(actor, command)
    except KeyError as error:
        return error_reasons(error)
    return []


def _draw_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    verb = "holsters" if weapon.drawn else "draws"
    weapons = tuple(replace(w, drawn=not w.drawn) if w is weapon else w for w in actor.weapons)
    state = common.put(state, replace(actor, weapons=weapons))
    return state, (Event(EventKind.ACTION, f"{actor.name} {verb} the {weapon.name}.",
                         (actor.id,)),)


register("draw_holster", _draw_check, simple_describe("Draw or Holster"), _draw_resolve)


def _drop_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    kept = list(actor.weapons)
    kept.remove(weapon)
    state = common.put(state, replace(actor, weapons=tuple(kept)))
    return state, (Event(EventKind.ACTION, f"{actor.name} drops the {weapon.name} "
                         "(no action).", (actor.id,)),)


register("drop_item", _draw_check, simple_describe("Drop an Item"), _drop_resolve)


def _reload_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return error_reasons(error)
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
        both.update(w.name for w in actor.weapons if w.drawn and not w.melee)
    state = common.put(state, replace(actor, weapons=tuple(
        w.with_ammo(w.capacity) if w.name in both and w.uses_ammunition else w
        for w in actor.weapons)))
    names = " and the ".join(sorted(both))
    return state, (Event(EventKind.AMMO, f"{actor.name} reloads the {names}.", (actor.id,)),)


register("reload", _reload_check, simple_describe("Reload"), _reload_resolve)
