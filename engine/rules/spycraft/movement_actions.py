"""Spycraft movement actions: Standard Move, the 5-ft step, Run, Withdraw, Bull Rush, Total
Defense, Crouch, Drop Prone, Stand Up, Feint, Tire."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.overlay import Overlay
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.overlays import approach_overlay, route_overlay
from engine.rules.spycraft import board, obstacles, tables
from engine.rules.spycraft.attack_actions import mark_attacked
from engine.rules.spycraft.attack_math import apply_damage
from engine.rules.spycraft.checks import (
    flat_footed_after_failure,
    lose_opposed_check,
    note_failed_check,
    opposed,
)
from engine.rules.spycraft.geometry_bridge import movement_graph, step_blocked
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.rules.spycraft.movement import (
    DOUBLE_MOVE,
    DOUBLE_MOVE_HALVES,
    move_token,
    path_cost,
    path_reasons,
    queue_terrain_fluid,
    speed_squares,
)
from engine.tokens import Token
from engine.turns.combat import Phase

if TYPE_CHECKING:  # engine.routes is imported by the actions that move along routes
    from engine.routes.push import BullRushApproach
    from engine.routes.run import RunAnswer

RUN_MULTIPLIER = 4
RUN_MULTIPLIER_FULL_ARMOR = 3
#: A Bull Rush may push an opponent at most this many Size categories bigger.
BULL_RUSH_BIGGER = 1
WITHDRAW_MULTIPLIER = 2
TOTAL_DEFENSE_BONUS = 4
POSTURES = (board.CROUCHED, board.PRONE, board.SPRAWLED)


@handles("standard_move")
class StandardMove(SpycraftHandler):
    """Up to the Speed for a half action; with ``double``, two Standard Moves in one go:
    both half actions, up to twice the Speed (``movement.drag_bands``)."""

    def allowance(self, state: EncounterState, mover: Token, command: Command) -> int:
        times = DOUBLE_MOVE_HALVES if _double(command) else 1
        return speed_squares(state, mover) * times

    def cost(self, state: EncounterState, command: Command) -> int | None:
        return DOUBLE_MOVE_HALVES if _double(command) else None

    def check(self, state: EncounterState, command: Command) -> list[str]:
        mover = state.token(str(command.actor))
        reasons = []
        if mover.has_condition(board.HELD) or mover.has_condition(board.PINNED):
            reasons.append(f"{mover.name} is caught in a Grapple")
        if _double(command) and state.combat.phase is Phase.SURPRISE:
            reasons.append("a double move is two half actions; the surprise round allows one "
                           "action, not two")
        allowance = self.allowance(state, mover, command)
        return reasons + path_reasons(state, mover, command.squares, allowance)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        mover = state.token(str(command.actor))
        cost = path_cost(state, mover, command.squares) if command.squares else 0
        end = command.squares[-1] if command.squares else "?"
        name = "double move" if _double(command) else self.spec.name
        return Preview(
            command,
            True,
            summary=(
                f"{mover.name}: {name} to {end}, {state.scale.describe(cost)} "
                f"of {state.scale.describe(self.allowance(state, mover, command))}."
            ),
            squares=command.squares,
            overlay=walked(state, mover, command.squares, state.scale.describe(cost)),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        double = _double(command)
        state, events = move_token(
            state, str(command.actor), command.squares, "double-moves" if double else "moves",
            dice, "both half actions" if double else "")
        return state, tuple(events)


def _double(command: Command) -> bool:
    return bool(command.option(DOUBLE_MOVE, False))


@handles("five_foot_step")
class FiveFootStep(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        mover = state.token(str(command.actor))
        mine = state.combat.combatant(mover.id)
        reasons: list[str] = []
        if mine.get("moved", False):
            reasons.append("he already took a movement action this round")
        if mine.get("stepped", False):
            reasons.append("he already took his 5-ft step this round")
        return reasons + path_reasons(state, mover, command.squares, 1)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        mover = state.token(str(command.actor))
        end = command.squares[-1] if command.squares else "?"
        return Preview(
            command,
            True,
            summary=f"{mover.name} takes a 5-ft step to {end}.",
            squares=command.squares,
            overlay=route_overlay(state, mover.id, command.squares, "5-ft step"),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        state, events = move_token(state, str(command.actor), command.squares, "steps", dice)
        state = board.set_data(state, str(command.actor), stepped=True)
        return state, tuple(events)


def walked(state: EncounterState, mover: Token, path: Sequence[Square], label: str) -> Overlay:
    """The route a move walks from the mover's square (nothing to draw when it stays put)."""
    return route_overlay(state, mover.id, path, label) if path else Overlay()


