"""The answers the route functions give: frozen values with routes, costs and reasons."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.grid import GridScale, Square
from engine.words import counted


@dataclass(frozen=True, slots=True)
class Cost:
    """A distance moved, in squares and in the system's unit (30 ft, 6", 9 m)."""

    squares: int
    distance: float
    unit: str
    text: str

    @classmethod
    def of(cls, squares: int, scale: GridScale) -> Cost:
        return cls(squares, scale.distance(squares), scale.unit.value, scale.describe(squares))

    def __str__(self) -> str:
        return f"{self.text} ({counted(self.squares, 'square')})"


@dataclass(frozen=True, slots=True)
class Route:
    """Squares in order (the mover's top-left square; the start first) and what they cost."""

    squares: tuple[Square, ...]
    cost: Cost

    @property
    def start(self) -> Square:
        return self.squares[0]

    @property
    def end(self) -> Square:
        return self.squares[-1]

    def describe(self) -> str:
        path = " -> ".join(str(s) for s in self.squares)
        return f"{path}: {self.cost}"


@dataclass(frozen=True, slots=True)
class Start:
    """Where a search begins: a square, the diagonal parity and cost so far, and the
    squares walked before it (a first leg walked under other rules)."""

    square: Square
    cost: int = 0
    parity: int = 0
    before: tuple[Square, ...] = ()


@dataclass(frozen=True)
class Reach:
    """Every square a mover can end on within a budget, with the cheapest route to each.

    ``costs`` maps each reachable square (the mover's top-left square) to its cheapest
    cost in squares; ``route_to`` rebuilds the route to one of them. Where the route
    search is compiled, ``costs`` is a ``reach_compiled.ReachCosts``: a view over an array
    per square that makes its dict only when iterated (a whole map is 40,000 entries).
    """

    mover_id: str
    start: Square
    budget: int
    scale: GridScale
    costs: Mapping[Square, int]
    _trace: Callable[[Square], tuple[Square, ...]] = field(repr=False, compare=False)

    @property
    def squares(self) -> frozenset[Square]:
        return frozenset(self.costs)

    def __contains__(self, square: object) -> bool:
        return square in self.costs

    def route_to(self, square: Square) -> Route:
        square = Square(*square)
        if square not in self.costs:
            raise KeyError(f"square {square} is not within reach of {self.mover_id}")
        return Route(self._trace(square), Cost.of(self.costs[square], self.scale))
