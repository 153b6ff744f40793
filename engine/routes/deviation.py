"""The Deviation Diagram: a random neighbouring square (d8), and a weapon sent flying.

The rule texts refer to a Deviation Diagram without printing it. Rules-silent
choice, kept as data (``DEVIATION_DIAGRAM``) so a table can renumber it: 1 is up the map
(north), then clockwise, 8 is north-west.

* ``deviate``: a d8 picks one of the eight squares around a creature; a square that is
  occupied, off the map, impassable or across a wall from it is rolled again.
* ``weapon_flight`` (Disarm with a threat): a d8 direction and 1d4+1 squares; the weapon
  flies over creatures and stops in the last square before a wall, closed door, blocking
  cover or the map's edge.

Dice come from the caller: ``roll("1d8")`` returns the total, so the turn engine passes its
seeded dice (results replay) and tests pass fixed rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from engine.grid import Square, squares_of_footprint
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph

Roll = Callable[[str], int]

#: d8 result -> (dx, dy): 1 north (up the map), clockwise to 8 north-west.
DEVIATION_DIAGRAM: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (1, 1),
    5: (0, 1),
    6: (-1, 1),
    7: (-1, 0),
    8: (-1, -1),
}

#: Rolling again forever would hang the app on a broken dice source.
MAX_REROLLS = 100


@dataclass(frozen=True, slots=True)
class Deviation:
    """Where a creature (or a dropped weapon) lands, and the d8 rolls it took."""

    origin: Square
    square: Square | None
    rolls: tuple[int, ...]
    reasons: tuple[str, ...] = ()


def _checked(roll: Roll, expression: str, low: int, high: int) -> int:
    value = roll(expression)
    if not low <= value <= high:
        raise RouteError(f"a roll of {expression} gave {value}, outside {low}..{high}")
    return value


def deviate(
    movement: MovementGraph,
    origin: Square,
    roll: Roll,
    *,
    size: int = 1,
    ignore: Collection[str] = (),
    also_occupied: Collection[Square] = (),
) -> Deviation:
    """A random free neighbouring square of ``origin`` (a top-left square for big tokens).

    ``ignore``: tokens whose squares do not count as occupied (the one being moved);
    ``also_occupied``: squares to treat as taken (where others are about to stand).
    """
    origin = movement.check_square(origin, "deviation origin")
    taken = set(also_occupied)

    def usable(offset: tuple[int, int]) -> bool:
        anchor = Square(origin.x + offset[0], origin.y + offset[1])
        for square in squares_of_footprint(anchor, size):
            if not movement.in_bounds(square) or square in movement.impassable or square in taken:
                return False
            holder = movement.occupant.get(square)
            if holder is not None and holder not in ignore:
                return False
        # Landing across a wall is not landing next to it.
        for square in squares_of_footprint(origin, size):
            step = Square(square.x + offset[0], square.y + offset[1])
            if step not in movement.graph._adj[square]:
                return False
        return True

    free = {number for number, offset in DEVIATION_DIAGRAM.items() if usable(offset)}
    if not free:
        return Deviation(
            origin, None, (), (f"every square around {origin} is taken or walled off",)
        )
    rolls: list[int] = []
    while len(rolls) < MAX_REROLLS:
        rolls.append(_checked(roll, "1d8", 1, 8))
        if rolls[-1] in free:
            dx, dy = DEVIATION_DIAGRAM[rolls[-1]]
            return Deviation(origin, Square(origin.x + dx, origin.y + dy), tuple(rolls))
    raise RouteError(f"{MAX_REROLLS} d8 rolls never hit one of the free squares {sorted(free)}")


@dataclass(frozen=True, slots=True)
class WeaponFlight:
    """A disarmed weapon sent flying: the squares it crosses and where it lands."""

    origin: Square
    direction_roll: int
    distance_roll: int
    path: tuple[Square, ...]
    stopped_by: str | None = None

    @property
    def landing(self) -> Square:
        return self.path[-1]


def weapon_flight(movement: MovementGraph, origin: Square, roll: Roll) -> WeaponFlight:
    """Disarm with a threat: the weapon flies 1d4+1 squares in a d8 direction."""
    origin = movement.check_square(origin, "disarmed weapon's square")
    direction = _checked(roll, "1d8", 1, 8)
    distance = _checked(roll, "1d4+1", 2, 5)
    dx, dy = DEVIATION_DIAGRAM[direction]
    path = [origin]
    stopped_by: str | None = None
    for _ in range(distance):
        here = path[-1]
        nxt = Square(here.x + dx, here.y + dy)
        if not movement.in_bounds(nxt):
            stopped_by = "the edge of the map"
            break
        if nxt not in movement.graph._adj[here]:
            stopped_by = f"a wall or closed door between {here} and {nxt}"
            break
        if nxt in movement.impassable:
            stopped_by = f"{nxt}, which blocks movement"
            break
        path.append(nxt)
    return WeaponFlight(origin, direction, distance, tuple(path), stopped_by)
