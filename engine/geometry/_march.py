"""Vectorised segment-against-wall tests that walk a bucket grid from the start outwards.

Long sight lines have large bounding boxes, so an R-tree hands back hundreds of candidate
walls for each. Instead the walls are bucketed in a coarse grid once per map, and all query
segments advance together, a few cells per round, nearest first: a segment leaves the
active set as soon as something blocks it, which on a walled map is usually within a few
squares. Every step is a NumPy operation over all active segments at once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

try:
    from engine.geometry import _kernel  # type: ignore[attr-defined]
except ImportError:  # not compiled here (no C compiler at install): NumPy does the work
    _kernel = None
if os.environ.get("KILLBOX_NO_KERNEL"):  # to test the NumPy path where the kernel is built
    _kernel = None

#: Whether the compiled sight kernel is in use.
KERNEL_BUILT = _kernel is not None

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Side of one bucket, in squares.
CELL = 4.0
#: Walls are bucketed by their bounding boxes widened by this much, so that a touch point a
#: rounding error away from a cell edge still finds its wall in the cell a walk is in.
BUCKET_MARGIN = 1e-6


@dataclass(frozen=True, eq=False)
class WallGrid:
    """Sight-blocking segments bucketed by the grid cells their bounding boxes overlap."""

    x1: FloatArray  # the segments' ends, one array per coordinate
    y1: FloatArray
    x2: FloatArray
    y2: FloatArray
    columns: int
    rows: int
    cell_start: IntArray  # (columns * rows + 1,) CSR offsets into cell_walls
    cell_walls: IntArray
    cell: float = CELL  # side of one bucket, in squares


def _split(segments: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    rows = segments.reshape(-1, 4)
    x1, y1, x2, y2 = (np.ascontiguousarray(rows[:, k]) for k in range(4))
    return x1, y1, x2, y2


def build_wall_grid(segments: FloatArray, width: int, height: int, cell: float = CELL) -> WallGrid:
    """Bucket the segments in cells of side ``cell`` squares."""
    columns = max(1, int(np.ceil(width / cell)))
    rows = max(1, int(np.ceil(height / cell)))
    if len(segments) == 0:
        return WallGrid(
            *_split(segments),
            columns,
            rows,
            np.zeros(columns * rows + 1, np.intp),
            np.zeros(0, np.intp),
            cell,
        )
    wall_ids, cells = _cells_of(segments, columns, rows, cell)
    order = np.argsort(cells, kind="stable")
    counts = np.bincount(cells, minlength=columns * rows)
    cell_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return WallGrid(*_split(segments), columns, rows, cell_start, wall_ids[order], cell)


def _cells_of(
    segments: FloatArray, columns: int, rows: int, cell: float
) -> tuple[IntArray, IntArray]:
    """(segment row, cell) for every cell each segment's widened bounding box overlaps,
    segment by segment, each box row by row."""
    low = np.minimum(segments[:, :2], segments[:, 2:]) - BUCKET_MARGIN
    high = np.maximum(segments[:, :2], segments[:, 2:]) + BUCKET_MARGIN
    x0 = np.clip(np.floor(low[:, 0] / cell), 0, columns - 1).astype(np.intp)
    x1 = np.clip(np.floor(high[:, 0] / cell), 0, columns - 1).astype(np.intp)
    y0 = np.clip(np.floor(low[:, 1] / cell), 0, rows - 1).astype(np.intp)
    y1 = np.clip(np.floor(high[:, 1] / cell), 0, rows - 1).astype(np.intp)
    # The k-th cell of a segment's box is (x0 + k % across, y0 + k // across).
    across = x1 - x0 + 1
    count = across * (y1 - y0 + 1)
    wall_ids = np.repeat(np.arange(len(segments), dtype=np.intp), count)
    k = np.arange(int(count.sum()), dtype=np.intp) - np.repeat(np.cumsum(count) - count, count)
    step = np.repeat(across, count)
    cells = (np.repeat(y0, count) + k // step) * columns + np.repeat(x0, count) + k % step
    return wall_ids, cells


def rebucket(
    grid: WallGrid,
    segments: FloatArray,
    renumber: IntArray,
    dropped: NDArray[np.bool_],
    added: IntArray,
) -> WallGrid:
    """``build_wall_grid(segments, ...)`` from the grid of a few rows earlier.

    ``renumber`` maps each old row to its new row (monotone: rows keep their order),
    ``dropped`` marks the old rows that are gone or moved, ``added`` lists the new rows
    to bucket afresh. Cells keep their walls in row order, as a fresh build does.
    """
    cells_total = grid.columns * grid.rows
    scale = len(segments) + 1
    entry_cell = np.repeat(np.arange(cells_total, dtype=np.intp), np.diff(grid.cell_start))
    keep = ~dropped[grid.cell_walls]
    kept = entry_cell[keep] * scale + renumber[grid.cell_walls[keep]]
    local, cells = _cells_of(segments[added], grid.columns, grid.rows, grid.cell)
    fresh = np.sort(cells * scale + added[local])
    keys = np.insert(kept, np.searchsorted(kept, fresh), fresh)
    counts = np.bincount(keys // scale, minlength=cells_total)
    cell_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return WallGrid(*_split(segments), grid.columns, grid.rows, cell_start, keys % scale, grid.cell)


def _cross(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    result: FloatArray = ax * by - ay * bx
    return result


def _hits(
    grid: WallGrid,
    px: FloatArray,
    py: FloatArray,
    qx: FloatArray,
    qy: FloatArray,
    wall: IntArray,
    want_t: bool,
) -> tuple[NDArray[np.bool_], FloatArray | None]:
    """Whether segment p->q touches ``wall`` (closed segments, element-wise), and where (t)."""
    ax, ay, bx, by = grid.x1[wall], grid.y1[wall], grid.x2[wall], grid.y2[wall]
    rx, ry = qx - px, qy - py
    sx, sy = bx - ax, by - ay
    o1 = _cross(rx, ry, ax - px, ay - py)
    o2 = _cross(rx, ry, bx - px, by - py)
    o3 = _cross(sx, sy, px - ax, py - ay)
    o4 = _cross(sx, sy, qx - ax, qy - ay)
    touching = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    collinear = (o1 == 0) & (o2 == 0)
    if collinear.any():
        # On one line: they touch when their bounding boxes overlap.
        overlap = (
            (np.minimum(px, qx) <= np.maximum(ax, bx))
            & (np.minimum(ax, bx) <= np.maximum(px, qx))
            & (np.minimum(py, qy) <= np.maximum(ay, by))
            & (np.minimum(ay, by) <= np.maximum(py, qy))
        )
        touching = np.where(collinear, overlap, touching)
    if not want_t:
        return touching, None
    denominator = _cross(rx, ry, sx, sy)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = _cross(ax - px, ay - py, sx, sy) / denominator
        if collinear.any():
            # Along the wall: the touch starts where the overlap does, not at the start.
            length = rx * rx + ry * ry
            first = np.minimum((ax - px) * rx + (ay - py) * ry, (bx - px) * rx + (by - py) * ry)
            along = np.where(length > 0, first / length, 0.0)
            t = np.where(collinear, along, np.where(denominator == 0, 0.0, t))
        else:
            t = np.where(denominator == 0, 0.0, t)
    return touching, np.minimum(np.maximum(t, 0.0), 1.0)


def touches(
    grid: WallGrid, starts: FloatArray, ends: FloatArray, walls: IntArray
) -> NDArray[np.bool_]:
    """Whether each segment touches the given wall (one wall per segment)."""
    return _hits(grid, starts[:, 0], starts[:, 1], ends[:, 0], ends[:, 1], walls, False)[0]


def _cells(grid: WallGrid, x: FloatArray, y: FloatArray) -> tuple[IntArray, IntArray]:
    cx = np.minimum(np.maximum((x * (1 / grid.cell)).astype(np.intp), 0), grid.columns - 1)
    cy = np.minimum(np.maximum((y * (1 / grid.cell)).astype(np.intp), 0), grid.rows - 1)
    return cx, cy


def first_hits(
    grid: WallGrid, starts: FloatArray, ends: FloatArray, nearest: bool = False
) -> tuple[FloatArray, IntArray]:
    """For each segment, the parameter t in [0, 1] where it touches a wall, and that wall.

    A clear segment gets t = inf and wall -1. With ``nearest`` the touch is the nearest one;
    otherwise any touch will do (reported as t = 0), which lets a segment stop at the first
    one found. Runs in the compiled kernel when it is built, else in NumPy.
    """
    if _kernel is None:
        return first_hits_numpy(grid, starts, ends, nearest)
    count = len(starts)
    t = np.empty(count)
    wall = np.empty(count, dtype=np.intp)
    _kernel.first_hits(
        *_grid_arguments(grid),
        np.ascontiguousarray(starts[:, 0], dtype=np.float64),
        np.ascontiguousarray(starts[:, 1], dtype=np.float64),
        np.ascontiguousarray(ends[:, 0], dtype=np.float64),
        np.ascontiguousarray(ends[:, 1], dtype=np.float64),
        nearest,
        t,
        wall,
    )
    return t, wall


def _grid_arguments(grid: WallGrid) -> tuple[object, ...]:
    return (
        grid.x1,
        grid.y1,
        grid.x2,
        grid.y2,
        grid.cell_start,
        grid.cell_walls,
        grid.columns,
        grid.rows,
        grid.cell,
    )


def squares_see_kernel(
    grid: WallGrid, ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray
) -> NDArray[np.bool_]:
    """Whether unit square (ax[i], ay[i]) (its top-left corner) sees (bx[i], by[i]).

    The rule of ``engine.geometry.los``: some line from a sight corner of one to a sight
    corner of the other touches no wall. Runs in the compiled kernel: only call this when
    ``KERNEL_BUILT``.
    """
    assert _kernel is not None
    out = np.empty(len(ax), dtype=np.uint8)
    _kernel.squares_see(
        *_grid_arguments(grid),
        *(np.ascontiguousarray(v, dtype=np.float64) for v in (ax, ay, bx, by)),
        out,
    )
    return out.view(np.bool_)


def visibility_rings_kernel(
    grid: WallGrid,
    vertices: FloatArray,
    origins: FloatArray,
    radius: float,
    arcs: int,
    slip: float,
) -> tuple[FloatArray, FloatArray, IntArray]:
    """Each origin's visibility outline, in angle order, from the compiled kernel.

    The same construction as ``visibility._rings_numpy``: the vertices within ``radius``
    that the origin sees, a ray slipping ``slip`` radians past either side of each, and
    ``arcs`` rays around the circle, each stopped at the nearest wall. Returns the x and
    y of all the rings' points, one ring after the other, and how many points each has.
    """
    assert _kernel is not None
    room = len(origins) * (3 * len(vertices) + arcs)
    xs, ys = np.empty(room), np.empty(room)
    counts = np.zeros(len(origins), dtype=np.intp)
    if len(origins):
        _kernel.visibility_rings(
            *_grid_arguments(grid),
            np.ascontiguousarray(vertices[:, 0]),
            np.ascontiguousarray(vertices[:, 1]),
            np.ascontiguousarray(origins[:, 0], dtype=np.float64),
            np.ascontiguousarray(origins[:, 1], dtype=np.float64),
            float(radius),
            arcs,
            slip,
            xs,
            ys,
            counts,
        )
    used = int(counts.sum())
    return xs[:used], ys[:used], counts


def seen_squares_kernel(
    rings: tuple[FloatArray, FloatArray, IntArray],
    box: tuple[int, int, int, int],
    inset: float,
    centre: tuple[float, float],
    radius: float,
) -> NDArray[np.bool_]:
    """Which squares of a box have a sight corner inside one of the rings, in the kernel.

    ``rings`` are ``(xs, ys, counts)`` as ``visibility_rings_kernel`` gives them; ``box``
    is ``(x, y, width, height)`` in squares; a square's sight corners lie ``inset`` inside
    it; only squares whose centres lie within ``radius`` of ``centre`` count. The answer
    is a (height, width) mask.
    """
    assert _kernel is not None
    xs, ys, counts = rings
    low_x, low_y, width, height = box
    mask = np.zeros((height, width), dtype=np.uint8)
    _kernel.seen_squares(
        np.ascontiguousarray(xs, dtype=np.float64),
        np.ascontiguousarray(ys, dtype=np.float64),
        np.ascontiguousarray(counts, dtype=np.intp),
        low_x,
        low_y,
        width,
        height,
        inset,
        float(centre[0]),
        float(centre[1]),
        float(radius),
        mask,
    )
    return mask.view(np.bool_)


def first_hits_numpy(
    grid: WallGrid, starts: FloatArray, ends: FloatArray, nearest: bool = False
) -> tuple[FloatArray, IntArray]:
    """``first_hits`` in NumPy: the reference, and the fallback without the kernel.

    All segments advance together, a few cells per round, nearest first.
    """
    count = len(starts)
    result = np.full(count, np.inf)
    which = np.full(count, -1, dtype=np.intp)
    if count == 0 or len(grid.x1) == 0:
        return result, which
    sx, sy = np.ascontiguousarray(starts[:, 0]), np.ascontiguousarray(starts[:, 1])
    ex, ey = np.ascontiguousarray(ends[:, 0]), np.ascontiguousarray(ends[:, 1])
    dx, dy = ex - sx, ey - sy
    pieces = np.maximum(1, np.ceil(np.hypot(dx, dy) * (1 / grid.cell))).astype(np.intp)
    active = np.arange(count, dtype=np.intp)
    done = np.zeros(count, dtype=np.intp)  # pieces already examined per segment
    step = 1
    columns = grid.columns
    while len(active):
        take = np.minimum(step, pieces[active] - done[active])
        if step == 1:
            seg, piece = active, done[active]
        else:
            seg = np.repeat(active, take)
            piece = done[seg] + np.arange(len(seg)) - np.repeat(np.cumsum(take) - take, take)
        share = 1.0 / pieces[seg]
        t0 = piece * share
        t1 = t0 + share
        x0, y0 = sx[seg] + dx[seg] * t0, sy[seg] + dy[seg] * t0
        x1, y1 = sx[seg] + dx[seg] * t1, sy[seg] + dy[seg] * t1
        # A piece is at most one cell long, so its box spans at most 2 x 2 cells.
        lo_x, lo_y = _cells(grid, np.minimum(x0, x1), np.minimum(y0, y1))
        hi_x, hi_y = _cells(grid, np.maximum(x0, x1), np.maximum(y0, y1))
        wide, tall = hi_x != lo_x, hi_y != lo_y
        both = wide & tall
        cell_seg = np.concatenate([seg, seg[wide], seg[tall], seg[both]])
        cells = np.concatenate(
            [
                lo_y * columns + lo_x,
                lo_y[wide] * columns + hi_x[wide],
                hi_y[tall] * columns + lo_x[tall],
                hi_y[both] * columns + hi_x[both],
            ]
        )
        first = grid.cell_start[cells]
        counts = grid.cell_start[cells + 1] - first
        total = int(counts.sum())
        if total:
            pair_seg = np.repeat(cell_seg, counts)
            pair_wall = grid.cell_walls[
                np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(total)
            ]
            touching, t = _hits(
                grid, sx[pair_seg], sy[pair_seg], ex[pair_seg], ey[pair_seg], pair_wall, nearest
            )
            hit_seg, hit_wall = pair_seg[touching], pair_wall[touching]
            if t is None:
                result[hit_seg] = 0.0
                which[hit_seg] = hit_wall
            elif len(hit_seg):
                hit_t = t[touching]
                order = np.lexsort((hit_t, hit_seg))
                hit_seg, hit_t, hit_wall = hit_seg[order], hit_t[order], hit_wall[order]
                firsts = np.flatnonzero(np.diff(hit_seg, prepend=-1))
                hit_seg, hit_t, hit_wall = hit_seg[firsts], hit_t[firsts], hit_wall[firsts]
                better = hit_t < result[hit_seg]
                result[hit_seg[better]] = hit_t[better]
                which[hit_seg[better]] = hit_wall[better]
        done[active] += take
        finished = done[active] >= pieces[active]
        if nearest:
            # A touch found through this round's cells may lie further on than one that a
            # later round would find; keep going until the best touch is behind us.
            settled = result[active] <= done[active] / pieces[active]
            active = active[~(finished | settled)]
        else:
            active = active[~(finished | np.isfinite(result[active]))]
        step *= 2
    return result, which


def hits_many(
    grid: WallGrid,
    px: FloatArray,
    py: FloatArray,
    qx: FloatArray,
    qy: FloatArray,
    walls: IntArray,
) -> NDArray[np.bool_]:
    """Whether each row of segments (shape (m, k)) touches that row's wall (shape (m,))."""
    return _hits(grid, px, py, qx, qy, walls[:, None], False)[0]


