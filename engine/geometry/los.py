"""Line of sight between squares and between tokens.

The rule (the same for every rule system, the usual corner-to-corner convention):

* A square sees another when a straight line can be drawn from **any corner** of the first
  to **any corner** of the second without crossing anything that blocks sight.
* Walls that block sight, closed or locked doors and sight-blocking cover objects block;
  open doors, windows and low cover do not.
* A line that only touches the free end of a wall is not blocked. A line through the point
  where two walls meet is blocked, as if the joint were solid.
* Corners are taken a hair inside their square (``CORNER_INSET``) so that a wall lying on
  a grid line separates the squares on either side of it, and a line running along a wall
  between two squares on the same side of it is clear.
* A token of several squares sees what any of its squares sees.

The relation is symmetric by construction (the same segments, reversed).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.battlemap import BattleMap
from engine.geometry._index import FloatArray, sight_index
from engine.geometry._march import (
    KERNEL_BUILT,
    IntArray,
    WallGrid,
    cuts_between,
    first_hits,
    squares_see_kernel,
    touch_any,
    touches_16,
    walls_near_box,
)
from engine.grid import Square
from engine.tokens import Token

#: How far inside its square a corner is taken for sight lines, in squares.
CORNER_INSET = 2.0**-10  # about 0.001, exact in binary so turning the map is exact too

_CORNER_OFFSETS = np.array(
    [
        (CORNER_INSET, CORNER_INSET),
        (1 - CORNER_INSET, CORNER_INSET),
        (1 - CORNER_INSET, 1 - CORNER_INSET),
        (CORNER_INSET, 1 - CORNER_INSET),
    ]
)
# Line k of a pair joins corner _FROM[k] of the first square to corner _TO[k] of the second.
_FROM = np.arange(16) // 4
_TO = np.arange(16) % 4


def check_square(battlemap: BattleMap, square: Square, what: str) -> None:
    """Raise a clear error when a square lies off the map."""
    if not battlemap.in_bounds(square):
        raise ValueError(
            f"{what} {square} lies outside the {battlemap.width}x{battlemap.height} map"
        )


def check_token(battlemap: BattleMap, token: Token) -> None:
    """Raise a clear error when any square of a token lies off the map."""
    for square in token.squares:
        check_square(battlemap, square, f"token {token.id!r} square")


def sight_corners(squares: Sequence[Square]) -> FloatArray:
    """The sight corners of some squares, shape (4 * len(squares), 2)."""
    origins = np.asarray(squares, dtype=np.float64).reshape(-1, 1, 2)
    corners: FloatArray = (origins + _CORNER_OFFSETS).reshape(-1, 2)
    return corners


def segments_blocked(
    battlemap: BattleMap, starts: FloatArray, ends: FloatArray
) -> NDArray[np.bool_]:
    """For each segment ``starts[i] -> ends[i]``, whether something blocks sight along it."""
    return lines_blocked(sight_index(battlemap).grid, starts, ends)


#: Up to this many lines times nearby walls, test every line against every wall near
#: the lines' common bounding box; beyond it, walk the grid (``first_hits``).
_BOX_WORK = 20_000


def lines_blocked(grid: WallGrid, starts: FloatArray, ends: FloatArray) -> NDArray[np.bool_]:
    """``segments_blocked`` on a wall grid. Both ways use the same touch test."""
    if len(starts) == 0:
        return np.zeros(0, dtype=bool)
    low = np.minimum(starts.min(axis=0), ends.min(axis=0))
    high = np.maximum(starts.max(axis=0), ends.max(axis=0))
    area = (high[0] - low[0] + grid.cell) * (high[1] - low[1] + grid.cell)
    if area * len(starts) <= _BOX_WORK * grid.cell:
        walls = walls_near_box(grid, low[0], low[1], high[0], high[1])
        if len(walls) * len(starts) <= _BOX_WORK:
            return touch_any(grid, starts[:, 0], starts[:, 1], ends[:, 0], ends[:, 1], walls)
    blocked: NDArray[np.bool_] = np.isfinite(first_hits(grid, starts, ends)[0])
    return blocked


#: Up to this many pairs, bulk line of sight tests all 16 lines of each pair at once.
_SMALL_BATCH = 16


def squares_array(squares: Sequence[Square] | IntArray | FloatArray) -> FloatArray:
    """Squares as an (n, 2) float array (fast for long lists of ``Square``)."""
    if isinstance(squares, np.ndarray):
        return squares.astype(np.float64, copy=False).reshape(-1, 2)
    flat = np.fromiter(chain.from_iterable(squares), dtype=np.float64, count=2 * len(squares))
    return flat.reshape(-1, 2)


def squares_see_each_other(
    battlemap: BattleMap,
    a_squares: Sequence[Square] | IntArray | FloatArray,
    b_squares: Sequence[Square] | IntArray | FloatArray,
) -> NDArray[np.bool_]:
    """Line of sight for many pairs at once: whether ``a_squares[i]`` sees ``b_squares[i]``.

    Same rule as ``has_line_of_sight``. To save work, each pair walks one undecided corner
    line at a time: if it is clear the pair sees; if a wall blocks it, that wall is tried
    against the pair's other undecided lines first, since it usually blocks them too.
    """
    grid = sight_index(battlemap).grid
    a, b = squares_array(a_squares), squares_array(b_squares)
    if KERNEL_BUILT:
        return squares_see_kernel(grid, a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    return squares_see_numpy(grid, a, b)


def squares_see_numpy(grid: WallGrid, a: FloatArray, b: FloatArray) -> NDArray[np.bool_]:
    """``squares_see_each_other`` in NumPy rounds (the fallback without the kernel)."""
    count = len(a)
    sees: NDArray[np.bool_] = (a == b).all(axis=1)
    if count <= _SMALL_BATCH:
        # A handful of pairs: all their lines at once beat the rounds below.
        starts = (a[:, None, :] + _CORNER_OFFSETS[_FROM]).reshape(-1, 2)
        ends = (b[:, None, :] + _CORNER_OFFSETS[_TO]).reshape(-1, 2)
        blocked = lines_blocked(grid, starts, ends).reshape(count, 16)
        small: NDArray[np.bool_] = sees | ~blocked.all(axis=1)
        return small
    # Line k of pair p joins corner k // 4 of a[p] to corner k % 4 of b[p]; flat index 16p + k.
    a_x4, a_y4 = a[:, 0:1] + _CORNER_OFFSETS[:, 0], a[:, 1:2] + _CORNER_OFFSETS[:, 1]
    b_x4, b_y4 = b[:, 0:1] + _CORNER_OFFSETS[:, 0], b[:, 1:2] + _CORNER_OFFSETS[:, 1]
    a_x, a_y = a_x4[:, _FROM].ravel(), a_y4[:, _FROM].ravel()
    b_x, b_y = b_x4[:, _TO].ravel(), b_y4[:, _TO].ravel()
    undecided = np.ones((count, 16), dtype=bool)
    undecided[sees] = False
    # Start with the centre line: not a sight line, but it finds the likeliest wall.
    pairs = np.flatnonzero(~sees)
    starts, ends = a[pairs] + 0.5, b[pairs] + 0.5
    first_round = True
    while len(pairs):
        t, wall = first_hits(grid, starts, ends)
        blocked = wall >= 0
        stopped, stopper = pairs[blocked], wall[blocked]
        if first_round:
            # A wall right across the way blocks all 16 lines: no need to test each.
            cut = cuts_between(grid, stopper, a[stopped], b[stopped])
            undecided[stopped[cut]] = False
            stopped, stopper = stopped[~cut], stopper[~cut]
        else:
            clear = pairs[~np.isfinite(t)]
            sees[clear] = True
            undecided[clear] = False
        first_round = False
        hit = touches_16(grid, stopper, a_x4[stopped], a_y4[stopped], b_x4[stopped], b_y4[stopped])
        undecided[stopped] &= ~hit
        pairs = np.flatnonzero(undecided.any(axis=1))
        lines = pairs * 16 + undecided[pairs].argmax(axis=1)
        starts = np.column_stack([a_x[lines], a_y[lines]])
        ends = np.column_stack([b_x[lines], b_y[lines]])
    return sees


class SightTable(Mapping[tuple[str, str], bool]):
    """Who sees whom among some tokens, worked out in full when the table is made.

    A symmetric boolean matrix in the tokens' order (``matrix``); as a mapping it has one
    entry per pair, keyed ``(earlier id, later id)``. ``sees(a, b)`` takes either order.
    """

    def __init__(self, ids: Sequence[str], matrix: NDArray[np.bool_]) -> None:
        self.ids = tuple(ids)
        self._position = {token_id: number for number, token_id in enumerate(self.ids)}
        self.matrix = matrix
        self.matrix.flags.writeable = False

    def sees(self, a: str, b: str) -> bool:
        """Whether tokens ``a`` and ``b`` see each other (a token sees itself)."""
        return bool(self.matrix[self._position[a], self._position[b]])

    def __getitem__(self, key: tuple[str, str]) -> bool:
        a, b = key
        i, j = self._position.get(a, -1), self._position.get(b, -1)
        if not 0 <= i < j:
            raise KeyError(key)
        return bool(self.matrix[i, j])

    def __iter__(self) -> Iterator[tuple[str, str]]:
        ids = self.ids
        for i, j in zip(*np.triu_indices(len(ids), 1), strict=True):
            yield ids[i], ids[j]

    def __len__(self) -> int:
        return len(self.ids) * (len(self.ids) - 1) // 2


def sight_pairs(battlemap: BattleMap, tokens: Sequence[Token]) -> SightTable:
    """Who sees whom among ``tokens``: one entry per pair ``(earlier id, later id)``.

    The relation is symmetric. A big token sees a pair partner if any of its squares does.
    """
    ids = [token.id for token in tokens]
    matrix = np.eye(len(tokens), dtype=bool)
    if len(tokens) < 2:
        for token in tokens:
            check_token(battlemap, token)
        return SightTable(ids, matrix)
    first, second = np.triu_indices(len(tokens), 1)
    if all(token.size == 1 for token in tokens):
        xs, ys = squares_array([token.square for token in tokens]).T
        if not ((xs < battlemap.width) & (ys < battlemap.height) & (xs >= 0) & (ys >= 0)).all():
            for token in tokens:
                check_token(battlemap, token)
        grid = sight_index(battlemap).grid
        if KERNEL_BUILT:
            by_pair = squares_see_kernel(grid, xs[first], ys[first], xs[second], ys[second])
        else:
            every = np.column_stack([xs, ys])
            by_pair = squares_see_numpy(grid, every[first], every[second])
    else:
        footprints = [token.squares for token in tokens]
        for token in tokens:
            check_token(battlemap, token)
        every = squares_array([s for footprint in footprints for s in footprint])
        sizes = np.array([len(f) for f in footprints])
        # Every square of the first token against every square of the second.
        offsets = np.cumsum(sizes) - sizes
        per_pair = sizes[first] * sizes[second]
        owner = np.repeat(np.arange(len(first)), per_pair)
        k = np.arange(len(owner)) - np.repeat(np.cumsum(per_pair) - per_pair, per_pair)
        columns = sizes[second][owner]
        a_index = offsets[first][owner] + k // columns
        b_index = offsets[second][owner] + k % columns
        sees = squares_see_each_other(battlemap, every[a_index], every[b_index])
        by_pair = np.bincount(owner, weights=sees, minlength=len(first)) > 0
    matrix[first, second] = by_pair
    matrix[second, first] = by_pair
    return SightTable(ids, matrix)


def first_blocker(
    battlemap: BattleMap, start: tuple[float, float], end: tuple[float, float]
) -> str | None:
    """What blocks the line from start to end nearest the start, in words (None if clear)."""
    index = sight_index(battlemap)
    if len(index.segments) == 0:
        return None
    line = shapely.LineString([start, end])
    hits = index.tree.query(line, predicate="intersects")
    if len(hits) == 0:
        return None
    origin = shapely.Point(start)
    nearest = min(hits, key=lambda i: shapely.distance(origin, index.lines[i]))
    return index.descriptions[int(nearest)]


def _any_clear(
    battlemap: BattleMap, a_squares: Sequence[Square], b_squares: Sequence[Square]
) -> bool:
    a = sight_corners(a_squares)
    b = sight_corners(b_squares)
    starts = np.repeat(a, len(b), axis=0)
    ends = np.tile(b, (len(a), 1))
    return not bool(segments_blocked(battlemap, starts, ends).all())


def has_line_of_sight(battlemap: BattleMap, a: Square, b: Square) -> bool:
    """Whether square ``a`` sees square ``b`` (any corner to any corner; see module doc)."""
    check_square(battlemap, a, "square")
    check_square(battlemap, b, "square")
    if a == b:
        return True
    return _any_clear(battlemap, [a], [b])


@dataclass(frozen=True)
class SightResult:
    """Line of sight from one token to another, for the GM.

    ``line`` is a clear sight line when there is one (the one nearest the centre line),
    otherwise the centre line; ``reasons`` say what blocks it when nothing is clear.
    """

    viewer_id: str
    target_id: str
    sees: bool
    line: shapely.LineString
    reasons: tuple[str, ...] = ()


def explain_line_of_sight(battlemap: BattleMap, viewer: Token, target: Token) -> SightResult:
    """Whether ``viewer`` sees ``target``, the line to draw, and what blocks it if not."""
    for token in (viewer, target):
        check_token(battlemap, token)
    half_v, half_t = viewer.size / 2, target.size / 2
    centre_v = (viewer.square.x + half_v, viewer.square.y + half_v)
    centre_t = (target.square.x + half_t, target.square.y + half_t)
    centre_line = shapely.LineString([centre_v, centre_t])
    if set(viewer.squares) & set(target.squares):
        return SightResult(viewer.id, target.id, True, centre_line)
    a = sight_corners(viewer.squares)
    b = sight_corners(target.squares)
    starts = np.repeat(a, len(b), axis=0)
    ends = np.tile(b, (len(a), 1))
    clear = ~segments_blocked(battlemap, starts, ends)
    if clear.any():
        # Of the clear lines, the one most like the centre line (near it and parallel).
        middle = (np.asarray(centre_v) + np.asarray(centre_t)) / 2
        heading = np.asarray(centre_t) - np.asarray(centre_v)
        gaps = np.hypot(*((starts + ends) / 2 - middle).T) + np.hypot(
            *((ends - starts) - heading).T
        )
        best = int(np.argmin(np.where(clear, gaps, np.inf)))
        return SightResult(
            viewer.id, target.id, True, shapely.LineString([starts[best], ends[best]])
        )
    blocker = first_blocker(battlemap, centre_v, centre_t) or "walls"
    reason = (
        f"{viewer.name} cannot see {target.name}: every line from a corner of one "
        f"to a corner of the other is blocked (nearest: {blocker})"
    )
    return SightResult(viewer.id, target.id, False, centre_line, (reason,))


def token_sees_square(battlemap: BattleMap, viewer: Token, square: Square) -> bool:
    """Whether any square of ``viewer`` sees ``square`` (a point aimed at, a square looked at)."""
    check_token(battlemap, viewer)
    check_square(battlemap, square, "square")
    if square in viewer.squares:
        return True
    return _any_clear(battlemap, viewer.squares, [square])


def token_line_of_sight(battlemap: BattleMap, viewer: Token, target: Token) -> bool:
    """Whether any square of ``viewer`` sees any square of ``target``."""
    for token in (viewer, target):
        check_token(battlemap, token)
    if set(viewer.squares) & set(target.squares):
        return True
    return _any_clear(battlemap, viewer.squares, target.squares)
