"""The vectorised wall cutting agrees with Shapely, step by step, for any wall."""

from __future__ import annotations

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.grid import NEIGHBOUR_STEPS, Square
from engine.routes.cuts import compute_cuts

SIZE = 7
coordinate = st.floats(-1.5, SIZE + 1.5, allow_nan=False).map(lambda v: round(v * 4) / 4)
walls = st.lists(
    st.tuples(coordinate, coordinate, coordinate, coordinate).filter(
        lambda t: (t[0], t[1]) != (t[2], t[3])
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(walls)
def test_a_step_is_cut_exactly_when_a_wall_touches_it(rows: list[tuple[float, ...]]) -> None:
    battlemap = BattleMap(SIZE, SIZE, walls=tuple(Wall((a, b), (c, d)) for a, b, c, d in rows))
    lines = [shapely.LineString([(a, b), (c, d)]) for a, b, c, d in rows]
    cuts = compute_cuts(battlemap)
    for y in range(SIZE):
        for x in range(SIZE):
            bits = cuts.open_bits[y * SIZE + x]
            for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
                other = Square(x + dx, y + dy)
                if not (0 <= other.x < SIZE and 0 <= other.y < SIZE):
                    assert not bits >> k & 1
                    continue
                step = shapely.LineString([(x + 0.5, y + 0.5), other.centre])
                touched = any(step.intersects(line) for line in lines)
                assert bool(bits >> k & 1) == (not touched), (x, y, dx, dy)