def walls_near_box(grid: WallGrid, x0: float, y0: float, x1: float, y1: float) -> IntArray:
    """Every wall bucketed in a cell that the box [x0, x1] x [y0, y1] overlaps (no repeats).

    A wall that touches anything inside the box is among them: the touch point's cell is
    one of the box's cells, and the wall is bucketed there. The box is widened by a hair
    so that a touch found by rounding just outside it still counts.
    """
    inv = 1 / grid.cell
    lo_x = min(max(int((x0 - 1e-6) * inv), 0), grid.columns - 1)
    hi_x = min(max(int((x1 + 1e-6) * inv), 0), grid.columns - 1)
    lo_y = min(max(int((y0 - 1e-6) * inv), 0), grid.rows - 1)
    hi_y = min(max(int((y1 + 1e-6) * inv), 0), grid.rows - 1)
    start = grid.cell_start
    # Each row of cells is one run of the CSR arrays.
    runs = [
        grid.cell_walls[start[row * grid.columns + lo_x] : start[row * grid.columns + hi_x + 1]]
        for row in range(lo_y, hi_y + 1)
    ]
    found: IntArray = np.unique(np.concatenate(runs)) if runs else np.zeros(0, np.intp)
    return found


def touch_any(
    grid: WallGrid,
    px: FloatArray,
    py: FloatArray,
    qx: FloatArray,
    qy: FloatArray,
    walls: IntArray,
) -> NDArray[np.bool_]:
    """Whether each segment p->q touches any of ``walls`` (every segment against every wall)."""
    if len(walls) == 0 or len(px) == 0:
        return np.zeros(len(px), dtype=bool)
    touching = _hits(
        grid, px[:, None], py[:, None], qx[:, None], qy[:, None], walls[None, :], False
    )[0]
    result: NDArray[np.bool_] = np.asarray(touching.any(axis=1))
    return result


