"""Straight lines on the grid, for a Charge, a straight Run or a shove, and what stands on them.

Rules-silent choices (a GM who knows Foundry or MapTool would measure the same way):

* The straight line runs from the centre of the mover's start square to the centre of its
  end square (for a big token: of its top-left squares, the whole footprint sliding along).
* The mover *walks* the Bresenham line: ``max(|dx|, |dy|)`` steps, ``min(|dx|, |dy|)`` of
  them diagonal, so the line costs what a ruler from start to end says (5/10/5 ft under
  the alternating diagonal rule).
* The line *passes through* every square whose inside the centre line crosses (the
  "supercover" of the segment; a line through an exact grid corner passes between the
  two side squares without touching them). Creatures, terrain and walls are checked on
  all of these, which is a Charge's "any line" reading at the grid's resolution.
* A wall is crossed when a step between two consecutive squares of either list is not an
  open edge of the movement graph (so the corner rule applies to lines as well).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator
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
    """Squares of movement to walk the line (diagonal rule, difficult terrain doubled)."""
    rule = scale.diagonal
    cost = diagonals = 0
    for a, b in _pairs(squares):
        diagonal = a.x != b.x and a.y != b.y
        step = step_cost(diagonals, diagonal, rule)
        diagonals += diagonal
        cost += step * 2 if walker.lands_difficult(b) else step
    return cost


def walk_line(
    walker: Walker,
    end: Square,
    *,
    strict: bool,
    start: Square | None = None,
    passable: Collection[str] = (),
) -> LineWalk:
    """Walk the straight line from the mover's square (or ``start``) to ``end``.

    ``strict`` (a clear path, as a Charge to the closest space needs): any square on the
    line that blocks or slows movement or holds a creature, and any wall, is a problem; a
    creature with one of the ``passable`` conditions (lower case, e.g. a helpless one the
    rule lets a charger pass) does not count. Otherwise (a straight Run, a run-up Charge, a
    shove's approach) the line is an ordinary move that may not turn: walls, impassable
    squares and opponents stop it, allies may be crossed, difficult terrain costs double,
    and the end must be free.
    """
    movement = walker.movement
    mover = walker.mover
    origin = start if start is not None else mover.square
    steps = bresenham(origin, end)
    cover = supercover(origin, end)
    problems: list[str] = []

    for a, b in (*_pairs(steps), *_pairs(cover)):
        if not walker.step_between(a, b) and not _explained_by_square(walker, b):
            problems.append(f"the straight line crosses a wall or closed door between {a} and {b}")
            break

    swept: list[Square] = []
    seen: set[Square] = set(squares_of_footprint(origin, walker.size))
    for anchor in (*steps, *cover):
        for square in squares_of_footprint(anchor, walker.size):
            if square not in seen:
                seen.add(square)
                swept.append(square)
    swept.sort(key=lambda s: (abs(s.x - origin.x) + abs(s.y - origin.y), s))

    for square in swept:
        problem = _square_problem(walker, mover, square, strict, passable)
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
    walker: Walker, mover: Token, square: Square, strict: bool, passable: Collection[str]
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
        kind = "an opponent" if are_opponents(mover.side, holder.side) else "an ally"
        return f"square {square} on the straight line holds {kind} ({holder.name})"
    if are_opponents(mover.side, holder.side):
        return f"square {square} on the straight line holds an opponent ({holder.name})"
    return None
