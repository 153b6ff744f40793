"""The plain line-of-sight answer the fast kernels are checked and timed against.

Each sight line is one query of the map's shapely R-tree (slow, and obviously right). The
property tests compare ``engine.geometry.los.segments_blocked`` with it, and
``tests/benchmarks/bench_geometry.py`` reports its time as the naive figure; the engine
itself never calls it, so it lives here.
"""

from __future__ import annotations

import numpy as np
import shapely
from numpy.typing import NDArray

from engine.battlemap import BattleMap
from engine.geometry._index import FloatArray, sight_index


def segments_blocked_reference(
    battlemap: BattleMap, starts: FloatArray, ends: FloatArray
) -> NDArray[np.bool_]:
    """The same answer as ``segments_blocked`` by a plain R-tree query."""
    index = sight_index(battlemap)
    count = len(starts)
    blocked = np.zeros(count, dtype=bool)
    if count == 0 or len(index.segments) == 0:
        return blocked
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    hits = index.tree.query(lines, predicate="intersects")
    blocked[hits[0]] = True
    return blocked
