"""Shoving: Spycraft's Bull Rush and Savage Worlds' Push.

Spycraft Bull Rush. The approach: up to Speed directly toward one opponent no more than one
Size category bigger; rules-silent choices: "directly toward" is the straight line from
the pusher to the opponent (``engine.routes.lines``), walked as an ordinary move, and the
step into the opponent's square counts against Speed. The push: 1 square + 1 per 4 points
of margin (a critical success: 2 + 1 per 2 points), +1 per Size category the pusher is
bigger, straight back along the pusher's last step. On the way an object or wall makes a
Damage save (an event; if it fails the opponent smashes through and keeps going), a
character makes an Athletics check (an event; if it fails he is sprawled in a Deviation
square and the opponent keeps going). The pusher follows and ends adjacent, or stops early
and the opponent stops right in front of him. A pusher who loses moves back one square
(to the square he charged in from) and is sprawled; sent reeling on a critical failure.

Size categories come from the stat ``size_category`` (a name such as "large" or an index)
or, failing that, from the footprint: 1 square Medium, 2 Large, 3 Huge, 4 Gargantuan,
5 or more Colossal.

Savage Worlds Push: 1" (2" with a raise), doubled when the pusher's Scale is larger; +2 to
the roll after running at least 2"; stops at walls and creatures (rules-silent choice);
the pushed foe rolls Athletics (at -2 after a raise) or falls prone. A foe more than two
Sizes larger cannot be pushed unless the GM allows it. The pusher must be adjacent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.grid import Square, squares_of_footprint
from engine.routes.deviation import Deviation, Roll, deviate
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph
from engine.routes.lines import bresenham, walk_line
from engine.routes.results import Cost, Route
from engine.routes.search import Walker
from engine.routes.withdraw import _gap
from engine.tokens import Token, are_opponents

SIZE_CATEGORIES = (
    "fine",
    "diminutive",
    "tiny",
    "small",
    "medium",
    "large",
    "huge",
    "gargantuan",
    "colossal",
)
_BY_FOOTPRINT = {1: 4, 2: 5, 3: 6, 4: 7}


def size_category(token: Token) -> int:
    """Index into ``SIZE_CATEGORIES``: the stat ``size_category``, else from the footprint."""
    value = token.stat("size_category", "")
    if isinstance(value, str) and value:
        try:
            return SIZE_CATEGORIES.index(value.lower())
        except ValueError:
            raise RouteError(f"token {token.id!r} has an unknown size category {value!r}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return _BY_FOOTPRINT.get(token.size, 8)


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
    """The opposed Athletics result, as the turn engine rolled it.

    ``margin`` is the pusher's total minus the opponent's; ``critical`` a critical success
    of the pusher (or critical failure of the opponent); ``reeling`` the reverse.
    ``athletics`` is the pusher's total, the DC of the saves and checks on the path.
    """

    won: bool
    margin: int = 0
    critical: bool = False
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


def bull_rush_approach(movement: MovementGraph, pusher_id: str, target_id: str) -> BullRushApproach:
    pusher, target = movement.token(pusher_id), movement.token(target_id)
    reasons: list[str] = []
    if not are_opponents(pusher.side, target.side):
        reasons.append(f"{target.name} is not an opponent")
    if size_category(target) > size_category(pusher) + 1:
        reasons.append(f"{target.name} is more than one Size category bigger than {pusher.name}")
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
    speed = movement.scale.squares(pusher.speed)
    if spent > speed:
        reasons.append(
            f"reaching {target.name} takes {Cost.of(spent, movement.scale)}, more than Speed "
            f"({Cost.of(speed, movement.scale)})"
        )
    if reasons:
        return BullRushApproach(False, None, direction, tuple(dict.fromkeys(reasons)))
    return BullRushApproach(True, route, direction)


def bull_rush_distance(check: BullRushCheck, size_difference: int) -> int:
    """Squares pushed for a won check; ``size_difference`` = pusher's category - target's."""
    base = 2 + check.margin // 2 if check.critical else 1 + check.margin // 4
    return base + max(0, size_difference)


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
    obstacle_holds: Resolver = _holds,
    bystander_resists: Resolver = _holds,
    stop_after: int | None = None,
) -> BullRushResult:
    """Resolve a Bull Rush: approach, push path with its events, where everyone ends.

    ``obstacle_holds`` answers each Damage save event (True: the object held and the push
    stops there); ``bystander_resists`` each Athletics check event (True: the character
    held his ground, the push stops). Both default to holding, which is the preview.
    ``stop_after`` is the pusher ending his movement early after so many squares.
    """
    pusher, target = movement.token(pusher_id), movement.token(target_id)
    approach = bull_rush_approach(movement, pusher_id, target_id)
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
    distance = bull_rush_distance(check, size_category(pusher) - size_category(target))
    if stop_after is not None:
        if stop_after < 0:
            raise RouteError(f"a Bull Rush cannot stop after {stop_after} squares")
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


# -- Savage Worlds -------------------------------------------------------------------------

_SCALE_BY_FOOTPRINT = {1: 0, 2: 1, 3: 2}
_SIZE_BY_SCALE = {-3: -4, -2: -3, -1: -2, 0: 0, 1: 4, 2: 8, 3: 12}


def savage_scale(token: Token) -> int:
    """Scale rank (0 Normal, 1 Large, 2 Huge, 3 Gargantuan, negatives smaller): stat ``scale``."""
    value = token.stat("scale", _SCALE_BY_FOOTPRINT.get(token.size, 3))
    return int(value)


def savage_size(token: Token) -> int:
    """Size (stat ``sw_size``), else a typical Size for the token's Scale."""
    return int(token.stat("sw_size", _SIZE_BY_SCALE.get(savage_scale(token), 0)))