def _grappled(token: Token) -> list[str]:
    if token.has_condition(board.HELD) or token.has_condition(board.PINNED):
        return [f"{token.name} is caught in a Grapple"]
    return []


class _PathMove(SpycraftHandler):
    multiplier = 1
    verb = "moves"

    def allowance(self, state: EncounterState, mover: Token) -> int:
        return speed_squares(state, mover) * self.multiplier

    def check(self, state: EncounterState, command: Command) -> list[str]:
        mover = state.token(str(command.actor))
        return _grappled(mover) + path_reasons(
            state, mover, command.squares, self.allowance(state, mover)
        )

    def describe(self, state: EncounterState, command: Command) -> Preview:
        mover = state.token(str(command.actor))
        cost = path_cost(state, mover, command.squares) if command.squares else 0
        return Preview(
            command,
            True,
            squares=command.squares,
            summary=(
                f"{mover.name}: {self.spec.name}, {state.scale.describe(cost)} of "
                f"{state.scale.describe(self.allowance(state, mover))}."
            ),
            overlay=walked(state, mover, command.squares, state.scale.describe(cost)),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        state, events = move_token(state, str(command.actor), command.squares, self.verb, dice)
        return state, tuple(events)


def run_multiplier(mover: Token) -> int:
    """4x Speed, 3x in full armour (``armor`` full, or the ``full_armor`` flag: the stat
    block declares both, and a token marked either way wears it)."""
    full = board.STATS.text(mover, "armor") == "full" or board.STATS.flag(mover, "full_armor")
    return RUN_MULTIPLIER_FULL_ARMOR if full else RUN_MULTIPLIER


@handles("run")
class Run(_PathMove):
    verb = "runs"

    def allowance(self, state: EncounterState, mover: Token) -> int:
        return speed_squares(state, mover) * run_multiplier(mover)

    def answer(self, state: EncounterState, command: Command) -> RunAnswer:
        """engine.routes' straight Run line to the last square of the command."""
        from engine.routes.run import run_line

        mover = state.token(str(command.actor))
        return run_line(
            movement_graph(state), mover.id, command.squares[-1], multiple=run_multiplier(mover)
        )

    def check(self, state: EncounterState, command: Command) -> list[str]:
        mover = state.token(str(command.actor))
        if not command.squares:
            return ["a Run needs a destination"]
        return _grappled(mover) + list(self.answer(state, command).reasons)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        mover = state.token(str(command.actor))
        answer = self.answer(state, command)
        route = answer.route.squares[1:] if answer.route else command.squares
        return Preview(
            command,
            True,
            squares=tuple(route),
            # The straight line the Run takes, which may differ from the squares picked.
            overlay=walked(state, mover, tuple(route), f"Run (up to {answer.limit})"),
            summary=f"{mover.name} runs to {command.squares[-1]} (up to {answer.limit}); "
            "he ends flat-footed.",
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        answer = self.answer(state, command)
        path = answer.route.squares[1:] if answer.route else command.squares
        state, moved = move_token(state, str(command.actor), tuple(path), self.verb, dice)
        events = tuple(moved)
        actor = str(command.actor)
        state, flat = board.add_condition(
            state, actor, board.FLAT_FOOTED, board.until_next_turn(state, actor)
        )
        return state, (*events, flat)


@handles("withdraw")
class Withdraw(_PathMove):
    multiplier = WITHDRAW_MULTIPLIER
    verb = "withdraws"

    def check(self, state: EncounterState, command: Command) -> list[str]:
        mover = state.token(str(command.actor))
        reasons = super().check(state, command)
        if reasons or not command.squares:
            return reasons
        from engine.routes.withdraw import flanking_pair

        # Between two opponents (engine.routes decides) the first 10 ft must clear them;
        # otherwise the first 5 ft.
        between = flanking_pair(movement_graph(state), mover) is not None
        first = 2 if between and len(command.squares) >= 2 else 1
        check_at = command.squares[first - 1]
        if board.adjacent_opponents(state, mover, at=check_at):
            reasons.append(
                f"the first {first * 5} ft of a Withdraw must leave every opponent's side"
            )
        return reasons


@handles("total_defense")
class TotalDefense(_PathMove):
    """A Standard Move (``squares`` may be empty: stay put) and +4 dodge for a full round."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        if not command.squares:
            return []
        return super().check(state, command)

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        events: tuple[Event, ...] = ()
        if command.squares:
            state, events = super().resolve(state, command, dice)
        actor = str(command.actor)
        state, ev = board.add_condition(
            state,
            actor,
            board.TOTAL_DEFENSE,
            board.until_next_turn(state, actor),
            value=TOTAL_DEFENSE_BONUS,
        )
        return state, (*events, ev)


class _Posture(SpycraftHandler):
    posture = ""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        return (
            [f"{actor.name} is already {self.posture}"] if actor.has_condition(self.posture) else []
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = str(command.actor)
        for other in POSTURES:
            state = board.remove_condition(state, actor, other)
        state, ev = board.add_condition(state, actor, self.posture)
        return state, (ev,)


@handles("crouch")
class Crouch(_Posture):
    posture = board.CROUCHED


@handles("drop_prone")
class DropProne(_Posture):
    posture = board.PRONE


@handles("stand_up")
class StandUp(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if not any(actor.has_condition(p) for p in POSTURES):
            return [f"{actor.name} is already standing"]
        return _grappled(actor)

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = str(command.actor)
        for posture in POSTURES:
            state = board.remove_condition(state, actor, posture)
        state, flat = board.add_condition(
            state, actor, board.FLAT_FOOTED, board.until_next_turn(state, actor)
        )
        name = state.token(actor).name
        return state, (Event(EventKind.MOVE, f"{name} stands up.", (actor,)), flat)


@handles("feint")
class Feint(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        reasons = [] if board.adjacent(actor, target) else [f"{target.name} is not adjacent"]
        if state.combat.has(target.id) and state.combat.combatant(target.id).get("feinted", False):
            reasons.append(f"{target.name} already fell for a Feint this round")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "sleight_of_hand"),
            target,
            board.skill(target, "notice"),
            "Feint (Sleight of Hand vs Notice)",
            1,
        )
        events = list(result.events)
        if result.actor_wins:
            state, ev = board.add_condition(
                state, target.id, board.FLAT_FOOTED, board.until_next_turn(state, target.id)
            )
            events.append(ev)
            if state.combat.has(target.id):
                state = board.set_data(state, target.id, feinted=True)
            if result.actor_critical:
                state, ev = board.grant_edge(
                    state, actor.id, target.id, 2, board.until_next_turn(state, actor.id)
                )
                events.append(ev)
        else:
            state, failed = lose_opposed_check(
                state, actor.id, target.id, result.other_critical
            )
            events.extend(failed)
        return state, tuple(events)


@handles("tire")
class Tire(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        return [] if board.adjacent(actor, target) else [f"{target.name} is not adjacent"]

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:

        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "resolve_con"),
            target,
            board.skill(target, "resolve_con"),
            "Tire (Resolve vs Resolve)",
            1,
        )
        events = list(result.events)
        state = mark_attacked(state, target.id, actor.id)
        if result.actor_wins:
            hurt = dice.roll("2d4+2" if result.actor_critical else "1d4+1", "Tire subdual damage")
            state, dealt = apply_damage(state, target.id, hurt.total, subdual=True)
            events.extend(dealt)
        else:
            state, ev = flat_footed_after_failure(state, actor.id)
            events.append(ev)
            if result.other_critical:
                hurt = dice.roll("1d4+1", "Tire backfires")
                state, dealt = apply_damage(state, actor.id, hurt.total, subdual=True)
                events.extend(dealt)
        return state, tuple(events)


def bull_rush_distance(margin: int, critical: bool, size_difference: int) -> int:
    """Squares a won Bull Rush drives the opponent back: 1 + 1 per 4 points of margin (a
    critical success: 2 + 1 per 2), +1 per Size category the pusher is bigger
    (``size_difference``: the pusher's category minus the opponent's)."""
    base = 2 + margin // 2 if critical else 1 + margin // 4
    return base + max(0, size_difference)


def _approach(state: EncounterState, actor: Token, target: Token) -> BullRushApproach:
    """Straight at the opponent, within Speed (engine.routes walks the line)."""
    from engine.routes.push import bull_rush_approach

    return bull_rush_approach(
        movement_graph(state), actor.id, target.id, budget=state.scale.squares(actor.speed)
    )


@handles("bull_rush")
class BullRush(SpycraftHandler):
    """Straight at one opponent within Speed (engine.routes finds the approach and the push
    path); the opposed Athletics check is rolled here, and each obstacle in the push path
    rolls its Damage save (``obstacles``; option ``obstacle_save`` is the GM's bonus for it,
    ``obstacle_breaks`` the GM's outright ruling). A broken obstacle is gone from the map."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        reasons = _grappled(actor)
        if board.size_difference(actor, target) > BULL_RUSH_BIGGER:
            reasons.append(
                f"{target.name} is more than one Size category bigger than {actor.name}"
            )
        return reasons + list(_approach(state, actor, target).reasons)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        approach = _approach(state, actor, target)
        route = approach.route.squares if approach.route else ()
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} bull-rushes {target.name}: opposed Athletics, he goes sprawling."
            ),
            targets=(target.id,),
            squares=tuple(route),
            rolls=("Athletics (both)",),
            overlay=approach_overlay(actor.id, route, target.id, label="Bull Rush approach"),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        from engine.routes import MovementGraph
        from engine.routes.push import BullRushCheck, PushEvent, bull_rush
        from engine.routes.push import EventKind as PushKind

        events: list[Event] = []
        actor_id, target_id = str(command.actor), str(command.target)
        actor, target = state.token(actor_id), state.token(target_id)
        a_bonus, b_bonus = board.size_bonus(actor, target)
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "athletics") + a_bonus,
            target,
            board.skill(target, "athletics") + b_bonus,
            "Bull Rush (Athletics)",
        )
        events.extend(result.events)
        state = mark_attacked(state, target_id, actor_id)
        total = result.actor_roll.total

        direction = _approach(state, actor, target).direction
        saves: list[Event] = []
        smashed: list[tuple[Square, Square]] = []

        def obstacle_holds(event: PushEvent) -> bool:
            here = Square(event.square.x - direction[0], event.square.y - direction[1])
            held, said = _obstacle_save(state, command, here, event.square, target.size, total,
                                        dice)
            saves.append(said)
            if not held:
                smashed.append((here, event.square))
            return held

        def bystander_resists(event: PushEvent) -> bool:
            bystander = state.token(event.subject)
            roll = dice.roll(
                f"1d20{board.skill(bystander, 'athletics'):+d}", f"{bystander.name} Athletics"
            )
            return roll.total >= total

        distance = bull_rush_distance(
            result.margin, result.actor_critical, -board.size_difference(actor, target)
        )
        check = BullRushCheck(result.actor_wins, distance, result.other_critical, total)
        pushed = bull_rush(
            MovementGraph(state, difficult_cost=tables.DIFFICULT_TERRAIN_COST),
            actor_id,
            target_id,
            check,
            lambda expression: dice.roll(expression, "Deviation").total,
            budget=state.scale.squares(actor.speed),
            obstacle_holds=obstacle_holds,
            bystander_resists=bystander_resists,
            diagram=tables.DEVIATION.diagram,
        )
        events.extend(saves)
        if pushed.approach is not None:
            state, slowed = queue_terrain_fluid(state, actor_id, pushed.approach.squares[1:])
            events.extend(slowed)
        for here, there in smashed:
            found = obstacles.obstruction(state.battlemap, here, there, target.size)
            state = replace(state, battlemap=obstacles.broken(state.battlemap, found))
        for moved_id, deviation in pushed.displaced:
            if deviation.square is not None:
                state = state.with_token(state.token(moved_id).moved_to(deviation.square))
        if result.actor_wins and pushed.target_end is not None:
            state = state.with_token(state.token(target_id).moved_to(pushed.target_end))
        if pushed.pusher_end is not None:
            state = state.with_token(state.token(actor_id).moved_to(pushed.pusher_end))
        for push_event in pushed.events:
            events.append(
                Event(
                    EventKind.MOVE,
                    push_event.text[0].upper() + push_event.text[1:] + ".",
                    (target_id,),
                )
            )
            hurt = [target_id]
            if push_event.kind is PushKind.ATHLETICS_CHECK:
                hurt.append(push_event.subject)
            if push_event.kind is not PushKind.STOPPED:
                for victim in hurt:
                    damage = roll_unarmed(dice, actor)
                    state, dealt = apply_damage(state, victim, damage, attacker=actor_id)
                    events.extend(dealt)
        if result.actor_wins:
            events.append(
                Event(
                    EventKind.MOVE,
                    f"{target.name} is driven back {pushed.pushed} to {pushed.target_end}.",
                    (target_id,),
                )
            )
        else:
            state = note_failed_check(state, actor_id)
            dx = _sign(target.square.x - state.token(actor_id).square.x)
            dy = _sign(target.square.y - state.token(actor_id).square.y)
            state, back = push(state, actor_id, -dx, -dy, 1)
            events.extend(back)
        for sprawled in pushed.sprawled:
            state, ev = board.add_condition(state, sprawled, board.SPRAWLED)
            events.append(ev)
        if pushed.pusher_reeling:
            state, reel = board.add_condition(
                state, actor_id, board.REELING, board.until_next_turn(state, actor_id)
            )
            events.append(reel)
        return state, tuple(events)


