"""The answers the route functions give: frozen values with routes, costs and reasons."""

from __future__ import annotations

from dataclasses import dataclass

from engine.grid import GridScale, Square


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
        return f"{self.text} ({self.squares} squares)"


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
