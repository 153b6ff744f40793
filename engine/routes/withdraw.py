"""Breaking away from opponents: who stands next to a mover, who flanks him, who strikes
as he leaves.

Rules-silent choices:

* "Between two opponents" uses the flanking picture: two adjacent opponents such that the
  line joining their centres passes through the mover's square(s).
* A free attack on leaving comes from each adjacent opponent holding a melee weapon; the
  rule system says when none comes (a withdrawal made first, movement that needs none).
"""

from __future__ import annotations

from dataclasses import dataclass

import shapely

from engine.grid import Square
from engine.routes.graph import MovementGraph
from engine.tokens import Token, are_opponents


def _gap(a: Square, a_size: int, b: Square, b_size: int) -> int:
    """Chebyshev gap between two footprints: 0 overlapping, 1 adjacent."""
    gap_x = max(b.x - (a.x + a_size - 1), a.x - (b.x + b_size - 1), 0)
    gap_y = max(b.y - (a.y + a_size - 1), a.y - (b.y + b_size - 1), 0)
    return max(gap_x, gap_y)


def adjacent_opponents(
    movement: MovementGraph, mover: Token, at: Square | None = None
) -> list[Token]:
    """Opponents standing next to the mover (at its square, or at ``at``)."""
    anchor = at if at is not None else mover.square
    return [
        t
        for t in movement.tokens.values()
        if t.id != mover.id
        and are_opponents(mover.side, t.side)
        and _gap(anchor, mover.size, t.square, t.size) == 1
    ]


def flanking_pair(movement: MovementGraph, mover: Token) -> tuple[str, str] | None:
    """Two adjacent opponents whose centre line crosses the mover's squares, if any."""
    near = adjacent_opponents(movement, mover)
    box = shapely.box(
        mover.square.x, mover.square.y, mover.square.x + mover.size, mover.square.y + mover.size
    )
    for i, first in enumerate(near):
        for second in near[i + 1 :]:
            line = shapely.LineString([_centre(first), _centre(second)])
            if line.crosses(box) or line.within(box):
                return (first.id, second.id)
    return None


def _centre(token: Token) -> tuple[float, float]:
    half = token.size / 2
    return (token.square.x + half, token.square.y + half)


@dataclass(frozen=True, slots=True)
class FreeAttack:
    """A free melee attack an adjacent enemy makes as the mover leaves."""

    attacker_id: str
    weapon: str


def run_free_attacks(movement: MovementGraph, mover_id: str) -> tuple[FreeAttack, ...]:
    """Adjacent armed melee enemies, each with the melee weapon it would strike with (the
    rule system drops those its conditions keep from striking)."""
    mover = movement.token(mover_id)
    attacks = []
    for enemy in adjacent_opponents(movement, mover):
        weapon = next((w for w in enemy.weapons if w.melee), None)
        if weapon is not None:
            attacks.append(FreeAttack(enemy.id, weapon.name))
    return tuple(attacks)