@dataclass(frozen=True, slots=True)
class SavagePush:
    allowed: bool
    path: tuple[Square, ...] = ()
    pushed: Cost | None = None
    stopped_by: str | None = None
    roll_bonus: int = 0
    prone_check_modifier: int = 0
    reasons: tuple[str, ...] = ()

    @property
    def target_end(self) -> Square | None:
        return self.path[-1] if self.path else None


def savage_push_bonus(ran_inches: float) -> int:
    """+2 to the Strength (or Athletics) roll after running at least 2 inches first."""
    return 2 if ran_inches >= 2 else 0


def savage_push(
    movement: MovementGraph,
    pusher_id: str,
    target_id: str,
    *,
    raise_: bool = False,
    ran_inches: float = 0.0,
    distance: int | None = None,
    gm_allows_bigger: bool = False,
) -> SavagePush:
    """Where a successful Savage Worlds Push sends the foe (``raise_``: the roll got a raise).

    ``distance`` pushes less than the maximum ("up to"); the grid is in inches (1 a square).
    """
    pusher, target = movement.token(pusher_id), movement.token(target_id)
    reasons: list[str] = []
    if _gap(pusher.square, pusher.size, target.square, target.size) != 1:
        reasons.append(f"{pusher.name} must stand next to {target.name} to push")
    if savage_size(target) > savage_size(pusher) + 2 and not gm_allows_bigger:
        reasons.append(f"{target.name} is more than two Sizes larger (the GM may allow it)")
    if reasons:
        return SavagePush(False, reasons=tuple(reasons))
    maximum = 2 if raise_ else 1
    if savage_scale(pusher) > savage_scale(target):
        maximum *= 2
    maximum = movement.scale.squares(maximum * 1.0 * _inches(movement))
    if distance is not None:
        if not 1 <= distance <= maximum:
            raise RouteError(f"a Push moves 1 to {maximum} squares here, not {distance}")
        maximum = distance
    dx, dy = _direction(pusher.square, pusher.size, target.square, target.size)
    path = [target.square]
    stopped_by: str | None = None
    for _ in range(maximum):
        here = path[-1]
        nxt = Square(here.x + dx, here.y + dy)
        landing = squares_of_footprint(nxt, target.size)
        if not all(movement.in_bounds(s) for s in landing):
            stopped_by = "the edge of the map"
            break
        stopped_by = _obstacle(movement, here, nxt, target.size)
        if stopped_by is None:
            holder = next(
                (
                    movement.occupant[s]
                    for s in landing
                    if movement.occupant.get(s, target.id) != target.id
                ),
                None,
            )
            if holder is not None:
                stopped_by = movement.tokens[holder].name
        if stopped_by is not None:
            break
        path.append(nxt)
    return SavagePush(
        True,
        tuple(path),
        Cost.of(len(path) - 1, movement.scale),
        stopped_by,
        savage_push_bonus(ran_inches),
        -2 if raise_ else 0,
    )


def _inches(movement: MovementGraph) -> float:
    """One tabletop inch in the map's unit (1 on a Savage Worlds map)."""
    return {"in": 1.0, "ft": 6.0, "m": 1.8288}.get(movement.scale.unit.value, 1.0)
