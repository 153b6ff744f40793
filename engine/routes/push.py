"""A Bull Rush: straight at one opponent, then driving him back square by square.

The approach: up to a budget of squares (the rule system's: Speed, say) directly toward one
opponent; rules-silent choices: "directly toward" is the straight line from the pusher to
the opponent (``engine.routes.lines``), walked as an ordinary move, and the step into the
opponent's square counts against the budget. Whether the opponent is too big to push is
the rule system's question.

The push: as many squares as the rule system's check says, straight back along the pusher's
last step. On the way an object or wall resists (an event; if it gives way the opponent
smashes through and keeps going), a character resists (an event; if he fails he is
displaced to a Deviation square and the opponent keeps going). The pusher follows and ends
adjacent, or stops early and the opponent stops right in front of him. A pusher who loses
stays where he made contact and is sprawled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.grid import Square, squares_of_footprint
from engine.routes.deviation import DEVIATION_DIAGRAM, Deviation, Roll, deviate
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph
from engine.routes.lines import bresenham, walk_line
from engine.routes.results import Cost, Route
from engine.routes.search import Walker
from engine.routes.withdraw import _gap
from engine.tokens import are_opponents
from engine.words import counted


def _direction(start: Square, start_size: int, target: Square, target_size: int) -> tuple[int, int]:
    """The compass step from one footprint's centre toward another's."""
    dx = (target.x + target_size / 2) - (start.x + start_size / 2)
    dy = (target.y + target_size / 2) - (start.y + start_size / 2)
    step_x = 0 if abs(dx) < 0.5 else (1 if dx > 0 else -1)
    step_y = 0 if abs(dy) < 0.5 else (1 if dy > 0 else -1)
    # A long shallow line is a straight push, not a diagonal one.
    if step_x and step_y and min(abs(dx), abs(dy)) * 2.414 < max(abs(dx), abs(dy)):
        if abs(dx) > abs(dy):
            step_y = 0
        else:
            step_x = 0
    return step_x, step_y


class EventKind(StrEnum):
    DAMAGE_SAVE = "damage_save"  # an object or wall in the way resists the Athletics result
    ATHLETICS_CHECK = "athletics_check"  # a character in the way resists the Athletics result
    STOPPED = "stopped"  # the map's edge or a pit: the push simply ends


@dataclass(frozen=True, slots=True)
class PushEvent:
    """Something on the push path. ``held`` is what the resolver said (True: it held)."""

    kind: EventKind
    square: Square
    subject: str
    text: str
    held: bool


@dataclass(frozen=True, slots=True)
class BullRushCheck:
    """The opposed check, as the rule system rolled and read it.

    ``distance`` is how many squares a won check drives the opponent back (the system's
    numbers: margin, critical success, size); ``reeling`` the pusher's critical failure.
    ``athletics`` is the pusher's total, the DC of the saves and checks on the path.
    """

    won: bool
    distance: int = 0
    reeling: bool = False
    athletics: int = 0


@dataclass(frozen=True, slots=True)
class BullRushApproach:
    """The Bull Rush approach: straight toward the opponent, within Speed, or why not."""

    allowed: bool
    route: Route | None
    direction: tuple[int, int]
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BullRushResult:
    allowed: bool
    approach: Route | None
    pusher_end: Square | None = None
    target_end: Square | None = None
    target_path: tuple[Square, ...] = ()
    pushed: Cost | None = None
    events: tuple[PushEvent, ...] = ()
    sprawled: tuple[str, ...] = ()
    displaced: tuple[tuple[str, Deviation], ...] = ()
    pusher_reeling: bool = False
    reasons: tuple[str, ...] = ()


def bull_rush_approach(
    movement: MovementGraph, pusher_id: str, target_id: str, *, budget: int
) -> BullRushApproach:
    """The straight approach within ``budget`` squares, the contact step included."""
    pusher, target = movement.token(pusher_id), movement.token(target_id)
    reasons: list[str] = []
    if not are_opponents(pusher.side, target.side):
        reasons.append(f"{target.name} is not an opponent")
    line = bresenham(pusher.square, target.square)
    contact = pusher.square
    for anchor in line:
        if _gap(anchor, pusher.size, target.square, target.size) == 0:
            break
        contact = anchor
    direction = _direction(contact, pusher.size, target.square, target.size)
    walker = Walker(movement, pusher)
    if contact == pusher.square:
        route = Route((pusher.square,), Cost.of(0, movement.scale))
        spent = 1
    else:
        walk = walk_line(walker, contact, strict=False)
        reasons.extend(walk.problems)
        route = walk.route
        spent = route.cost.squares + 1
    if spent > budget:
        reasons.append(
            f"reaching {target.name} takes {Cost.of(spent, movement.scale)}, more than Speed "
            f"({Cost.of(budget, movement.scale)})"
        )
    if reasons:
        return BullRushApproach(False, None, direction, tuple(dict.fromkeys(reasons)))
    return BullRushApproach(True, route, direction)


Resolver = Callable[[PushEvent], bool]


def _holds(event: PushEvent) -> bool:
    return True


def bull_rush(
    movement: MovementGraph,
    pusher_id: str,
    target_id: str,
    check: BullRushCheck,
    roll: Roll,
    *,
    budget: int,
    obstacle_holds: Resolver = _holds,
    bystander_resists: Resolver = _holds,
    stop_after: int | None = None,
    diagram: Mapping[int, tuple[int, int]] = DEVIATION_DIAGRAM,
) -> BullRushResult:
    """Resolve a Bull Rush: approach, push path with its events, where everyone ends.

    ``obstacle_holds`` answers each Damage save event (True: the object held and the push
    stops there); ``bystander_resists`` each Athletics check event (True: the character
    held his ground, the push stops). Both default to holding, which is the preview.
    ``stop_after`` is the pusher ending his movement early after so many squares;
    ``budget`` is the approach's (see ``bull_rush_approach``); ``diagram`` numbers the
    squares a displaced bystander may land on (the system's Deviation Diagram).
    """
    pusher, target = movement.token(pusher_id), movement.token(target_id)
    approach = bull_rush_approach(movement, pusher_id, target_id, budget=budget)
    if not approach.allowed or approach.route is None:
        return BullRushResult(False, None, reasons=approach.reasons)
    contact = approach.route.end
    if not check.won:
        return BullRushResult(
            True,
            approach.route,
            pusher_end=contact,
            target_end=target.square,
            target_path=(target.square,),
            pushed=Cost.of(0, movement.scale),
            sprawled=(pusher.id,),
            pusher_reeling=check.reeling,
        )
    dx, dy = approach.direction
    distance = check.distance
    if stop_after is not None:
        if stop_after < 0:
            raise RouteError(f"a Bull Rush cannot stop after {counted(stop_after, 'square')}")
        distance = min(distance, stop_after)
    dc = str(check.athletics) if check.athletics else "the Athletics result"
    events: list[PushEvent] = []
    displaced: list[tuple[str, Deviation]] = []
    sprawled = [target.id]
    moving = {pusher.id, target.id}
    path = [target.square]
    gone: set[str] = set()
    while len(path) - 1 < distance:
        here = path[-1]
        nxt = Square(here.x + dx, here.y + dy)
        landing = squares_of_footprint(nxt, target.size)
        if not all(movement.in_bounds(s) for s in landing):
            events.append(
                PushEvent(
                    EventKind.STOPPED, nxt, "map edge", "the push stops at the map's edge", True
                )
            )
            break
        obstacle = _obstacle(movement, here, nxt, target.size)
        if obstacle is not None:
            event = PushEvent(
                EventKind.DAMAGE_SAVE,
                nxt,
                obstacle,
                f"{obstacle} makes a Damage save against {dc}; "
                f"{target.name} takes {pusher.name}'s unarmed damage",
                True,
            )
            held = obstacle_holds(event)
            events.append(_with_held(event, held))
            if held:
                break
        blockers = sorted(
            {
                movement.occupant[s]
                for s in landing
                if s in movement.occupant and movement.occupant[s] not in moving | gone
            }
        )
        stop = False
        for holder_id in blockers:
            holder = movement.tokens[holder_id]
            event = PushEvent(
                EventKind.ATHLETICS_CHECK,
                nxt,
                holder.id,
                f"{holder.name} makes an Athletics (Str) check against {dc}; "
                f"both take {pusher.name}'s unarmed damage",
                True,
            )
            held = bystander_resists(event)
            events.append(_with_held(event, held))
            if held:
                stop = True
                break
            landing_taken = set(landing) | set(squares_of_footprint(here, target.size))
            deviation = deviate(
                movement,
                holder.square,
                roll,
                size=holder.size,
                ignore=moving | {holder.id},
                also_occupied=landing_taken,
                diagram=diagram,
            )
            displaced.append((holder.id, deviation))
            sprawled.append(holder.id)
            gone.add(holder.id)
        if stop:
            break
        path.append(nxt)
    moved = len(path) - 1
    pusher_end = Square(contact.x + dx * moved, contact.y + dy * moved)
    return BullRushResult(
        True,
        approach.route,
        pusher_end=pusher_end,
        target_end=path[-1],
        target_path=tuple(path),
        pushed=Cost.of(moved, movement.scale),
        events=tuple(events),
        sprawled=tuple(sprawled),
        displaced=tuple(displaced),
    )


def _with_held(event: PushEvent, held: bool) -> PushEvent:
    return PushEvent(event.kind, event.square, event.subject, event.text, held)


def _obstacle(movement: MovementGraph, here: Square, nxt: Square, size: int) -> str | None:
    """What stops a footprint stepping from here to nxt: a wall, a door, cover, a pit."""
    dx, dy = nxt.x - here.x, nxt.y - here.y
    adjacency = movement.graph._adj
    for square in squares_of_footprint(here, size):
        step = Square(square.x + dx, square.y + dy)
        if step not in adjacency[square]:
            return f"the wall or door between {square} and {step}"
    for square in squares_of_footprint(nxt, size):
        if square in movement.impassable:
            return f"the obstacle at {square}"
    return None
