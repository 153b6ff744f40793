"""The ruler: a route through waypoints measured with the system's diagonal rule and units.

A GM measures "from here, round that crate, to there": the route runs straight (the
fewest squares) from each waypoint to the next. Under the alternating rule (diagonals
cost one square, then two) they are counted along the whole route, not leg by leg, so a route
through waypoints costs what the same squares walked in one go would (as Foundry VTT's
5/10/5 ruler does). Walls and terrain are not considered: this is a tape measure, not a
move (a move's cost is the rule system's preview). :attr:`Measurement.overlay` is what the
map draws of it, through the same painter as a preview's overlay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.grid import GridScale, Square, step_cost
from engine.overlay import Overlay, OverlayNote, OverlayRoute, Tone
from engine.words import counted


@dataclass(frozen=True, slots=True)
class Leg:
    """One straight stretch between two waypoints: its squares and its distance."""

    start: Square
    end: Square
    squares: int
    distance: float


@dataclass(frozen=True, slots=True)
class Measurement:
    """The legs of a measured route (from ``start``), their total, and how the scale says a
    distance."""

    start: Square
    legs: tuple[Leg, ...]
    scale: GridScale

    @property
    def squares(self) -> int:
        return sum(leg.squares for leg in self.legs)

    @property
    def distance(self) -> float:
        return self.scale.distance(self.squares)

    def words(self, squares: int) -> str:
        """``3 squares, 15 ft`` (the unit the system measures in)."""
        return f"{counted(squares, 'square')}, {self.scale.describe(squares)}"

    def leg_words(self, index: int) -> str:
        return self.words(self.legs[index].squares)

    @property
    def total_words(self) -> str:
        return self.words(self.squares)

    @property
    def waypoints(self) -> tuple[Square, ...]:
        """The start, then where each leg ends."""
        return (self.start, *(leg.end for leg in self.legs))

    @property
    def overlay(self) -> Overlay:
        """What the map draws: the line through the waypoints (a measurement, so it runs
        square centre to square centre whoever stands there) and, where each leg ends, its
        distance; the last leg's note adds the total when there are several legs."""
        route = OverlayRoute(self.waypoints, self.total_words, Tone.INFO, walked=False)
        notes = []
        for index, leg in enumerate(self.legs):
            text = self.leg_words(index)
            if index == len(self.legs) - 1 and index > 0:
                text += f"\ntotal {self.total_words}"
            notes.append(OverlayNote(leg.end, text))
        return Overlay(routes=(route,), notes=tuple(notes))


def measure(waypoints: Sequence[Square], scale: GridScale) -> Measurement:
    """Measure the route through ``waypoints`` (at least one) under ``scale``."""
    if not waypoints:
        raise ValueError("a measurement needs at least one waypoint")
    legs: list[Leg] = []
    diagonals = 0  # diagonal steps taken so far along the whole route
    for start, end in pairwise(waypoints):
        dx, dy = abs(end.x - start.x), abs(end.y - start.y)
        straight, diagonal = abs(dx - dy), min(dx, dy)
        cost = straight
        for _ in range(diagonal):
            cost += step_cost(diagonals, True, scale.diagonal)
            diagonals += 1
        legs.append(Leg(start, end, cost, scale.distance(cost)))
    return Measurement(Square(*waypoints[0]), tuple(legs), scale)