def _obstacle_save(
    state: EncounterState, command: Command, here: Square, there: Square, size: int,
    damage: int, dice: Dice,
) -> tuple[bool, Event]:
    """An obstacle in a Bull Rush path saves against damage equal to the pusher's Athletics
    result (see ``obstacles``): True when it holds. The GM may type its bonus
    (``obstacle_save``) or rule the outcome outright (``obstacle_breaks``)."""
    found = obstacles.obstruction(state.battlemap, here, there, size)
    what = f"the {found.kind} between {here} and {there}"
    ruled = command.option("obstacle_breaks")
    if ruled is not None:
        held = not bool(ruled)
        text = f"By the GM's ruling {what} {'holds' if held else 'breaks'} (Bull Rush)."
        return held, Event(EventKind.NOTE, text, (str(command.target),))
    typed = command.option("obstacle_save")
    bonus = obstacles.save_bonus(found, None if typed is None else int(typed))
    roll = dice.roll(f"1d20{bonus:+d}", f"Damage save of {what}")
    held = roll.total >= damage
    text = (f"{what[0].upper()}{what[1:]} makes a Damage save: {roll.total} against "
            f"{damage}, {'it holds' if held else 'it breaks'} (Bull Rush).")
    return held, Event(EventKind.ROLL, text, (str(command.target),))


