"""Which points of a rectangular lattice lie inside some polygons: a scanline fill.

Testing each point against each polygon costs points times polygons; a scanline fill
costs the polygons' edges times the rows they span, plus one pass over the lattice. Each
edge is taken over the half-open span of rows [lower end, upper end), so a closed ring
crosses every row an even number of times and its crossings pair up into the runs of
lattice points inside it (even-odd rule, per ring; the rings are then united).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


def lattice_runs(
    rings: Sequence[FloatArray], xs: FloatArray, ys: FloatArray
) -> tuple[IntArray, IntArray, IntArray]:
    """The runs of lattice points inside the rings: ``(row, first, stop)`` arrays.

    Run k covers points ``(xs[i], ys[row[k]])`` for ``first[k] <= i < stop[k]``; runs of
    different rings may overlap. ``xs`` and ``ys`` increase; each ring is an (n, 2) array
    of its vertices, closed implicitly (the last vertex joins the first).
    """
    empty = np.zeros(0, dtype=np.intp)
    rings = [ring for ring in rings if len(ring) >= 3]
    if not rings or len(xs) == 0 or len(ys) == 0:
        return empty, empty, empty
    sizes = np.array([len(ring) for ring in rings])
    starts = np.cumsum(sizes) - sizes
    p = np.concatenate(rings)
    following = np.arange(1, len(p) + 1)
    following[starts + sizes - 1] = starts  # each ring's last vertex joins its first
    q = p[following]
    ring_of = np.repeat(np.arange(len(rings)), sizes)
    first_row = np.searchsorted(ys, np.minimum(p[:, 1], q[:, 1]), "left")
    rows_spanned = np.searchsorted(ys, np.maximum(p[:, 1], q[:, 1]), "left") - first_row
    total = int(rows_spanned.sum())
    if total == 0:
        return empty, empty, empty
    edge = np.repeat(np.arange(len(p)), rows_spanned)
    row = (
        first_row[edge]
        + np.arange(total)
        - np.repeat(np.cumsum(rows_spanned) - rows_spanned, rows_spanned)
    )
    px, py, qx, qy = p[edge, 0], p[edge, 1], q[edge, 0], q[edge, 1]
    x = px + (ys[row] - py) * (qx - px) / (qy - py)  # rows_spanned > 0, so qy != py
    order = np.lexsort((x, row, ring_of[edge]))
    x, row = x[order], row[order]
    run_row = row[0::2]
    first = np.searchsorted(xs, x[0::2], "left")  # first lattice column at or after entry
    stop = np.searchsorted(xs, x[1::2], "right")  # first lattice column past the exit
    keep = first < stop
    return run_row[keep], first[keep], stop[keep]
