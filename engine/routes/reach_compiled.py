"""Reach within a budget, flooded in C (``reach`` in ``engine/routes/_astar.c``).

The Python loops of ``engine.routes.search`` (``_reach_halves``, ``_reach_flat`` and, for
a big token, ``_reach_any``) are the reference; property tests check that this gives the
same costs (and, for a one-square mover, the very same routes: the C loop takes the same
steps in the same order).

Two things make a whole-map reach cheap here:

- the answer stays a NumPy array of costs per square (``ReachCosts``): a caller that asks
  about a few squares never pays for a 40,000-entry dict of ``Square`` keys;
- a big token is moved by its top-left square (its anchor), so its footprint is folded
  into per-anchor bytes once per query (which steps every square of the footprint can
  take, whether the footprint fits where it lands, whether any of it is difficult) and
  the C loop floods anchors exactly as it floods one-square movers.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView

import numpy as np
import numpy.typing as npt

from engine.grid import NEIGHBOUR_STEPS, DiagonalRule, Square
from engine.routes.compiled import astar
from engine.routes.graph import MovementGraph
from engine.routes.results import Reach, Start
from engine.tokens import Token

Int32Array = npt.NDArray[np.int32]
#: What the C loop leaves in a state it never reached (INT32_MAX).
NEVER = np.iinfo(np.int32).max
#: The bits of NEIGHBOUR_STEPS for a step right and a step down: a footprint is whole when
#: every inner square can step to its right and lower neighbour (no wall splits it).
RIGHT = 1 << NEIGHBOUR_STEPS.index((1, 0))
DOWN = 1 << NEIGHBOUR_STEPS.index((0, 1))


class ReachCosts(Mapping[Square, int]):
    """Reach's answer as a read-only mapping over an array of costs per square.

    Looking up a square reads one array entry; the first iteration (``dict(...)``,
    ``items()``, ``sorted(...)``) builds the dict of ``Square`` keys, in row-major order,
    and keeps it. ``array`` is the (height, width) array itself, -1 where the mover cannot
    end within the budget, for callers that can work on the whole map at once.
    """

    __slots__ = ("_costs", "_count", "_dict", "_height", "_width")

    def __init__(self, costs: Int32Array, width: int, height: int) -> None:
        costs.setflags(write=False)
        self._costs = costs
        self._width, self._height = width, height
        self._count: int | None = None
        self._dict: dict[Square, int] | None = None

    @property
    def array(self) -> Int32Array:
        return self._costs.reshape(self._height, self._width)

    def _index(self, square: object) -> int:
        """The flat index of ``square``, or -1 when it is no square of this map."""
        if not isinstance(square, tuple) or len(square) != 2:
            return -1
        x, y = square
        if not (isinstance(x, int) and isinstance(y, int)):
            return -1
        if 0 <= x < self._width and 0 <= y < self._height:
            return y * self._width + x
        return -1

    def __getitem__(self, square: Square) -> int:
        if self._dict is not None:
            return self._dict[square]
        index = self._index(square)
        cost: int = self._costs.item(index) if index >= 0 else -1
        if cost < 0:
            raise KeyError(square)
        return cost

    def __contains__(self, square: object) -> bool:
        index = self._index(square)
        return index >= 0 and self._costs.item(index) >= 0

    def __len__(self) -> int:
        if self._count is None:
            self._count = int(np.count_nonzero(self._costs >= 0))
        return self._count

    def _as_dict(self) -> dict[Square, int]:
        """Every square and its cost (made on first use and kept; only read through views)."""
        if self._dict is None:
            index = np.flatnonzero(self._costs >= 0)
            ys, xs = np.divmod(index, self._width)
            make = tuple.__new__  # skips NamedTuple's Python-level __new__ on the hot path
            keys = [make(Square, xy) for xy in zip(xs.tolist(), ys.tolist(), strict=True)]
            self._dict = dict(zip(keys, self._costs[index].tolist(), strict=True))
        return self._dict

    def __iter__(self) -> Iterator[Square]:
        return iter(self._as_dict())

    def keys(self) -> KeysView[Square]:
        return self._as_dict().keys()

    def items(self) -> ItemsView[Square, int]:
        return self._as_dict().items()

    def values(self) -> ValuesView[int]:
        return self._as_dict().values()

    def __repr__(self) -> str:
        return f"ReachCosts({len(self)} squares of a {self._width}x{self._height} map)"


def footprint_arrays(
    movement: MovementGraph, mover: Token
) -> tuple[bytes, bytes, bytes | None, npt.NDArray[np.bool_]]:
    """Per anchor (the footprint's top-left square, index y * width + x): (open steps,
    cannot land, extra difficult multiple or None, cannot end), as ``Walker`` judges a
    token of the mover's size.

    A step is open when every square of the footprint can take it; the footprint lands
    where all of it lies on the map, on squares the mover may enter, with no wall inside
    it; it pays the difficult multiple when any square it lands on is difficult; it may
    end where none of it is another token's square.
    """
    width, height, size = movement.width, movement.height, mover.size
    blocked_bytes, extra_bytes, no_end_bytes = movement.obstacle_arrays(mover)
    mask = np.frombuffer(movement.open_bytes, dtype=np.uint8).reshape(height, width)
    blocked = np.frombuffer(blocked_bytes, dtype=np.uint8).reshape(height, width).astype(bool)
    no_end = np.frombuffer(no_end_bytes, dtype=np.uint8).reshape(height, width).astype(bool)
    rows, cols = height - size + 1, width - size + 1  # anchors whose footprint is on the map
    steps = np.zeros((height, width), dtype=np.uint8)
    fits = np.zeros((height, width), dtype=bool)
    ends = np.zeros((height, width), dtype=bool)
    rough = np.zeros((height, width), dtype=np.uint8)
    extra = (
        np.frombuffer(extra_bytes, dtype=np.uint8).reshape(height, width)
        if extra_bytes is not None
        else None
    )
    if rows > 0 and cols > 0:
        steps[:rows, :cols] = 0xFF
        fits[:rows, :cols] = True
        ends[:rows, :cols] = True
        for dy in range(size):
            for dx in range(size):
                part = (slice(dy, dy + rows), slice(dx, dx + cols))
                steps[:rows, :cols] &= mask[part]
                whole = ~blocked[part]
                if dx < size - 1:
                    whole &= (mask[part] & RIGHT) != 0
                if dy < size - 1:
                    whole &= (mask[part] & DOWN) != 0
                fits[:rows, :cols] &= whole
                ends[:rows, :cols] &= ~no_end[part]
                if extra is not None:
                    np.maximum(rough[:rows, :cols], extra[part], out=rough[:rows, :cols])
    return (
        steps.tobytes(),
        (~fits).astype(np.uint8).tobytes(),
        rough.tobytes() if extra is not None else None,
        ~ends.reshape(-1),
    )


def reach_compiled(
    movement: MovementGraph, mover: Token, budget: int, initial: list[Start]
) -> Reach:
    """``search.reach`` in C, for a mover of any size (same costs as the Python loops)."""
    width, height = movement.width, movement.height
    opens: bytes | bytearray
    blocked: bytes | bytearray
    extra: bytes | bytearray | None
    if mover.size == 1:
        blocked, extra, no_end_bytes = movement.obstacle_arrays(mover)
        opens = movement.open_bytes
        no_end = np.frombuffer(no_end_bytes, dtype=np.uint8).astype(bool)
    else:
        opens, blocked, extra, no_end = footprint_arrays(movement, mover)
    alternating = movement.scale.diagonal is DiagonalRule.ALTERNATING
    # As ``search._reach``: one state per square counted in half squares, except where
    # difficult terrain under the alternating rule makes the diagonal parity matter.
    halves = not (extra is not None and alternating)
    cells = width * height
    states = cells if halves else 2 * cells
    best = np.empty(states, dtype=np.int32)
    parents = np.empty(states, dtype=np.int32)
    starts: list[tuple[int, int]] = []
    before: dict[int, tuple[Square, ...]] = {}
    known: dict[int, int] = {}
    for start in initial:
        index = start.square.y * width + start.square.x
        if halves:
            state, cost = index, 2 * start.cost + (start.parity if alternating else 0)
        else:
            state, cost = index * 2 + start.parity, start.cost
        starts.append((state, cost))
        if cost < known.get(state, NEVER):  # the start the C loop keeps for this state
            known[state] = cost
            before[state] = start.before
    top = 2 * budget + 1 if halves else budget  # 2 * budget + 1 halves floor to the budget
    astar.reach(opens, blocked, extra, width, height, alternating, halves, top, starts,
                best, parents)

    if halves:
        chosen = np.arange(cells, dtype=np.int32)
        square_costs = np.where(best == NEVER, -1, best // 2).astype(np.int32)
    else:
        pairs = best.reshape(cells, 2)
        odd = pairs[:, 1] < pairs[:, 0]  # parity 0 wins a tie, as in ``_reach_flat``
        chosen = (np.arange(cells, dtype=np.int32) * 2 + odd).astype(np.int32)
        lowest = np.where(odd, pairs[:, 1], pairs[:, 0])
        square_costs = np.where(lowest == NEVER, -1, lowest).astype(np.int32)
    square_costs[no_end] = -1
    square_costs[mover.square.y * width + mover.square.x] = -1
    # A start state that the search reached more cheaply keeps no prefix of its own.
    before = {s: p for s, p in before.items() if parents[s] < 0}
    shift = 0 if halves else 1

    def trace(square: Square) -> tuple[Square, ...]:
        state = int(chosen[square.y * width + square.x])
        states = [state]
        while (parent := int(parents[state])) >= 0:
            state = parent
            states.append(state)
        states.reverse()
        prefix = before.get(states[0], ())
        return (*prefix, *(Square((s >> shift) % width, (s >> shift) // width) for s in states))

    costs = ReachCosts(square_costs, width, height)
    return Reach(mover.id, mover.square, budget, movement.scale, costs, trace)
