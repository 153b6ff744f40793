"""The square grid: squares, scale and the diagonal rule of the system in play.

Coordinates: a square is ``Square(x, y)`` with x growing to the right and y growing
downwards, as in Universal VTT and on screen. A point is a pair of floats in square
units, so square (x, y) spans [x, x+1] x [y, y+1] and its centre is (x+0.5, y+0.5).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

Point = tuple[float, float]


class Square(NamedTuple):
    """One grid square, by column (x) and row (y)."""

    x: int
    y: int

    @property
    def centre(self) -> Point:
        return (self.x + 0.5, self.y + 0.5)

    def neighbours(self) -> Iterator[Square]:
        """The eight squares around this one (they may lie off the map)."""
        for dx, dy in NEIGHBOUR_STEPS:
            yield Square(self.x + dx, self.y + dy)

    def offset(self, dx: int, dy: int) -> Square:
        return Square(self.x + dx, self.y + dy)

    def __str__(self) -> str:
        return f"({self.x},{self.y})"


NEIGHBOUR_STEPS: tuple[tuple[int, int], ...] = (
    (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
)


class DiagonalRule(StrEnum):
    """How a diagonal step is counted."""

    #: The first diagonal costs 1 square, the second 2, then 1, 2, ...
    ALTERNATING = "alternating"
    #: Every diagonal costs 1 square, as a straight step does.
    ONE = "one"


class Unit(StrEnum):
    FEET = "ft"
    INCHES = "in"  # tabletop inches; one inch is two yards in the fiction
    METRES = "m"

    @property
    def metres(self) -> float:
        """How many metres one of this unit stands for in the fiction."""
        return _METRES_PER_UNIT[self]


#: Fictional yards covered by one tabletop inch (the miniatures scale the inch unit means).
YARDS_PER_INCH = 2
_METRES_PER_YARD = 0.9144
_METRES_PER_UNIT = {
    Unit.FEET: _METRES_PER_YARD / 3,
    Unit.INCHES: YARDS_PER_INCH * _METRES_PER_YARD,
    Unit.METRES: 1.0,
}


@dataclass(frozen=True, slots=True)
class GridScale:
    """What one square measures, and how diagonals count."""

    square_size: float = 5.0
    unit: Unit = Unit.FEET
    diagonal: DiagonalRule = DiagonalRule.ALTERNATING

    def __post_init__(self) -> None:
        if not (math.isfinite(self.square_size) and self.square_size > 0):
            raise ValueError(f"square size must be a positive number, not {self.square_size}")

    def squares(self, distance: float) -> int:
        """Whole squares that fit in a distance given in this scale's unit (rounded down)."""
        return math.floor(distance / self.square_size + 1e-9)

    def distance(self, squares: float) -> float:
        """A count of squares as a distance in this scale's unit."""
        return squares * self.square_size

    def describe(self, squares: float) -> str:
        """A distance in squares as a GM reads it, e.g. ``30 ft`` or ``6" (12 yd)``."""
        value = self.distance(squares)
        text = f"{value:g} {self.unit.value}"
        if self.unit is Unit.INCHES:
            text = f'{value:g}" ({value * YARDS_PER_INCH:g} yd)'
        return text


#: 5-ft squares, diagonals alternating: a rule system's scale unless it declares its own
#: (``RuleSystem.scale``; a map may override its own).
FIVE_FOOT = GridScale(5.0, Unit.FEET, DiagonalRule.ALTERNATING)


def step_cost(diagonals_before: int, diagonal: bool, rule: DiagonalRule) -> int:
    """Squares a single step costs, given how many diagonal steps came before it."""
    if not diagonal or rule is DiagonalRule.ONE:
        return 1
    return 2 if diagonals_before % 2 == 1 else 1


def distance_squares(a: Square, b: Square, rule: DiagonalRule) -> int:
    """Grid distance in squares between two squares under a diagonal rule."""
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    diagonals, straight = min(dx, dy), abs(dx - dy)
    if rule is DiagonalRule.ONE:
        return diagonals + straight
    return straight + diagonals + diagonals // 2


def path_cost_squares(path: Iterable[Square], rule: DiagonalRule) -> int:
    """Cost in squares of walking a path square by square (terrain ignored)."""
    cost = 0
    diagonals = 0
    previous: Square | None = None
    for square in path:
        if previous is not None:
            is_diagonal = previous.x != square.x and previous.y != square.y
            cost += step_cost(diagonals, is_diagonal, rule)
            diagonals += is_diagonal
        previous = square
    return cost


def squares_of_footprint(origin: Square, size: int) -> tuple[Square, ...]:
    """Every square a token of ``size`` x ``size`` squares covers, top-left at ``origin``."""
    if size == 1:  # most tokens: no generator for one square
        return (origin if type(origin) is Square else Square(origin.x, origin.y),)
    return tuple(Square(origin.x + dx, origin.y + dy) for dy in range(size) for dx in range(size))