_FROM = np.arange(16) // 4
_TO = np.arange(16) % 4


def touches_16(
    grid: WallGrid,
    wall: IntArray,
    px: FloatArray,
    py: FloatArray,
    qx: FloatArray,
    qy: FloatArray,
) -> NDArray[np.bool_]:
    """Whether ``wall[i]`` touches each line k from corner k // 4 of p to corner k % 4 of q.

    ``px, py, qx, qy`` are (m, 4) corners; the answer is (m, 16). The arithmetic is that of
    ``_hits``, element for element, so the answers are the same; the factors that depend
    on one end only are worked out once per corner instead of once per line.
    """
    ax, ay = grid.x1[wall][:, None], grid.y1[wall][:, None]
    bx, by = grid.x2[wall][:, None], grid.y2[wall][:, None]
    sx, sy = bx - ax, by - ay
    o3 = sx * (py - ay) - sy * (px - ax)
    o4 = sx * (qy - ay) - sy * (qx - ax)
    touching = (o3[:, _FROM] * o4[:, _TO]) <= 0
    rows = np.flatnonzero(touching.any(axis=1))
    if len(rows) == 0:
        return touching
    p_x, p_y = px[rows][:, _FROM], py[rows][:, _FROM]
    rx, ry = qx[rows][:, _TO] - p_x, qy[rows][:, _TO] - p_y
    a_x, a_y, b_x, b_y = ax[rows], ay[rows], bx[rows], by[rows]
    o1 = rx * (a_y - p_y) - ry * (a_x - p_x)
    o2 = rx * (b_y - p_y) - ry * (b_x - p_x)
    touching[rows] &= o1 * o2 <= 0
    collinear = (o1 == 0) & (o2 == 0)
    if collinear.any():
        # Rare: a line along a wall. Let the full test settle those rows.
        odd = np.flatnonzero(collinear.any(axis=1))
        at = rows[odd]
        touching[at] = hits_many(
            grid, px[at][:, _FROM], py[at][:, _FROM], qx[at][:, _TO], qy[at][:, _TO], wall[at]
        )
    return touching


