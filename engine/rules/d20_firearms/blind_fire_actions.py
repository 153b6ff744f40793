"""d20 firearms Blind-Fire (at tokens or at squares) and the Perception check that locates
the enemies first.

A Blind-Fire command names tokens (``targets``), squares (``squares``) or both: the aim
points. Its shots (one per attack action; three with ``full_auto``) go round the aim points
in order (tokens first, then squares). Unless a Perception check located the enemies this
turn, half the shots (rounded down) go into empty squares instead. A shot at a square with
nobody in it is spent and logged as wasted; a token in the square (whoever it is: the
shooter cannot see) is attacked. Every blind attack has the 50% miss chance (a d100 first).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.cover import CoverLevel
from engine.grid import Square, distance_squares
from engine.overlay import Overlay, SquareMark
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.common import actor_of, error_reasons
from engine.rules.d20_firearms import attack_math, board
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.economy import Cost
from engine.rules.d20_firearms.handlers import (
    ammo_reason,
    in_hand,
    register,
    rounds_per_action,
    spend_rounds,
    weapon_of,
)
from engine.rules.overlays import target_overlay
from engine.tokens import Side, Token, Weapon
from engine.words import counted

#: An aim point: a token id or a square.
Aim = str | Square

_HEAVY_COVER = {CoverLevel.THREE_QUARTERS: special.BLIND_FIRE_COVER[0],
                CoverLevel.NEAR_TOTAL: special.BLIND_FIRE_COVER[1],
                CoverLevel.TOTAL: special.BLIND_FIRE_COVER[1]}


def blind_cost(command: Command) -> Cost:
    return Cost.THREE if command.option("full_auto", False) else Cost.ONE


@dataclass(frozen=True, slots=True)
class BlindPlan:
    """Where each blind shot goes: ``aimed`` in firing order, then ``stray`` into empty
    squares (enemies not located)."""

    actor: Token
    weapon: Weapon
    aimed: tuple[Aim, ...]
    stray: int

    @property
    def shots(self) -> int:
        return len(self.aimed) + self.stray


def _stand_in(square: Square) -> Token:
    """A one-square token standing for a targeted square, for the cover geometry."""
    return Token("__blind_square__", f"square {tuple(square)}", Side.NEUTRAL, square)


def occupant(state: EncounterState, square: Square, shooter_id: str) -> Token | None:
    """Whoever stands in the square, not the shooter (a Disabled or dying one too; a dead
    one is no target, and a shot at it is wasted)."""
    return next((t for t in state.tokens if square in t.squares and t.id != shooter_id
                 and not board.dead(t)), None)


def aim_points(command: Command) -> tuple[Aim, ...]:
    return (*command.targets, *command.squares)


def blind_plan(state: EncounterState, command: Command) -> BlindPlan:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    points = aim_points(command)
    if not points:
        raise KeyError("Blind-Fire needs a target or a square to fire at")
    actions = 3 if command.option("full_auto", False) else 1
    located = bool(common.data(state, actor.id, "located", False))
    split = special.blind_fire_shots(actions, located_enemies=located)
    aimed = tuple(points[i % len(points)] for i in range(split.at_enemies))
    return BlindPlan(actor, weapon, aimed, split.at_empty_squares)


def _point_reason(state: EncounterState, actor: Token, weapon: Weapon, point: Aim) -> str | None:
    if isinstance(point, str):
        if point == actor.id:
            return "a token cannot target itself"
        aimed_at = state.token(point)
    else:
        if not state.battlemap.in_bounds(point):
            return f"square {tuple(point)} is off the map"
        aimed_at = _stand_in(point)
        reach = min(distance_squares(s, point, state.scale.diagonal) for s in actor.squares)
        if state.scale.distance(reach) > weapon.range_increment * attack_math.MAX_INCREMENTS:
            return f"square {tuple(point)} is beyond ten range increments of the {weapon.name}"
    cover = attack_math.shooter_cover(state, actor, aimed_at)
    reason = special.blind_fire_refusal(_HEAVY_COVER.get(cover))
    return f"{reason} ({aimed_at.name})" if reason else None


def _blind_check(state: EncounterState, command: Command) -> list[str]:
    try:
        plan = blind_plan(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    reason = in_hand(plan.actor, plan.weapon)
    if reason:
        return [reason]
    for point in dict.fromkeys(aim_points(command)):
        reason = _point_reason(state, plan.actor, plan.weapon, point)
        if reason:
            return [reason]
        if isinstance(point, str):
            try:
                attack_math.plan_attack(state, plan.actor, state.token(point), plan.weapon,
                                        blind=True)
            except attack_math.AttackError as error:
                return error_reasons(error)
    return ammo_reason(plan.weapon, plan.shots * rounds_per_action(plan.weapon))


def _aimed_token(state: EncounterState, point: Aim, shooter_id: str) -> Token | None:
    return state.token(point) if isinstance(point, str) else occupant(state, point, shooter_id)


def _where(state: EncounterState, point: Aim, shooter_id: str) -> str:
    if isinstance(point, str):
        return state.token(point).name
    there = occupant(state, point, shooter_id)
    return f"square {tuple(point)} ({there.name + ' there' if there else 'empty now'})"


def _blind_describe(state: EncounterState, command: Command) -> Preview:
    plan = blind_plan(state, command)
    counts: dict[Aim, int] = {}
    for point in plan.aimed:
        counts[point] = counts.get(point, 0) + 1
    parts = [f"{n} at {_where(state, p, plan.actor.id)}" for p, n in counts.items()]
    if plan.stray:
        parts.append(f"{plan.stray} into empty squares (enemies not located)")
    rolls: list[str] = []
    targets: list[str] = []
    for point in plan.aimed:
        aimed_at = _aimed_token(state, point, plan.actor.id)
        if aimed_at is None:
            continue
        targets.append(aimed_at.id)
        try:
            bonus = attack_math.plan_attack(state, plan.actor, aimed_at, plan.weapon,
                                            blind=True).bonus
        except attack_math.AttackError:
            continue
        rolls += ["miss chance 1d100", f"attack 1d20{bonus:+d}", f"damage {plan.weapon.damage}"]
    ringed = tuple(dict.fromkeys(targets))
    blind_squares = Overlay(marks=tuple(SquareMark(p, f"blind shot x{n}")
                                        for p, n in counts.items() if not isinstance(p, str)))
    return Preview(command, True, summary=f"Blind-Fire: {plan.actor.name} fires "
                   f"{counted(plan.shots, 'shot')} blind: {', '.join(parts)}; each attack has a "
                   f"{special.BLIND_FIRE_MISS_CHANCE}% miss chance (1d100 of 1-50 misses).",
                   targets=ringed, squares=command.squares,
                   overlay=target_overlay(plan.actor.id, ringed).plus(blind_squares),
                   shots=plan.shots * rounds_per_action(plan.weapon), rolls=tuple(rolls),
                   notes=("Blind-Fire: no bonus from cover or Aiming, no penalty for "
                          "changing targets.",))


def _blind_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    plan = blind_plan(state, command)
    actor_id = plan.actor.id
    events: list[Event] = []
    if plan.stray:
        events.append(Event(EventKind.NOTE, f"{plan.stray} of {plan.actor.name}'s blind shots "
                            "go into empty squares (Blind-Fire).", (actor_id,)))
    for step, point in enumerate(plan.aimed, start=1):
        state = spend_rounds(state, actor_id, plan.weapon, rounds_per_action(plan.weapon))
        aimed_at = _aimed_token(state, point, actor_id)
        if aimed_at is None:
            events.append(Event(EventKind.NOTE, f"{plan.actor.name}'s blind shot into "
                                f"{_where(state, point, actor_id)} is wasted.", (actor_id,)))
            continue
        try:
            attack = attack_math.plan_attack(state, state.token(actor_id), aimed_at, plan.weapon,
                                             recoil_step=step, blind=True)
        except attack_math.AttackError as error:
            events.append(Event(EventKind.NOTE, str(error), (actor_id,)))
            continue
        state, result = attack_math.roll_attack(state, state.token(actor_id), aimed_at, attack,
                                                dice, "fires")
        events.extend(result.events)
    for _ in range(plan.stray):
        state = spend_rounds(state, actor_id, plan.weapon, rounds_per_action(plan.weapon))
    return state, tuple(events)


register("blind_fire", _blind_check, _blind_describe, _blind_resolve,
         cost=lambda state, command: blind_cost(command))
