"""The movement graph as arrays, for long routes searched in C (SciPy).

A one-square mover's cheapest route is a shortest path over states. Under the
alternating diagonal rule the state is (square, diagonal parity), ``index * 2 + parity`` with
``index = y * width + x`` (parity 1: the next diagonal costs 2), because with difficult
terrain the parity changes what a later step costs. Without difficult terrain one state
per square is enough: a path of S straight steps and D diagonals costs
``S + D + D // 2 = floor(S + 1.5 D)``, so the cheapest route under diagonals of 1.5 is
also a cheapest route under the alternating rule, and flooring its cost gives the exact
cost. Under "every diagonal is 1" the state is the square too.

``StateSteps`` keeps the graph as a compressed sparse row matrix with eight slots per
state, one per step of ``NEIGHBOUR_STEPS``: a closed step (wall, off the map, closed door)
has weight infinity, which SciPy's Dijkstra never follows under a finite ``limit``. Doors
change single slots in place; what depends on the mover (enemies' squares) is masked per
query.

``route_states`` is A* run by SciPy's Dijkstra: each step's weight is replaced by its
reduced cost ``cost - h(from) + h(to)``, with ``h`` the open-ground cost to the goal (a
consistent estimate, so reduced costs are never negative). Dijkstra on reduced costs
settles states in A*'s order, and its ``limit`` keeps it to A*'s band: states whose
estimated total exceeds the best possible by more than the limit are not touched. The
limit grows until the goal is settled, so the answer is exact.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from engine.grid import NEIGHBOUR_STEPS

FloatArray = NDArray[np.float64]
STEPS = len(NEIGHBOUR_STEPS)
#: The slack over the open-ground estimate tried first, then multiplied by LIMIT_GROWTH.
FIRST_LIMIT = 16.0
LIMIT_GROWTH = 4.0


class StateSteps:
    """Eight weighted out-steps per state of one map under one diagonal rule."""

    def __init__(
        self,
        width: int,
        height: int,
        open_mask: list[int],
        difficult: NDArray[np.bool_],
        alternating: bool,
        difficult_cost: int,
    ) -> None:
        self.width, self.height = width, height
        self.alternating = alternating
        #: States per square: 2 (the diagonal parity) only for alternating diagonals in
        #: difficult terrain; otherwise diagonals cost 1.5 (alternating) or 1.
        self.parities = 2 if alternating and bool(difficult.any()) else 1
        cells = width * height
        self.states = self.parities * cells
        index = np.arange(cells, dtype=np.int64)
        self.xs, self.ys = index % width, index // width
        self._difficult = difficult
        self._rough = float(difficult_cost)
        mask = np.asarray(open_mask, dtype=np.int64)
        costs = np.full((cells, self.parities, STEPS), np.inf)
        targets = np.empty((cells, self.parities, STEPS), dtype=np.int64)
        for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
            is_open = (mask >> k) & 1 == 1
            # A closed step points back at its own square (any valid column will do).
            there = np.where(is_open, index + dy * width + dx, index)
            factor = np.where(difficult[there], self._rough, 1.0)
            for parity in range(self.parities):
                step, next_parity = self.step(k, parity)
                costs[:, parity, k] = np.where(is_open, step * factor, np.inf)
                targets[:, parity, k] = there * self.parities + next_parity
        self.costs: FloatArray = costs.reshape(-1)
        self.targets = targets.reshape(-1)
        self._targets32 = self.targets.astype(np.int32)
        self._indptr = np.arange(0, self.costs.size + 1, STEPS, dtype=np.int32)

    def step(self, k: int, parity: int) -> tuple[float, int]:
        """(cost before terrain, next parity) of step ``NEIGHBOUR_STEPS[k]`` from a parity."""
        dx, dy = NEIGHBOUR_STEPS[k]
        if not (dx and dy and self.alternating):
            return 1.0, parity
        if self.parities == 1:
            return 1.5, 0
        return (2.0, 0) if parity else (1.0, 1)

    def set_open(self, index: int, k: int, is_open: bool) -> None:
        """A door opened or closed: the step ``k`` from square ``index``, every parity."""
        dx, dy = NEIGHBOUR_STEPS[k]
        there = index + dy * self.width + dx
        factor = self._rough if self._difficult[there] else 1.0
        for parity in range(self.parities):
            step, next_parity = self.step(k, parity)
            slot = (index * self.parities + parity) * STEPS + k
            self.costs[slot] = step * factor if is_open else np.inf
            target = there * self.parities + next_parity if is_open else index * self.parities
            self.targets[slot] = self._targets32[slot] = target

    def estimate(self, gx: int, gy: int) -> FloatArray:
        """Open-ground cost from every state to the goal square (the A* estimate)."""
        dx, dy = np.abs(self.xs - gx), np.abs(self.ys - gy)
        diagonals = np.minimum(dx, dy)
        longest = np.maximum(dx, dy)
        if not self.alternating:
            return longest.astype(np.float64)
        if self.parities == 1:
            return longest + 0.5 * diagonals
        estimate = np.empty((self.width * self.height, 2))
        estimate[:, 0] = longest + diagonals // 2
        estimate[:, 1] = longest + (diagonals + 1) // 2
        flat: FloatArray = estimate.reshape(-1)
        return flat

    def route_squares(
        self, start: int, goal: int, blocked: NDArray[np.intp], limit: float
    ) -> tuple[list[int], int] | None:
        """The cheapest route's squares (indices) from square ``start`` to square ``goal``.

        ``blocked`` lists the squares the mover may not enter; ``limit`` caps the cost.
        Returns (square indices in order, cost) or None when no route costs ``limit`` or
        less.
        """
        # SciPy is imported with the first long route: importing engine.routes stays cheap.
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import dijkstra

        parities = self.parities
        estimate = self.estimate(goal % self.width, goal // self.width)
        # mode="clip" skips the bounds check (every target is a valid state): ~40% faster.
        reduced = np.take(estimate, self.targets, mode="clip")
        reduced.reshape(self.states, STEPS)[:] -= estimate[:, None]
        reduced += self.costs
        # Leaving a blocked square is impossible, so no route passes through one; the goal
        # itself is never blocked (the caller checks).
        reduced.reshape(-1, parities * STEPS)[blocked] = np.inf
        graph = csr_matrix(
            (reduced, self._targets32, self._indptr), shape=(self.states, self.states)
        )
        source = start * parities
        head = float(estimate[source])
        # Costs in halves floor to whole squares: up to limit + 0.5 is within the limit.
        # No shortest path repeats a state and no step costs more than 4, so the cap also
        # lets Dijkstra settle every reachable state (and still skips closed steps).
        cap = min(limit + 0.5 - head, 4.0 * (self.states + self.width + self.height))
        if cap < 0:
            return None
        slack = min(FIRST_LIMIT, cap)
        while True:
            distances, parents = dijkstra(
                graph, directed=True, indices=source, return_predecessors=True, limit=slack
            )
            ends = distances[goal * parities : (goal + 1) * parities]
            if np.isfinite(ends).any():
                break
            if slack >= cap:
                return None
            slack = min(slack * LIMIT_GROWTH, cap)
        cost = math.floor(float(ends.min()) + head)
        if cost > limit:
            return None
        state = goal * parities + int(np.argmin(ends))
        states = [state]
        while state != source:
            state = int(parents[state])
            states.append(state)
        states.reverse()
        return [s // parities for s in states], cost
