"""Vectorised segment-against-wall tests that walk a bucket grid from the start outwards.

Long sight lines have large bounding boxes, so an R-tree hands back hundreds of candidate
walls for each. Instead the walls are bucketed in a coarse grid once per map, and all query
segments advance together, a few cells per round, nearest first: a segment leaves the
active set as soon as something blocks it, which on a walled map is usually within a few
squares. Every step is a NumPy operation over all active segments at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

#: Side of one bucket, in squares.
CELL = 4.0


@dataclass(frozen=True, eq=False)
class WallGrid:
    """Sight-blocking segments bucketed by the grid cells their bounding boxes overlap."""

    segments: FloatArray  # (n, 4): x1, y1, x2, y2
    columns: int
    rows: int
    cell_start: IntArray  # (columns * rows + 1,) CSR offsets into cell_walls
    cell_walls: IntArray


def build_wall_grid(segments: FloatArray, width: int, height: int) -> WallGrid:
    columns = max(1, int(np.ceil(width / CELL)))
    rows = max(1, int(np.ceil(height / CELL)))
    if len(segments) == 0:
        return WallGrid(
            segments, columns, rows, np.zeros(columns * rows + 1, np.intp), np.zeros(0, np.intp)
        )
    lo_x = np.clip(np.floor(np.minimum(segments[:, 0], segments[:, 2]) / CELL), 0, columns - 1)
    hi_x = np.clip(np.floor(np.maximum(segments[:, 0], segments[:, 2]) / CELL), 0, columns - 1)
    lo_y = np.clip(np.floor(np.minimum(segments[:, 1], segments[:, 3]) / CELL), 0, rows - 1)
    hi_y = np.clip(np.floor(np.maximum(segments[:, 1], segments[:, 3]) / CELL), 0, rows - 1)
    wall_ids: list[int] = []
    cell_ids: list[int] = []
    for wall, (x0, x1, y0, y1) in enumerate(
        zip(lo_x.astype(int), hi_x.astype(int), lo_y.astype(int), hi_y.astype(int), strict=True)
    ):
        for cy in range(y0, y1 + 1):
            for cx in range(x0, x1 + 1):
                wall_ids.append(wall)
                cell_ids.append(cy * columns + cx)
    cells = np.asarray(cell_ids, dtype=np.intp)
    order = np.argsort(cells, kind="stable")
    counts = np.bincount(cells, minlength=columns * rows)
    cell_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.intp)
    return WallGrid(segments, columns, rows, cell_start, np.asarray(wall_ids, dtype=np.intp)[order])


def _cross(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    result: FloatArray = ax * by - ay * bx
    return result


def _hits(
    grid: WallGrid, starts: FloatArray, ends: FloatArray, seg: IntArray, wall: IntArray
) -> tuple[NDArray[np.bool_], FloatArray]:
    """Whether segment ``seg[i]`` touches wall ``wall[i]`` (closed segments), and where (t)."""
    px, py = starts[seg, 0], starts[seg, 1]
    rx, ry = ends[seg, 0] - px, ends[seg, 1] - py
    w = grid.segments[wall]
    ax, ay = w[:, 0], w[:, 1]
    sx, sy = w[:, 2] - ax, w[:, 3] - ay
    o1 = _cross(rx, ry, ax - px, ay - py)
    o2 = _cross(rx, ry, w[:, 2] - px, w[:, 3] - py)
    o3 = _cross(sx, sy, px - ax, py - ay)
    o4 = _cross(sx, sy, ends[seg, 0] - ax, ends[seg, 1] - ay)
    proper = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    collinear = (o1 == 0) & (o2 == 0)
    if collinear.any():
        # On one line: they touch when their bounding boxes overlap.
        overlap = (
            (np.minimum(px, px + rx) <= np.maximum(ax, ax + sx))
            & (np.minimum(ax, ax + sx) <= np.maximum(px, px + rx))
            & (np.minimum(py, py + ry) <= np.maximum(ay, ay + sy))
            & (np.minimum(ay, ay + sy) <= np.maximum(py, py + ry))
        )
        proper = np.where(collinear, overlap, proper)
    denominator = _cross(rx, ry, sx, sy)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = _cross(ax - px, ay - py, sx, sy) / denominator
    t = np.where(denominator == 0, 0.0, np.clip(t, 0.0, 1.0))
    return proper, t


def touches(
    grid: WallGrid, starts: FloatArray, ends: FloatArray, walls: IntArray
) -> NDArray[np.bool_]:
    """Whether each segment touches the given wall (one wall per segment)."""
    seg = np.arange(len(starts), dtype=np.intp)
    return _hits(grid, starts, ends, seg, walls)[0]


def first_hits(
    grid: WallGrid, starts: FloatArray, ends: FloatArray, nearest: bool = False
) -> tuple[FloatArray, IntArray]:
    """For each segment, the parameter t in [0, 1] where it touches a wall, and that wall.

    A clear segment gets t = inf and wall -1. With ``nearest`` the touch is the nearest one;
    otherwise any touch will do, which lets a segment stop at the first one found.
    """
    count = len(starts)
    result = np.full(count, np.inf)
    which = np.full(count, -1, dtype=np.intp)
    if count == 0 or len(grid.segments) == 0:
        return result, which
    delta = ends - starts
    length = np.hypot(delta[:, 0], delta[:, 1])
    pieces = np.maximum(1, np.ceil(length / CELL)).astype(np.intp)
    active = np.arange(count, dtype=np.intp)
    done = np.zeros(count, dtype=np.intp)  # pieces already examined per segment
    step = 1
    while len(active):
        take = np.minimum(step, pieces[active] - done[active])
        seg = np.repeat(active, take)
        offsets = np.arange(len(seg)) - np.repeat(np.cumsum(take) - take, take)
        piece = done[seg] + offsets
        t0 = piece / pieces[seg]
        t1 = (piece + 1) / pieces[seg]
        x0 = starts[seg, 0] + delta[seg, 0] * t0
        y0 = starts[seg, 1] + delta[seg, 1] * t0
        x1 = starts[seg, 0] + delta[seg, 0] * t1
        y1 = starts[seg, 1] + delta[seg, 1] * t1
        cx0 = np.clip(np.floor(np.minimum(x0, x1) / CELL), 0, grid.columns - 1).astype(np.intp)
        cx1 = np.clip(np.floor(np.maximum(x0, x1) / CELL), 0, grid.columns - 1).astype(np.intp)
        cy0 = np.clip(np.floor(np.minimum(y0, y1) / CELL), 0, grid.rows - 1).astype(np.intp)
        cy1 = np.clip(np.floor(np.maximum(y0, y1) / CELL), 0, grid.rows - 1).astype(np.intp)
        # Up to four cells per piece; a repeated cell is dropped.
        cell_seg = np.concatenate([seg, seg, seg, seg])
        cells = np.concatenate(
            [
                cy0 * grid.columns + cx0,
                np.where(cx1 != cx0, cy0 * grid.columns + cx1, -1),
                np.where(cy1 != cy0, cy1 * grid.columns + cx0, -1),
                np.where((cx1 != cx0) & (cy1 != cy0), cy1 * grid.columns + cx1, -1),
            ]
        )
        keep = cells >= 0
        cell_seg, cells = cell_seg[keep], cells[keep]
        first = grid.cell_start[cells]
        counts = grid.cell_start[cells + 1] - first
        pair_seg = np.repeat(cell_seg, counts)
        pair_wall = grid.cell_walls[
            np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        ]
        touching, t = _hits(grid, starts, ends, pair_seg, pair_wall)
        hit_seg, hit_t, hit_wall = pair_seg[touching], t[touching], pair_wall[touching]
        if len(hit_seg):
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
            reached = done[active] / pieces[active]
            settled = result[active] <= reached
            active = active[~(finished | settled)]
        else:
            active = active[~(finished | np.isfinite(result[active]))]
        step *= 2
    return result, which