def roll_unarmed(dice: Dice, actor: Token) -> int:
    expression = board.STATS.text(actor, "unarmed_damage")
    bonus = board.stat_int(actor, "str")
    return dice.roll(f"{expression}{bonus:+d}" if bonus else expression, "unarmed damage").total


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def push(
    state: EncounterState, token_id: str, dx: int, dy: int, squares: int
) -> tuple[EncounterState, list[Event]]:
    """Shove a token straight along (dx, dy) up to ``squares``, stopping at the map edge or
    anything in the way (walls, doors and tokens; a table may rule smashing through)."""

    token = state.token(token_id)
    here = token.square
    moved = 0
    for _ in range(squares):
        nxt = Square(here.x + dx, here.y + dy)
        footprint = token.moved_to(nxt).squares
        if any(not state.battlemap.in_bounds(s) for s in footprint):
            break
        if any((o := state.token_at(s)) is not None and o.id != token_id for s in footprint):
            break
        if step_blocked(state, here, nxt):
            break
        here = nxt
        moved += 1
    if moved == 0:
        return state, [
            Event(
                EventKind.MOVE,
                f"{token.name} cannot be pushed back: something is in the way.",
                (token_id,),
            )
        ]
    state = state.with_token(replace(token, square=here))
    return state, [
        Event(
            EventKind.MOVE,
            f"{token.name} is pushed back {state.scale.describe(moved)} to {here}.",
            (token_id,),
        )
    ]
