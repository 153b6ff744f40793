"""Breaking away: Spycraft's Withdraw, and Cities Without Number's free attacks on a Run.

Spycraft Withdraw: up to 2x Speed in any direction, provided the first 5 ft of movement
leaves the character next to no opponent (the first 10 ft when he stands between two
opponents). Rules-silent choices:

* "Between two opponents" uses the d20 flanking picture: two adjacent opponents such that
  the line joining their centres passes through the character's square(s).
* The first 5 ft (10 ft) ends at the first square where the movement spent reaches one
  (two) squares; a diagonal-diagonal start spends 15 ft and is checked after both steps.
* After that first leg the character may go anywhere, even next to an opponent again.

Cities Without Number Run: a Move action of the normal movement rate; every adjacent
opponent holding a melee weapon gets a free melee attack as the runner leaves, unless he
made a Fighting Withdrawal first (rules-silent choice: one Fighting Withdrawal covers every
adjacent attacker) or the move is a hyper-accelerated bonus action.
"""

from __future__ import annotations

from dataclasses import dataclass

import shapely

from engine.grid import Square, squares_of_footprint
from engine.routes.graph import MovementGraph
from engine.routes.lines import HELPLESS_CONDITIONS
from engine.routes.search import Reach, Start, Walker, reach
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
class Withdrawal:
    """Where a Spycraft Withdraw may end, with routes (``reach.route_to``), or why not."""

    mover_id: str
    allowed: bool
    reach: Reach
    first_leg_squares: int
    between: tuple[str, str] | None
    reasons: tuple[str, ...] = ()


def withdraw(movement: MovementGraph, mover_id: str) -> Withdrawal:
    """Every destination of a Spycraft Withdraw within 2x Speed, with the route to each."""
    mover = movement.token(mover_id)
    walker = Walker(movement, mover)
    budget = movement.scale.squares(2 * mover.speed)
    between = flanking_pair(movement, mover)
    leg = 2 if between else 1
    threatened = _threatened(movement, mover)

    starts: list[Start] = []
    stack: list[tuple[Square, int, int, tuple[Square, ...]]] = [(mover.square, 0, 0, ())]
    while stack:
        square, parity, cost, before = stack.pop()
        for nxt, next_parity, step in walker.steps(square, parity):
            spent = cost + step
            if spent > budget:
                continue
            path = (*before, square)
            if spent < leg:
                stack.append((nxt, next_parity, spent, path))
            elif not _is_threatened(nxt, mover.size, threatened):
                starts.append(Start(nxt, spent, next_parity, path))
    area = reach(movement, mover_id, budget, starts=starts)
    reasons: tuple[str, ...] = ()
    if not starts:
        first = "10 ft" if between else "5 ft"
        reasons = (f"every first {first} of movement leaves {mover.name} next to an opponent",)
    elif not area.costs:
        reasons = ("no free square to end on within twice Speed",)
    return Withdrawal(mover.id, bool(area.costs), area, leg, between, reasons)


def _threatened(movement: MovementGraph, mover: Token) -> frozenset[Square]:
    squares: set[Square] = set()
    for token in movement.tokens.values():
        if token.id == mover.id or not are_opponents(mover.side, token.side):
            continue
        for square in token.squares:
            squares.update(square.neighbours())
    return frozenset(squares)


def _is_threatened(anchor: Square, size: int, threatened: frozenset[Square]) -> bool:
    return any(s in threatened for s in squares_of_footprint(anchor, size))


@dataclass(frozen=True, slots=True)
class FreeAttack:
    """A free melee attack an adjacent enemy makes as the mover leaves."""

    attacker_id: str
    weapon: str


@dataclass(frozen=True, slots=True)
class CwnRun:
    """A Cities Without Number Run: where it may end, and who gets a free attack."""

    mover_id: str
    reach: Reach
    free_attacks: tuple[FreeAttack, ...]
    notes: tuple[str, ...] = ()


def cwn_run(
    movement: MovementGraph,
    mover_id: str,
    *,
    fighting_withdrawal: bool = False,
    hyper_accelerated: bool = False,
) -> CwnRun:
    """Reach with the normal movement rate, and the free attacks leaving costs."""
    mover = movement.token(mover_id)
    area = reach(movement, mover_id, movement.scale.squares(mover.speed))
    attackers = run_free_attacks(movement, mover_id)
    notes: list[str] = []
    if attackers and fighting_withdrawal:
        notes.append("a Fighting Withdrawal was made first: no free attacks")
        attackers = ()
    elif attackers and hyper_accelerated:
        notes.append("hyper-accelerated movement needs no Fighting Withdrawal: no free attacks")
        attackers = ()
    return CwnRun(mover.id, area, attackers, tuple(notes))


def run_free_attacks(movement: MovementGraph, mover_id: str) -> tuple[FreeAttack, ...]:
    """Adjacent armed melee enemies, each with the melee weapon it would strike with."""
    mover = movement.token(mover_id)
    attacks = []
    for enemy in adjacent_opponents(movement, mover):
        if any(c.name.lower() in HELPLESS_CONDITIONS for c in enemy.conditions):
            continue
        weapon = next((w for w in enemy.weapons if w.melee), None)
        if weapon is not None:
            attacks.append(FreeAttack(enemy.id, weapon.name))
    return tuple(attacks)
