"""The Deviation Diagram: a random neighbouring square (d8), and a weapon sent flying.

A rule system that uses a Deviation Diagram hands the shared code a ``DeviationRule``
(``RuleSystem.deviation``): how far a weapon sent flying goes, as a dice expression, and
the d8 numbering of the eight neighbours. No rule text prints the diagram; the default
numbering (``DEVIATION_DIAGRAM``, a rules-silent choice kept as data so a table can
renumber it) is 1 up the map (north), then clockwise, 8 north-west.

* ``deviate``: a d8 picks one of the eight squares around a creature; a square that is
  occupied, off the map, impassable or across a wall from it is rolled again.
* ``weapon_flight``: a d8 direction and the rule's flight distance in squares; the weapon
  flies over creatures and stops in the last square before a wall, closed door, blocking
  cover or the map's edge.
* ``fly``: that flight for a direction and distance the caller worked out (a missed blast
  that deviates by a distance its rule multiplies and caps).

Dice come from the caller: ``roll("1d8")`` returns the total, so the turn engine passes its
seeded dice (results replay) and tests pass fixed rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.dice import DiceError, bounds_of, check_expression
from engine.grid import Square, squares_of_footprint
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph

Roll = Callable[[str], int]

#: d8 result -> (dx, dy): 1 north (up the map), clockwise to 8 north-west.
DEVIATION_DIAGRAM: Mapping[int, tuple[int, int]] = MappingProxyType({
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (1, 1),
    5: (0, 1),
    6: (-1, 1),
    7: (-1, 0),
    8: (-1, -1),
})

#: Rolling again forever would hang the app on a broken dice source.
MAX_REROLLS = 100


@dataclass(frozen=True, slots=True)
class DeviationRule:
    """A system's Deviation Diagram: ``flight``, the dice of how many squares a weapon sent
    flying goes, and ``diagram``, d8 result -> (dx, dy) of the eight neighbours."""

    flight: str
    diagram: Mapping[int, tuple[int, int]] = field(default_factory=lambda: DEVIATION_DIAGRAM)

    def __post_init__(self) -> None:
        try:
            check_expression(self.flight)
        except DiceError as error:
            raise RouteError(f"a weapon's flight: {error}") from None
        if sorted(self.diagram) != list(range(1, 9)):
            raise RouteError("a Deviation Diagram numbers the eight neighbours 1 to 8")

    @property
    def shortest_flight(self) -> int:
        return bounds_of(self.flight)[0]

    @property
    def longest_flight(self) -> int:
        return bounds_of(self.flight)[1]


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
    diagram: Mapping[int, tuple[int, int]] = DEVIATION_DIAGRAM,
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

    free = {number for number, offset in diagram.items() if usable(offset)}
    if not free:
        return Deviation(
            origin, None, (), (f"every square around {origin} is taken or walled off",)
        )
    rolls: list[int] = []
    while len(rolls) < MAX_REROLLS:
        rolls.append(_checked(roll, "1d8", 1, 8))
        if rolls[-1] in free:
            dx, dy = diagram[rolls[-1]]
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


def fly(
    movement: MovementGraph, origin: Square, step: tuple[int, int], distance: int
) -> tuple[tuple[Square, ...], str | None]:
    """Squares from ``origin`` (first) up to ``distance`` steps of ``step`` (dx, dy), over
    creatures; stopped in the last square before a wall, closed door, blocking cover or the
    map's edge (and what stopped it, or None)."""
    origin = movement.check_square(origin, "flight's start")
    path = [origin]
    for _ in range(max(0, distance)):
        here = path[-1]
        nxt = Square(here.x + step[0], here.y + step[1])
        if not movement.in_bounds(nxt):
            return tuple(path), "the edge of the map"
        # What blocks the square itself first: its edges are gone from the graph too, and
        # "a wall between" would misname a car or a pillar.
        if nxt in movement.impassable:
            return tuple(path), f"{nxt}, which blocks movement"
        if nxt not in movement.graph._adj[here]:
            return tuple(path), f"a wall or closed door between {here} and {nxt}"
        path.append(nxt)
    return tuple(path), None


def weapon_flight(
    movement: MovementGraph, origin: Square, roll: Roll, rule: DeviationRule
) -> WeaponFlight:
    """A weapon sent flying: a d8 direction, then the rule's flight in squares."""
    origin = movement.check_square(origin, "disarmed weapon's square")
    direction = _checked(roll, "1d8", 1, 8)
    distance = _checked(roll, rule.flight, rule.shortest_flight, rule.longest_flight)
    path, stopped_by = fly(movement, origin, rule.diagram[direction], distance)
    return WeaponFlight(origin, direction, distance, path, stopped_by)
