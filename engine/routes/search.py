"""Cheapest routes on the movement graph: reach within a budget, and a route to one square.

The search state is (square, diagonal parity), not the square alone: under the
alternating diagonal rule the next diagonal costs 1 square after an even number of diagonals and 2
after an odd number, so the same square reached with the same cost but a different parity
has a different future. With difficult terrain neither parity dominates the other (a
diagonal into rubble right after an odd one costs 4, after an even one 2), so both are
kept. Under the "every diagonal is 1" rule the parity is always 0.

Costs are whole squares: a step costs 1 (or 2 for the second diagonal), times the graph's
``difficult_cost`` (the rule system's) when it enters difficult terrain. A multi-square
token is moved by its top-left square; a step is open when every square of the token can
make it, and the squares it lands on are free.
Rules-silent choice: a big token does not squeeze; it needs its full footprint free.
"""

from __future__ import annotations

import heapq
import importlib.util
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from engine.grid import NEIGHBOUR_STEPS, DiagonalRule, GridScale, Square, squares_of_footprint
from engine.routes.compiled import ASTAR_BUILT, astar
from engine.routes.graph import MovementGraph
from engine.routes.reach_compiled import reach_compiled
from engine.routes.results import Cost, Reach, Route, Start
from engine.tokens import Token

State = tuple[Square, int]


def _rebuild(
    state: State,
    cost: int,
    parents: Mapping[State, State],
    before: Mapping[State, tuple[Square, ...]],
    scale: GridScale,
) -> Route:
    squares = [state[0]]
    while state in parents:
        state = parents[state]
        squares.append(state[0])
    squares.reverse()
    prefix = before.get(state, ())
    return Route((*prefix, *squares), Cost.of(cost, scale))


class Walker:
    """One mover's view of the graph: which steps it can take and what they cost."""

    def __init__(self, movement: MovementGraph, mover: Token) -> None:
        self.movement = movement
        self.mover = mover
        self.size = mover.size
        self.alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
        self.blocked, self.passable = movement.obstacles_for(mover)
        self.difficult = movement.difficult
        self.difficult_cost = movement.difficult_cost
        self.adjacency = movement.adjacency

    def can_end(self, anchor: Square) -> bool:
        if self.size == 1:
            return anchor not in self.passable and anchor not in self.blocked
        return all(
            s not in self.passable and s not in self.blocked
            for s in squares_of_footprint(anchor, self.size)
        )

    def footprint_fits(self, anchor: Square) -> bool:
        """The footprint lies on the map, on enterable squares, not split by a wall."""
        if self.size == 1:
            return self.movement.in_bounds(anchor) and anchor not in self.blocked
        squares = squares_of_footprint(anchor, self.size)
        if not all(self.movement.in_bounds(s) and s not in self.blocked for s in squares):
            return False
        adjacency = self.adjacency
        last = self.size - 1
        for s in squares:
            if s.x - anchor.x < last and Square(s.x + 1, s.y) not in adjacency[s]:
                return False
            if s.y - anchor.y < last and Square(s.x, s.y + 1) not in adjacency[s]:
                return False
        return True

    def steps(self, anchor: Square, parity: int) -> Iterator[tuple[Square, int, int]]:
        """(next anchor, its parity, step cost) for each open step."""
        alternating = self.alternating
        difficult = self.difficult
        rough = self.difficult_cost
        if self.size == 1:
            blocked = self.blocked
            for v, data in self.adjacency[anchor].items():
                if v in blocked:
                    continue
                if data["diagonal"]:
                    if alternating:
                        cost, next_parity = (2, 0) if parity else (1, 1)
                    else:
                        cost, next_parity = 1, parity
                else:
                    cost, next_parity = 1, parity
                yield v, next_parity, cost * rough if v in difficult else cost
            return
        for dx, dy in NEIGHBOUR_STEPS:
            step = self.footprint_step(anchor, dx, dy)
            if step is None:
                continue
            diagonal = dx != 0 and dy != 0
            if diagonal and alternating:
                cost, next_parity = (2, 0) if parity else (1, 1)
            else:
                cost, next_parity = 1, parity
            yield step, next_parity, cost * rough if self.lands_difficult(step) else cost

    def footprint_step(self, anchor: Square, dx: int, dy: int) -> Square | None:
        """The next anchor if the whole footprint can step by (dx, dy), else None."""
        target = Square(anchor.x + dx, anchor.y + dy)
        adjacency = self.adjacency
        for s in squares_of_footprint(anchor, self.size):
            if Square(s.x + dx, s.y + dy) not in adjacency[s]:
                return None
        return target if self.footprint_fits(target) else None

    def lands_difficult(self, anchor: Square) -> bool:
        """Rules-silent choice: a big token pays the difficult cost when any square it lands on is
        difficult."""
        if self.size == 1:
            return anchor in self.difficult
        return any(s in self.difficult for s in squares_of_footprint(anchor, self.size))

    def step_between(self, a: Square, b: Square) -> bool:
        """Whether the mover can step from anchor ``a`` to the neighbouring anchor ``b``."""
        dx, dy = b.x - a.x, b.y - a.y
        if max(abs(dx), abs(dy)) != 1:
            return False
        if self.size == 1:
            return b in self.adjacency[a] and b not in self.blocked
        return self.footprint_step(a, dx, dy) is not None


