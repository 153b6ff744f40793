"""A chain of squares swept by fire, as seen from a shooter: which squares are refused, and why.

The shape checks of a sweep across adjacent squares (a Strafe is one), with no rule
numbers: how many squares, shots and Defense steps a sweep has is the rule system's business.

* each square touches the one before it (diagonals count), none appears twice, and all are
  on the map, not under the shooter, and in the shooter's line of sight;
* no square lies directly behind another square of the chain as seen from the shooter:
  the line from the centre of the shooter's space to its centre passes through the inside
  of the other square (grazing an edge or a corner does not count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from engine.encounter import EncounterState
from engine.geometry._index import occupancy_of
from engine.geometry.areas import token_centre
from engine.geometry.los import squares_see_each_other
from engine.geometry.results import squares_shape
from engine.grid import Square


@dataclass(frozen=True)
class ChainCheck:
    """A swept chain: its squares in order, who stands on each (a token id or None), and
    each refusal as (square, reason)."""

    squares: tuple[Square, ...]
    occupants: tuple[str | None, ...]
    problems: tuple[tuple[Square, str], ...]

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(reason for _, reason in self.problems))

    def reasons_at(self, square: Square) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r for s, r in self.problems if s == square))

    @cached_property
    def shape(self) -> shapely.Geometry:
        """The chain's squares as one geometry (made when first asked for: only drawing
        needs it)."""
        return squares_shape(self.squares)


def _behind(origin: tuple[float, float], chain: Sequence[Square]) -> list[tuple[Square, str]]:
    """Squares of the chain whose centre line from the shooter passes through another."""
    xy = np.asarray(chain, dtype=np.float64)
    here = np.asarray(origin, dtype=np.float64).reshape(2, 1, 1)
    # Line i runs from the origin to the centre of square i; clip it to every square j
    # (Liang-Barsky, both axes at once: index 0 is x, 1 is y) and see whether a piece of
    # positive length lies inside.
    d = (xy.T + 0.5)[:, :, None] - here  # (axis, i, 1)
    low = xy.T[:, None, :]  # (axis, 1, j)
    with np.errstate(divide="ignore", invalid="ignore"):
        t0, t1 = (low - here) / d, (low + 1 - here) / d
    inside = (here > low) & (here < low + 1)
    flat = d == 0
    enter = np.where(flat, np.where(inside, -np.inf, np.inf), np.minimum(t0, t1)).max(axis=0)
    leave = np.where(flat, np.where(inside, np.inf, -np.inf), np.maximum(t0, t1)).min(axis=0)
    length = np.hypot(d[0], d[1])
    # A chain square centred on the shooter has no line (length 0): inf * 0 is NaN there,
    # which compares False, i.e. nothing lies behind it. A line that only grazes a corner
    # (a piece shorter than a millionth of a square, rounding's doing) is not "through".
    with np.errstate(invalid="ignore"):
        through = (np.minimum(leave, 1.0) - np.maximum(enter, 0.0)) * length > 1e-6
    np.fill_diagonal(through, False)
    return [
        (chain[i], f"square {chain[i]} is directly behind {chain[j]} as seen from the shooter")
        for i, j in zip(*np.nonzero(through), strict=True)
    ]


def check_chain(encounter: EncounterState, shooter_id: str, chain: Sequence[Square]) -> ChainCheck:
    """Check the shape of a sweep along ``chain`` (in order) by the shooter."""
    shooter = encounter.token(shooter_id)
    squares = tuple(Square(*s) for s in chain)
    problems: list[tuple[Square, str]] = []
    own_squares = frozenset(shooter.squares)
    seen: set[Square] = set()
    for before, square in zip((None, *squares), squares, strict=False):
        if square in seen:
            problems.append((square, f"square {square} is strafed twice"))
        seen.add(square)
        if not encounter.battlemap.in_bounds(square):
            problems.append((square, f"square {square} is off the map"))
        if square in own_squares:
            problems.append((square, f"square {square} is the shooter's own"))
        if before is not None and max(abs(square.x - before.x), abs(square.y - before.y)) > 1:
            problems.append(
                (square, f"square {square} does not touch {before}: the chain has a gap")
            )
    on_map = [s for s in squares if encounter.battlemap.in_bounds(s)]
    if on_map:
        # A big shooter sees a square if any of its squares does.
        sees = np.zeros(len(on_map), dtype=bool)
        for own in sorted(own_squares):
            viewer = [own] * len(on_map)
            sees |= squares_see_each_other(encounter.battlemap, viewer, on_map)
        problems.extend(
            (s, f"the shooter cannot see square {s}")
            for s, ok in zip(on_map, sees, strict=True)
            if not ok
        )
        problems.extend(_behind(token_centre(shooter), on_map))
    occupancy = occupancy_of(encounter)
    return ChainCheck(squares, tuple(occupancy.get(s) for s in squares), tuple(problems))
