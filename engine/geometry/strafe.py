"""Spycraft Strafe: check a chain of target squares and list the targets it makes.

What we check (in our words; the action description rules over the table, so a Strafe
costs 3 shots per square):

* the weapon has 9 or more shots left, and the chain has at most a third of them
  (rounded down) in squares, and never more than 10;
* each square touches the one before it (diagonals count), none appears twice, and all are
  on the map and in the shooter's line of sight;
* no square lies directly behind another square of the chain as seen from the shooter:
  the line from the centre of the shooter's space to its centre passes through the inside
  of the other square (grazing an edge or a corner does not count).

Every occupied square is a separate target (a large token in two squares is two targets);
in chain order from the chosen end, the targets get +2, +4, +6, ... to Defense.
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
from engine.tokens import are_opponents

SHOTS_PER_SQUARE = 3
MINIMUM_SHOTS = 9
MAXIMUM_SQUARES = 10
DEFENSE_STEP = 2


@dataclass(frozen=True)
class StrafeTarget:
    """One target of a Strafe: a token in one square, and its Defense bonus."""

    token_id: str
    square: Square
    defense_bonus: int
    opponent: bool


@dataclass(frozen=True)
class StrafeResult:
    """Whether a Strafe chain is legal, why not, its targets and the shots it spends.

    ``shape`` is the chain's squares as one geometry (square units); ``warnings`` are
    legal but worth a GM's look (a friend standing in the sweep).
    """

    legal: bool
    reasons: tuple[str, ...]
    targets: tuple[StrafeTarget, ...]
    shots: int
    squares: tuple[Square, ...]
    warnings: tuple[str, ...] = ()

    @cached_property
    def shape(self) -> shapely.Geometry:
        """The chain's squares as one geometry (made when first asked for: only drawing
        needs it)."""
        return squares_shape(self.squares)


def _behind_reasons(origin: tuple[float, float], chain: Sequence[Square]) -> list[str]:
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
    # which compares False, i.e. nothing lies behind it.
    with np.errstate(invalid="ignore"):
        through = (np.minimum(leave, 1.0) - np.maximum(enter, 0.0)) * length > 1e-9
    np.fill_diagonal(through, False)
    return [
        f"square {chain[i]} is directly behind {chain[j]} as seen from the shooter"
        for i, j in zip(*np.nonzero(through), strict=True)
    ]


def check_strafe(
    encounter: EncounterState,
    shooter_id: str,
    chain: Sequence[Square],
    weapon_name: str,
    *,
    from_end: bool = False,
) -> StrafeResult:
    """Check a Strafe along ``chain`` (in order) with the shooter's weapon.

    The Defense bonuses count from the first square, or from the last with ``from_end``.
    """
    shooter = encounter.token(shooter_id)
    weapon = shooter.weapon(weapon_name)
    squares = tuple(Square(*s) for s in chain)
    reasons: list[str] = []
    shots_left = weapon.ammo
    if shots_left < MINIMUM_SHOTS:
        reasons.append(
            f"the {weapon.name} has {shots_left} shots left; Strafe needs {MINIMUM_SHOTS} or more"
        )
    limit = min(MAXIMUM_SQUARES, shots_left // SHOTS_PER_SQUARE)
    if not squares:
        reasons.append("choose at least one square to strafe")
    elif len(squares) > limit:
        reasons.append(
            f"{len(squares)} squares is too many: with {shots_left} shots left the "
            f"{weapon.name} can strafe at most {limit}"
        )
    own_squares = frozenset(shooter.squares)
    seen: set[Square] = set()
    for before, square in zip((None, *squares), squares, strict=False):
        if square in seen:
            reasons.append(f"square {square} is strafed twice")
        seen.add(square)
        if not encounter.battlemap.in_bounds(square):
            reasons.append(f"square {square} is off the map")
        if square in own_squares:
            reasons.append(f"square {square} is the shooter's own")
        if before is not None and max(abs(square.x - before.x), abs(square.y - before.y)) > 1:
            reasons.append(f"square {square} does not touch {before}: the chain has a gap")
    on_map = [s for s in squares if encounter.battlemap.in_bounds(s)]
    if on_map:
        # A big shooter sees a square if any of its squares does.
        sees = np.zeros(len(on_map), dtype=bool)
        for own in sorted(own_squares):
            viewer = [own] * len(on_map)
            sees |= squares_see_each_other(encounter.battlemap, viewer, on_map)
        reasons.extend(
            f"the shooter cannot see square {s}"
            for s, ok in zip(on_map, sees, strict=True)
            if not ok
        )
        reasons.extend(_behind_reasons(token_centre(shooter), on_map))
    occupancy = occupancy_of(encounter)
    targets: list[StrafeTarget] = []
    warnings: list[str] = []
    ordered = reversed(squares) if from_end else iter(squares)
    for square in ordered:
        token_id = occupancy.get(square)
        if token_id is None or token_id == shooter.id:
            continue
        token = encounter.token(token_id)
        opponent = are_opponents(shooter.side, token.side)
        bonus = DEFENSE_STEP * (len(targets) + 1)
        targets.append(StrafeTarget(token.id, square, bonus, opponent))
        if not opponent:
            warnings.append(f"{token.name} is not an opponent but stands in the sweep at {square}")
    return StrafeResult(
        legal=not reasons,
        reasons=tuple(dict.fromkeys(reasons)),
        targets=tuple(targets),
        shots=SHOTS_PER_SQUARE * len(squares),
        squares=squares,
        warnings=tuple(warnings),
    )