def speed_budget(movement: MovementGraph, mover_id: str, multiple: float = 1.0) -> int:
    """Whole squares in a multiple of the mover's Speed (the rule system's multiple: an
    ordinary move is 1, a double move or a Charge often 2)."""
    return movement.scale.squares(multiple * movement.token(mover_id).speed)


def reach(
    movement: MovementGraph,
    mover_id: str,
    budget: int,
    *,
    starts: Iterable[Start] | None = None,
) -> Reach:
    """Every square the mover can end on with at most ``budget`` squares of movement.

    ``starts`` defaults to the mover's own square at cost 0. The start square itself is
    not part of the answer (staying put is not a move).
    """
    return _reach(movement, mover_id, budget, starts)


def _reach(
    movement: MovementGraph, mover_id: str, budget: int, starts: Iterable[Start] | None
) -> Reach:
    mover = movement.token(mover_id)
    if budget < 0:
        raise ValueError(f"movement budget must be 0 or more squares, not {budget}")
    initial = list(starts) if starts is not None else [Start(mover.square)]
    initial = [start for start in initial if start.cost <= budget]
    if ASTAR_BUILT:
        # The same costs as the loops below, flooded in C and kept as an array.
        return reach_compiled(movement, mover, budget, initial)
    if mover.size == 1:
        if movement.difficult and movement.scale.diagonal is DiagonalRule.ALTERNATING:
            return _reach_flat(movement, mover, budget, initial)
        return _reach_halves(movement, mover, budget, initial)
    return _reach_general(movement, mover, budget, initial)


def _reach_general(
    movement: MovementGraph, mover: Token, budget: int, initial: list[Start]
) -> Reach:
    """``reach`` for a token of any size, stepping its whole footprint (the general path,
    and the reference the faster ones are checked against)."""
    walker = Walker(movement, mover)
    origin = mover.square
    best: list[dict[Square, int]] = [{}, {}]
    parents: dict[State, State] = {}
    before: dict[State, tuple[Square, ...]] = {}
    buckets: list[list[State]] = [[] for _ in range(budget + 1)]
    for start in initial:
        known = best[start.parity].get(start.square)
        if known is None or start.cost < known:
            best[start.parity][start.square] = start.cost
            before[(start.square, start.parity)] = start.before
            buckets[start.cost].append((start.square, start.parity))
    _reach_any(walker, budget, best, parents, buckets)

    costs: dict[Square, int] = {}
    chosen: dict[Square, State] = {}
    for parity in (0, 1):
        for square, cost in best[parity].items():
            if square == origin or not walker.can_end(square):
                continue
            if square not in costs or cost < costs[square]:
                costs[square] = cost
                chosen[square] = (square, parity)
    # A start state that the search improved on keeps no prefix of its own.
    before = {s: p for s, p in before.items() if s not in parents}

    def trace(square: Square) -> tuple[Square, ...]:
        return _rebuild(chosen[square], costs[square], parents, before, movement.scale).squares

    return Reach(mover.id, origin, budget, movement.scale, MappingProxyType(costs), trace)