def cuts_between(
    grid: WallGrid, walls: IntArray, a: FloatArray, b: FloatArray
) -> NDArray[np.bool_]:
    """Whether ``walls[i]`` runs right across the strip between unit squares a[i] and b[i].

    ``a`` and ``b`` are the squares' top-left corners. The 16 corner lines of the pair lie
    in the strip that a unit square sweeps along the centre line; between the two squares
    (more than half a square's reach from either centre) that strip is all hull, so a wall
    from beyond one side of it to beyond the other, crossing it there, meets every corner
    line. The slack here (1e-6) and the corner inset (about 1e-3) are far larger than
    rounding, so the touch test says the same for every one of the 16 lines.
    """
    cx, cy = a[:, 0] + 0.5, a[:, 1] + 0.5
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    length = np.hypot(dx, dy)
    with np.errstate(divide="ignore", invalid="ignore"):
        ux, uy = dx / length, dy / length
    width = 0.5 * (np.abs(ux) + np.abs(uy)) + 1e-6
    x1, y1, x2, y2 = (
        grid.x1[walls] - cx,
        grid.y1[walls] - cy,
        grid.x2[walls] - cx,
        grid.y2[walls] - cy,
    )
    side_1, side_2 = ux * y1 - uy * x1, ux * y2 - uy * x2
    along_1, along_2 = ux * x1 + uy * y1, ux * x2 + uy * y2
    crosses = ((side_1 > width) & (side_2 < -width)) | ((side_1 < -width) & (side_2 > width))
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (along_2 - along_1) / (side_2 - side_1)
    at_one = along_1 + slope * (width - side_1)
    at_other = along_1 + slope * (-width - side_1)
    result: NDArray[np.bool_] = (
        crosses
        & (np.minimum(at_one, at_other) > width)
        & (np.maximum(at_one, at_other) < length - width)
    )
    return result
