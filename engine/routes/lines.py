"""Straight lines on the grid, for a Charge, a straight Run or a shove, and what stands on them.

Rules-silent choices (a GM who knows Foundry or MapTool would measure the same way):

* The straight line runs from the centre of the mover's start square to the centre of its
  end square (for a big token: of its top-left squares, the whole footprint sliding along).
* The mover *walks* the Bresenham line: ``max(|dx|, |dy|)`` steps, ``min(|dx|, |dy|)`` of
  them diagonal, so the line costs what a ruler from start to end says (5/10/5 ft under
  the alternating diagonal rule).
* An ordinary straight move *passes through* every square whose inside the centre line
  crosses (the "supercover" of the segment; a line through an exact grid corner passes
  between the two side squares without touching them). A wall is crossed when a step
  between two consecutive squares of either list is not an open edge of the movement graph.
* A clear path (``strict``, a Charge to the closest space) asks about *any* line from the
  starting space to the ending space: every line from a point of the start footprint to the
  same point of the end footprint, the corner-to-corner lines included. Together they sweep
  the footprint along the move, so a square counts when its inside meets the inside of that
  swept band (a square only touched along an edge or at a corner does not), and a wall
  counts when it cuts the band. Measured exactly, in whole grid units.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from engine.grid import GridScale, Square, squares_of_footprint, step_cost
from engine.routes.results import Cost, Route
from engine.routes.search import Walker
from engine.tokens import Token, are_opponents


def bresenham(a: Square, b: Square) -> tuple[Square, ...]:
    """The squares a mover steps through on the straight line from a to b, a and b included."""
    dx, dy = b.x - a.x, b.y - a.y
    n = max(abs(dx), abs(dy))
    if n == 0:
        return (a,)
    # Round half away from the start so that the line is the same whichever way it is drawn.
    return tuple(
        Square(a.x + _round_ratio(i * dx, n), a.y + _round_ratio(i * dy, n)) for i in range(n + 1)
    )


def _round_ratio(numerator: int, denominator: int) -> int:
    sign = -1 if numerator < 0 else 1
    return sign * ((2 * abs(numerator) + denominator) // (2 * denominator))


def supercover(a: Square, b: Square) -> tuple[Square, ...]:
    """Every square whose inside the centre-to-centre segment crosses, in order."""
    dx, dy = b.x - a.x, b.y - a.y
    nx_, ny_ = abs(dx), abs(dy)
    sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
    x, y = a
    squares = [a]
    ix = iy = 0
    while ix < nx_ or iy < ny_:
        # Compare where the line next crosses a vertical and a horizontal grid line.
        horizontal = (1 + 2 * ix) * ny_
        vertical = (1 + 2 * iy) * nx_
        if iy >= ny_ or (ix < nx_ and horizontal < vertical):
            x += sx
            ix += 1
        elif ix >= nx_ or vertical < horizontal:
            y += sy
            iy += 1
        else:  # through a corner exactly
            x += sx
            y += sy
            ix += 1
            iy += 1
        squares.append(Square(x, y))
    return tuple(squares)


def _meets_open_box(start: Square, end: Square, low: tuple[int, int],
                    high: tuple[int, int]) -> bool:
    """Whether the segment from ``start`` to ``end`` (grid points) meets the open box.

    Exact in whole numbers: the segment's parameter must fall inside each axis's open
    interval; each bound is a fraction ``numerator / denominator`` with a positive
    denominator, compared by cross-multiplying."""
    after_n, after_d = -1, 1  # the open interval of the parameter, (after, before)
    before_n, before_d = 2, 1
    for p, q, lo, hi in ((start.x, end.x, low[0], high[0]), (start.y, end.y, low[1], high[1])):
        d = q - p
        if d == 0:
            if not lo < p < hi:
                return False
            continue
        first, last, den = (lo - p, hi - p, d) if d > 0 else (p - hi, p - lo, -d)
        if first * after_d > after_n * den:
            after_n, after_d = first, den
        if last * before_d < before_n * den:
            before_n, before_d = last, den
    return after_n * before_d < before_n * after_d and after_n < after_d and before_n > 0


def swept_band(origin: Square, end: Square, size: int = 1) -> tuple[Square, ...]:
    """Every square whose inside some line from the start footprint (anchor ``origin``) to
    the end footprint (anchor ``end``) passes through: the footprint swept along the move.
    The start footprint is left out."""
    start_squares = set(squares_of_footprint(origin, size))
    low_x, high_x = min(origin.x, end.x), max(origin.x, end.x) + size - 1
    dx, dy = end.x - origin.x, end.y - origin.y
    found = []
    for y in range(min(origin.y, end.y), max(origin.y, end.y) + size):
        # Only the columns the band can reach on this row (one square of slack each side);
        # the exact test decides.
        if dy:
            ends = sorted(((y - size - origin.y) / dy, (y + 1 - origin.y) / dy))
            t0, t1 = max(0.0, ends[0]), min(1.0, ends[1])
        else:
            t0, t1 = 0.0, 1.0
        xs = (origin.x + dx * t0, origin.x + dx * t1)
        first = max(low_x, math.floor(min(xs)) - 1)
        last = min(high_x, math.ceil(max(xs)) + size)
        for x in range(first, last + 1):
            if Square(x, y) in start_squares:
                continue
            if _meets_open_box(origin, end, (x - size, y - size), (x + 1, y + 1)):
                found.append(Square(x, y))
    return tuple(found)


def band_walls(walker: Walker, origin: Square, end: Square) -> list[tuple[Square, Square]]:
    """Pairs of side-by-side squares of the swept band whose shared edge cuts the band and is
    not an open edge of the movement graph (a wall or a closed door)."""
    size = walker.size
    movement = walker.movement
    squares = {*swept_band(origin, end, size), *squares_of_footprint(origin, size)}
    crossed = []
    for a in sorted(squares, key=lambda s: (s.y, s.x)):
        for b in (Square(a.x + 1, a.y), Square(a.x, a.y + 1)):
            if b not in squares or a in movement.impassable or b in movement.impassable:
                continue
            if b.x != a.x:  # a vertical edge at x = b.x, from y = a.y to a.y + 1
                low, high = (b.x - size, a.y - size), (b.x, a.y + 1)
            else:  # a horizontal edge at y = b.y, from x = a.x to a.x + 1
                low, high = (a.x - size, b.y - size), (a.x + 1, b.y)
            if not _meets_open_box(origin, end, low, high):
                continue
            if b not in walker.adjacency.get(a, {}):
                crossed.append((a, b))
    return crossed


@dataclass(frozen=True, slots=True)
class LineWalk:
    """A straight line walked by one mover: the route, and what is wrong with it."""

    route: Route
    swept: tuple[Square, ...]
    problems: tuple[str, ...]

    @property
    def clear(self) -> bool:
        return not self.problems


def _pairs(squares: tuple[Square, ...]) -> Iterator[tuple[Square, Square]]:
    return itertools.pairwise(squares)


def line_cost(walker: Walker, squares: tuple[Square, ...], scale: GridScale) -> int:
    """Squares of movement to walk the line (diagonal rule, difficult terrain at the graph's
    ``difficult_cost``)."""
    rule = scale.diagonal
    cost = diagonals = 0
    for a, b in _pairs(squares):
        diagonal = a.x != b.x and a.y != b.y
        step = step_cost(diagonals, diagonal, rule)
        diagonals += diagonal
        cost += step * walker.difficult_cost if walker.lands_difficult(b) else step
    return cost


def walk_line(
    walker: Walker,
    end: Square,
    *,
    strict: bool,
    start: Square | None = None,
    passable: Collection[str] = (),
    helpless: Callable[[Token], bool] | None = None,
) -> LineWalk:
    """Walk the straight line from the mover's square (or ``start``) to ``end``.

    ``strict`` (a clear path, as a Charge to the closest space needs): on *any* line from
    the starting space to the ending space (the swept band), a square that blocks or slows
    movement or holds a creature, and any wall, is a problem; a creature with one of the
    ``passable`` conditions (lower case, e.g. a helpless one the rule lets a charger pass),
    or one the rule's ``helpless`` test accepts, does not count. Otherwise (a straight Run, a
    run-up Charge, a shove's approach) the line is an ordinary move that may not turn:
    walls, impassable squares and opponents stop it, allies may be crossed, difficult
    terrain costs double, and the end must be free.
    """
    movement = walker.movement
    mover = walker.mover
    origin = start if start is not None else mover.square
    steps = bresenham(origin, end)
    problems: list[str] = []

    swept: list[Square] = []
    if strict:
        for a, b in band_walls(walker, origin, end):
            problems.append(f"a line from the start to {end} crosses a wall or closed door "
                            f"between {a} and {b}")
            break
        swept = list(swept_band(origin, end, walker.size))
    else:
        cover = supercover(origin, end)
        for a, b in (*_pairs(steps), *_pairs(cover)):
            if not walker.step_between(a, b) and not _explained_by_square(walker, b):
                problems.append(
                    f"the straight line crosses a wall or closed door between {a} and {b}")
                break
        seen: set[Square] = set(squares_of_footprint(origin, walker.size))
        for anchor in (*steps, *cover):
            for square in squares_of_footprint(anchor, walker.size):
                if square not in seen:
                    seen.add(square)
                    swept.append(square)
    swept.sort(key=lambda s: (abs(s.x - origin.x) + abs(s.y - origin.y), s))

    for square in swept:
        problem = _square_problem(walker, mover, square, strict, passable, helpless)
        if problem is not None:
            problems.append(problem)
    if not strict and not walker.can_end(end):
        problems.append(f"the line ends on {end}, where another creature stands")
    cost = line_cost(walker, steps, movement.scale)
    route = Route(steps, Cost.of(cost, movement.scale))
    return LineWalk(route, tuple(swept), tuple(dict.fromkeys(problems)))


def line_is_clear(walker: Walker, end: Square) -> bool:
    """``walk_line(walker, end, strict=False).clear``, stopping at the first problem."""
    movement = walker.movement
    mover = walker.mover
    origin = mover.square
    if not walker.can_end(end):
        return False
    steps = bresenham(origin, end)
    cover = supercover(origin, end)
    for line in (steps, cover):
        for a, b in _pairs(line):
            if not walker.step_between(a, b):
                return False
            for square in squares_of_footprint(b, walker.size):
                if not movement.in_bounds(square):
                    return False
                if _square_problem(walker, mover, square, False, ()) is not None:
                    return False
    return True


def _explained_by_square(walker: Walker, square: Square) -> bool:
    """A step refused only because its square is occupied or off the map is reported there."""
    if not walker.movement.in_bounds(square):
        return False
    return any(s in walker.blocked for s in squares_of_footprint(square, walker.size))


def _square_problem(
    walker: Walker, mover: Token, square: Square, strict: bool, passable: Collection[str],
    helpless: Callable[[Token], bool] | None = None,
) -> str | None:
    movement = walker.movement
    if not movement.in_bounds(square):
        return f"square {square} on the straight line lies off the map"
    if square in movement.impassable:
        return f"square {square} on the straight line blocks movement"
    if strict and square in movement.difficult:
        return f"square {square} on the straight line is difficult terrain"
    holder_id = movement.occupant.get(square)
    if holder_id is None or holder_id == mover.id:
        return None
    holder = movement.tokens[holder_id]
    if strict:
        if any(c.name.lower() in passable for c in holder.conditions):
            return None
        if helpless is not None and helpless(holder):
            return None
        kind = "an opponent" if are_opponents(mover.side, holder.side) else "an ally"
        return f"square {square} on the straight line holds {kind} ({holder.name})"
    if are_opponents(mover.side, holder.side):
        return f"square {square} on the straight line holds an opponent ({holder.name})"
    return None