@lru_cache(maxsize=16)
def _step_table(width: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """For each bit set of open steps: (straight index offsets, diagonal index offsets)."""
    table = []
    for bits in range(1 << len(NEIGHBOUR_STEPS)):
        straight: list[int] = []
        diagonal: list[int] = []
        for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
            if bits >> k & 1:
                (diagonal if dx and dy else straight).append(dy * width + dx)
        table.append((tuple(straight), tuple(diagonal)))
    return tuple(table)


def _reach_halves(
    movement: MovementGraph, mover: Token, budget: int, initial: list[Start]
) -> Reach:
    """``reach`` for a one-square mover when the diagonal parity needs no state of its own.

    Costs are counted in half squares: a straight step is 2, a diagonal 3 under the
    alternating rule (S straight steps and D diagonals cost S + D + D // 2 squares, which
    is the floor of (2S + 3D) / 2) or 2 otherwise, times the difficult cost into difficult
    terrain (only without the alternating rule; with it ``_reach_flat`` keeps the parity).
    The cheapest route in halves is a cheapest route in squares, and one state per square
    is about half the work of the (square, parity) search. A start of parity 1 has an odd number of
    diagonals behind it: 2 x its cost + 1 halves.
    """
    width = movement.width
    table = _step_table(width)
    mask = movement.open_mask
    blocked, difficult, no_end = movement.obstacle_arrays(mover)
    alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
    diagonal_step = 3 if alternating else 2
    top = 2 * budget + 1  # the most halves that floor to the budget
    never = top + 1
    best = [never] * (width * movement.height)
    touched: list[int] = []
    parents: dict[int, int] = {}
    before: dict[int, tuple[Square, ...]] = {}
    buckets: list[list[int]] = [[] for _ in range(top + 1)]
    for start in initial:
        index = start.square.y * width + start.square.x
        halves = 2 * start.cost + (start.parity if alternating else 0)
        if halves < best[index]:
            if best[index] == never:
                touched.append(index)
            best[index] = halves
            before[index] = start.before
            buckets[halves].append(index)

    for halves in range(top + 1):
        for index in buckets[halves]:
            if best[index] != halves:
                continue
            straight, diagonal = table[mask[index]]
            for offsets, step in ((straight, 2), (diagonal, diagonal_step)):
                base = halves + step
                if base > top or not offsets:
                    continue
                for offset in offsets:
                    v = index + offset
                    if blocked[v]:
                        continue
                    new = base
                    if difficult is not None and difficult[v]:
                        new += step * difficult[v]
                        if new > top:
                            continue
                    old = best[v]
                    if new < old:
                        if old == never:
                            touched.append(v)
                        best[v] = new
                        parents[v] = index
                        buckets[new].append(v)

    origin_index = mover.square.y * width + mover.square.x
    make = tuple.__new__  # skips NamedTuple's Python-level __new__ on the hot path
    costs = {
        make(Square, (i % width, i // width)): best[i] // 2
        for i in touched
        if not no_end[i] and i != origin_index
    }

    def trace(square: Square) -> tuple[Square, ...]:
        index = square.y * width + square.x
        chain = [index]
        while index in parents:
            index = parents[index]
            chain.append(index)
        chain.reverse()
        # A start the search reached more cheaply another way has a parent, so the
        # prefix used is the one of the start the route really begins at.
        prefix = before.get(chain[0], ())
        return (*prefix, *(Square(i % width, i // width) for i in chain))

    return Reach(mover.id, mover.square, budget, movement.scale, MappingProxyType(costs), trace)


def _reach_flat(movement: MovementGraph, mover: Token, budget: int, initial: list[Start]) -> Reach:
    """``reach`` for a one-square mover on the flat mirror of the graph (the hot loop).

    States are integers, ``index * 2 + parity`` with ``index = y * width + x``. Without
    difficult terrain a cheaper-or-equal state of parity 0 makes the same square at
    parity 1 pointless (its next diagonal costs 1 instead of 2), and parity 1 at cost c is
    never worse than parity 0 at cost c + 1; such states are not queued.
    """
    width = movement.width
    table = _step_table(width)
    mask = movement.open_mask
    blocked, difficult, no_end = movement.obstacle_arrays(mover)
    alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
    prune = alternating and difficult is None
    never = budget + 2
    # Flat lists, not dicts (a list index is about twice as fast as a dict lookup); the
    # squares each parity reached are listed in ``touched`` for the answer.
    cells = width * movement.height
    best: tuple[list[int], list[int]] = ([never] * cells, [never] * cells)
    touched: tuple[list[int], list[int]] = ([], [])
    parents: dict[int, int] = {}
    before: dict[int, tuple[Square, ...]] = {}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    for start in initial:
        index = start.square.y * width + start.square.x
        if start.cost < best[start.parity][index]:
            if best[start.parity][index] == never:
                touched[start.parity].append(index)
            best[start.parity][index] = start.cost
            before[index * 2 + start.parity] = start.before
            buckets[start.cost].append(index * 2 + start.parity)

    for cost in range(budget + 1):
        for state in buckets[cost]:
            index, parity = state >> 1, state & 1
            if best[parity][index] != cost:
                continue
            straight, diagonal = table[mask[index]]
            if alternating:
                diagonal_step, diagonal_parity = (2, 0) if parity else (1, 1)
            else:
                diagonal_step, diagonal_parity = 1, parity
            for offsets, step, next_parity in (
                (straight, 1, parity),
                (diagonal, diagonal_step, diagonal_parity),
            ):
                base = cost + step
                if base > budget or not offsets:
                    continue
                mine, rival = best[next_parity], best[next_parity ^ 1]
                reached = touched[next_parity]
                slack = 0 if next_parity else 1
                for offset in offsets:
                    v = index + offset
                    if blocked[v]:
                        continue
                    new = base
                    if difficult is not None and difficult[v]:
                        new += step * difficult[v]
                        if new > budget:
                            continue
                    if prune and rival[v] <= new - slack:
                        continue
                    old = mine[v]
                    if new < old:
                        if old == never:
                            reached.append(v)
                        mine[v] = new
                        parents[v * 2 + next_parity] = state
                        buckets[new].append(v * 2 + next_parity)

    origin_index = mover.square.y * width + mover.square.x
    final_cost: dict[int, int] = {}
    final_state: dict[int, int] = {}
    for parity in (0, 1):
        costs_of = best[parity]
        for index in touched[parity]:
            cost = costs_of[index]
            if no_end[index]:
                continue
            known = final_cost.get(index)
            if known is None or cost < known:
                final_cost[index] = cost
                final_state[index] = index * 2 + parity
    final_cost.pop(origin_index, None)
    make = tuple.__new__  # skips NamedTuple's Python-level __new__ on the hot path
    costs = {make(Square, (i % width, i // width)): c for i, c in final_cost.items()}

    def trace(square: Square) -> tuple[Square, ...]:
        return _trace_flat(final_state[square.y * width + square.x], parents, before, width)

    return Reach(mover.id, mover.square, budget, movement.scale, MappingProxyType(costs), trace)


def _trace_flat(
    state: int, parents: Mapping[int, int], before: Mapping[int, tuple[Square, ...]], width: int
) -> tuple[Square, ...]:
    states = [state]
    while state in parents:
        state = parents[state]
        states.append(state)
    states.reverse()
    # A start state that the search reached more cheaply another way has a parent, so
    # the prefix used is the one of the start the route really begins at.
    prefix = before.get(states[0], ())
    return (*prefix, *(Square((s >> 1) % width, (s >> 1) // width) for s in states))


def _reach_any(
    walker: Walker,
    budget: int,
    best: list[dict[Square, int]],
    parents: dict[State, State],
    buckets: list[list[State]],
) -> None:
    """Dial's algorithm (a bucket per whole-square cost) over (square, parity) states."""
    steps = walker.steps
    for cost in range(budget + 1):
        for state in buckets[cost]:
            u, parity = state
            if best[parity][u] != cost:
                continue
            for v, next_parity, step in steps(u, parity):
                new = cost + step
                if new > budget:
                    continue
                table = best[next_parity]
                old = table.get(v)
                if old is None or new < old:
                    table[v] = new
                    parents[(v, next_parity)] = state
                    buckets[new].append((v, next_parity))


def _estimate(a: Square, goal: Square, parity: int, alternating: bool) -> int:
    """Cost of the open-ground route from a to goal: a lower bound that walls only raise."""
    dx, dy = abs(a.x - goal.x), abs(a.y - goal.y)
    diagonals = min(dx, dy)
    straight = max(dx, dy) - diagonals
    if not alternating:
        return diagonals + straight
    return straight + diagonals + (diagonals + parity) // 2


def _stray(index: int, width: int, start: Square, line: tuple[int, int]) -> int:
    """How far square ``index`` strays from the straight line from ``start`` along ``line``
    (the goal minus the start): the cross product's size, its distance times the line's length.
    """
    y, x = divmod(index, width)
    cross = line[0] * (y - start.y) - line[1] * (x - start.x)
    return cross if cross >= 0 else -cross


def _stray_estimate(stray: int, reach: int) -> int:
    """The least straying still to come from a square that strays ``stray``: a step moves the
    cross product by at most ``reach`` (|line x| + |line y|), so the squares back to the
    line stray at least stray - reach, stray - 2 reach, ... (a consistent lower bound)."""
    if reach == 0:
        return 0
    m = stray // reach
    return m * stray - reach * m * (m + 1) // 2


def cheapest_route(
    movement: MovementGraph,
    mover_id: str,
    goal: Square,
    *,
    budget: int | None = None,
) -> Route | None:
    """The cheapest route for the mover to end on ``goal`` (A*), or None when there is none.

    The mover may not end on another token's square; ``budget`` (squares) caps the cost.
    The estimate is the open-ground cost (exact without walls, so A* stays narrow there);
    states dominated by the other parity are skipped as in ``reach``. Of the routes of
    least cost, the compiled search and its Python twin return one that strays least from
    the straight line (see ``_a_star_flat``), so a route does not swerve round an ally for
    nothing; the SciPy search, used only where the compiled one is not built, does not
    break ties so.
    """
    mover = movement.token(mover_id)
    goal = movement.check_square(goal, "route goal")
    walker = Walker(movement, mover)
    if not walker.footprint_fits(goal) or not walker.can_end(goal):
        return None
    limit = budget if budget is not None else 1 << 30
    # The open-ground cost is a lower bound: a goal beyond the budget even without walls
    # is answered at once, whatever lies between.
    if _estimate(mover.square, goal, 0, walker.alternating) > limit:
        return None
    if mover.size == 1:
        if ASTAR_BUILT:
            return _route_compiled(movement, mover, goal, limit)
        # Within a small budget A* stays near the mover anyway; the flood from the goal
        # only pays off when the search could otherwise cover the map.
        if limit > SHUT_IN_BUDGET and _goal_shut_in(movement, mover, goal):
            return None
        if not HAVE_SCIPY:
            route = _route_flat(movement, mover, goal, limit)
        elif _estimate(mover.square, goal, 0, walker.alternating) >= SPARSE_FROM:
            route = _route_sparse(movement, mover, goal, limit)
        else:
            try:
                route = _route_flat(movement, mover, goal, limit, POPS_BEFORE_SPARSE)
            except _GaveUp:
                route = _route_sparse(movement, mover, goal, limit)
    else:
        route = _route_any(movement, walker, goal, limit)
    return route


def _route_compiled(
    movement: MovementGraph, mover: Token, goal: Square, limit: int
) -> Route | None:
    """``_route_flat``'s A* run in C (``engine/routes/_astar.c``), same states and order.

    Beyond a small budget, a goal the mover cannot reach at all (a shut room, however
    big) is answered from the squares it can reach, found once per mover and map state,
    instead of by a search that would cover its whole side of the map.
    """
    width = movement.width
    goal_index = goal.y * width + goal.x
    if limit > SHUT_IN_BUDGET and not movement.reachable_from(mover)[goal_index]:
        return None
    blocked, difficult, _ = movement.obstacle_arrays(mover)
    found = astar.route(
        movement.open_bytes,
        blocked,
        difficult,
        width,
        movement.height,
        movement.scale.diagonal is DiagonalRule.ALTERNATING,
        mover.square.y * width + mover.square.x,
        goal_index,
        limit,
    )
    if found is None:
        return None
    indices, cost = found
    squares = tuple(Square(i % width, i // width) for i in indices)
    return Route(squares, Cost.of(cost, movement.scale))


#: SciPy runs long routes in C. Without it (the standalone build leaves it out to keep
#: within its size budget) every route is the Python A*, with the same costs, only slower.
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None
#: From this open-ground estimate (squares) on, a one-square mover's route is searched in
#: C by ``engine.routes.state_graph``; shorter ones stay in Python, where setting up the
#: arrays (about 5 ms on a 200x200 map) would cost more than the search.
SPARSE_FROM = 80
#: A shorter route whose detours keep the Python A* busy for this many states (about
#: 4 ms) is handed to the SciPy search, which costs about that much whatever the detour.
POPS_BEFORE_SPARSE = 1_000


def _route_sparse(movement: MovementGraph, mover: Token, goal: Square, limit: int) -> Route | None:
    """The same A* as ``_route_flat`` (same costs), run by SciPy over the state arrays."""
    width = movement.width
    blocked, _, _ = movement.obstacle_arrays(mover)
    found = movement.state_steps().route_squares(
        mover.square.y * width + mover.square.x,
        goal.y * width + goal.x,
        np.flatnonzero(np.frombuffer(blocked, dtype=np.uint8)),
        float(limit),
    )
    if found is None:
        return None
    indices, cost = found
    squares = tuple(Square(i % width, i // width) for i in indices)
    return Route(squares, Cost.of(cost, movement.scale))


#: How many squares ``_goal_shut_in`` floods around the goal (a room of about 24 x 24)
#: before leaving the question to A*.
SHUT_IN_LOOKAROUND = 600
#: Up to this budget (squares) A* settles at most a few hundred states around the mover,
#: about what the flood from the goal would cost, so the flood is skipped.
SHUT_IN_BUDGET = 12


def _goal_shut_in(movement: MovementGraph, mover: Token, goal: Square) -> bool:
    """Whether the goal lies in a small closed pocket without the mover (a shut room).

    Without this, A* toward an unreachable goal would search the mover's whole side of the
    map before saying "no route"; a flood from the goal side settles it in a moment.
    """
    width = movement.width
    table = _step_table(width)
    mask = movement.open_mask
    blocked, _, _ = movement.obstacle_arrays(mover)
    start = mover.square.y * width + mover.square.x
    first = goal.y * width + goal.x
    seen = {first}
    # Breadth first: a goal near the mover (a drag's usual case) meets the start in a few
    # rings instead of wandering the lookaround; the answer is the same either way.
    frontier = deque([first])
    while frontier:
        index = frontier.popleft()
        straight, diagonal = table[mask[index]]
        for offsets in (straight, diagonal):
            for offset in offsets:
                v = index + offset
                if v == start:
                    return False
                if v in seen or blocked[v]:
                    continue
                seen.add(v)
                if len(seen) > SHUT_IN_LOOKAROUND:
                    return False
                frontier.append(v)
    return True


class _GaveUp(Exception):
    """The Python A* settled ``max_pops`` states without reaching the goal."""


def _route_flat(
    movement: MovementGraph, mover: Token, goal: Square, limit: int, max_pops: int | None = None
) -> Route | None:
    """A* for a one-square mover on the flat mirror; heap entries are single integers.

    With ``max_pops`` it raises ``_GaveUp`` after taking that many states off the queue,
    so that a route with a long detour can be handed to the SciPy search instead.
    """
    start = mover.square.y * movement.width + mover.square.x
    never = 1 << 40
    # Flat lists, not dicts: a long route touches a good part of the map anyway. They are
    # the graph's scratch lists when free (every entry ``never``; only the states this
    # search reached are reset after it), so a short search does not pay for the map.
    scratch = movement.take_scratch(never)
    parents: dict[int, int] = {}
    try:
        return _a_star_flat(movement, mover, goal, limit, max_pops, scratch, parents, never)
    finally:
        best = scratch
        best[0][start] = never
        for child in parents:
            best[child & 1][child >> 1] = never
        movement.give_back_scratch(scratch, never)


def _a_star_flat(
    movement: MovementGraph,
    mover: Token,
    goal: Square,
    limit: int,
    max_pops: int | None,
    best: tuple[list[int], list[int]],
    parents: dict[int, int],
    never: int,
) -> Route | None:
    """The loop of ``_route_flat`` on ``best`` (all ``never``), filling ``parents``.

    A state's label is (cost, straying so far): each square entered adds ``_stray``, its
    distance from the straight line start-goal, and labels compare cost first. The queue
    orders by estimated total, then straying so far plus ``_stray_estimate``, then depth,
    so the first route to reach the goal is, of those of least cost, one that strays
    least: the straightest-looking, and the same on every run.
    """
    width = movement.width
    table = _step_table(width)
    mask = movement.open_mask
    blocked, difficult, _ = movement.obstacle_arrays(mover)
    alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
    prune = alternating and difficult is None
    gx, gy = goal
    goal_index = gy * width + gx
    start = mover.square.y * width + mover.square.x
    line = (gx - mover.square.x, gy - mover.square.y)
    reach = abs(line[0]) + abs(line[1])
    # Heap key: estimate total, then estimated straying, then deeper states first (larger
    # cost so far), then state. Straying is at most a cross product per state, plus the
    # estimate of one more.
    state_bits = (2 * width * movement.height).bit_length()
    widest = abs(line[0]) * movement.height + abs(line[1]) * width
    stray_bits = ((2 * width * movement.height + widest) * widest).bit_length()
    cost_bits = 32
    deepest = (1 << cost_bits) - 1
    low_bits = cost_bits + state_bits
    best[0][start] = 0
    strays = {start * 2: 0}  # the straying of each state reached, by state
    queue = [
        (_estimate(mover.square, goal, 0, alternating) << (stray_bits + low_bits))
        | (deepest << state_bits)
        | (start * 2)
    ]
    state_mask = (1 << state_bits) - 1
    stray_mask = (1 << stray_bits) - 1
    pop, push = heapq.heappop, heapq.heappush
    while queue:
        key = pop(queue)
        if max_pops is not None:
            max_pops -= 1
            if max_pops < 0:
                raise _GaveUp
        state = key & state_mask
        cost = deepest - ((key >> state_bits) & deepest)
        index, parity = state >> 1, state & 1
        strayed = strays[state]
        queued = (key >> low_bits) & stray_mask
        if best[parity][index] != cost or queued != strayed + _stray_estimate(
            _stray(index, width, mover.square, line), reach
        ):
            continue
        # Found dominated by the other parity since it was queued (no dearer, and if as
        # dear no more strayed): nothing new to learn.
        if prune:
            other, bound = best[parity ^ 1][index], cost - (1 - parity)
            if other < bound or (other == bound and strays[state ^ 1] <= strayed):
                continue
        if index == goal_index:
            squares = _trace_flat(state, parents, {}, width)
            return Route(squares, Cost.of(cost, movement.scale))
        straight, diagonal = table[mask[index]]
        if alternating:
            diagonal_step, diagonal_parity = (2, 0) if parity else (1, 1)
        else:
            diagonal_step, diagonal_parity = 1, parity
        for offsets, step, next_parity in (
            (straight, 1, parity),
            (diagonal, diagonal_step, diagonal_parity),
        ):
            base = cost + step
            if base > limit or not offsets:
                continue
            mine, rival = best[next_parity], best[next_parity ^ 1]
            slack = 0 if next_parity else 1
            for offset in offsets:
                v = index + offset
                if blocked[v]:
                    continue
                new = base
                if difficult is not None and difficult[v]:
                    new += step * difficult[v]
                    if new > limit:
                        continue
                child = v * 2 + next_parity
                here = _stray(v, width, mover.square, line)
                strayed_v = strayed + here
                if prune and (rival[v] < new - slack or (
                        rival[v] == new - slack and strays[child ^ 1] <= strayed_v)):
                    continue
                if new < mine[v] or (new == mine[v] and strayed_v < strays[child]):
                    mine[v] = new
                    strays[child] = strayed_v
                    parents[child] = state
                    dy, dx = divmod(v, width)
                    dx = dx - gx if dx > gx else gx - dx
                    dy = dy - gy if dy > gy else gy - dy
                    if dx > dy:
                        dx, dy = dy, dx
                    # dx is now the diagonal count, dy - dx the straight steps.
                    estimate = dy + (dx + next_parity) // 2 if alternating else dy
                    push(
                        queue,
                        ((new + estimate) << (stray_bits + low_bits))
                        | ((strayed_v + _stray_estimate(here, reach)) << low_bits)
                        | ((deepest - new) << state_bits)
                        | child,
                    )
    return None


def _route_any(movement: MovementGraph, walker: Walker, goal: Square, limit: int) -> Route | None:
    """A* for a token of any size, stepping its whole footprint (the slower, general path).

    Labels are (cost, straying) as in ``_a_star_flat``: of the cheapest routes, the anchor's
    path that strays least from the straight line wins."""
    start = walker.mover.square
    alternating = walker.alternating
    width = movement.width
    line = (goal.x - start.x, goal.y - start.y)
    reach = abs(line[0]) + abs(line[1])
    best: dict[State, tuple[int, int]] = {(start, 0): (0, 0)}
    parents: dict[State, State] = {}
    queue: list[tuple[int, int, int, Square, int]] = [
        (_estimate(start, goal, 0, alternating), 0, 0, start, 0)
    ]
    while queue:
        _, queued, negative_cost, u, parity = heapq.heappop(queue)
        cost = -negative_cost
        label = best[(u, parity)]
        if label != (cost, queued - _stray_estimate(_stray(u.y * width + u.x, width, start,
                                                              line), reach)):
            continue  # a better label came since
        if u == goal:
            return _rebuild((u, parity), cost, parents, {}, movement.scale)
        for v, next_parity, step in walker.steps(u, parity):
            new = cost + step
            if new > limit:
                continue
            key = (v, next_parity)
            here = _stray(v.y * width + v.x, width, start, line)
            strayed = label[1] + here
            old = best.get(key)
            if old is None or (new, strayed) < old:
                best[key] = (new, strayed)
                parents[key] = (u, parity)
                estimate = _estimate(v, goal, next_parity, alternating)
                heapq.heappush(queue, (new + estimate, strayed + _stray_estimate(here, reach),
                                       -new, v, next_parity))
    return None
