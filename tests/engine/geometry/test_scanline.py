"""The scanline fill's runs cover exactly the lattice points inside the rings (Shapely agrees)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry._scanline import lattice_runs

#: Star-shaped rings like visibility outlines: radii around a centre, in angle order.
_star = st.tuples(
    st.floats(2, 8),
    st.floats(2, 8),
    st.lists(st.floats(0.2, 6), min_size=3, max_size=40),
).map(
    lambda spec: np.column_stack(
        [
            spec[0]
            + np.array(spec[2]) * np.cos(np.linspace(-np.pi, np.pi, len(spec[2]), endpoint=False)),
            spec[1]
            + np.array(spec[2]) * np.sin(np.linspace(-np.pi, np.pi, len(spec[2]), endpoint=False)),
        ]
    )
)

def lattice_inside(rings: list[np.ndarray], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The runs as a (len(ys), len(xs)) mask of the lattice points inside some ring."""
    inside = np.zeros((len(ys), len(xs)), dtype=bool)
    for row, first, stop in zip(*lattice_runs(rings, xs, ys), strict=True):
        inside[row, first:stop] = True
    return inside


#: A lattice like the sight corners of squares: two points per square, a hair inside it.
_LATTICE = (np.arange(12)[:, None] + np.array([2.0**-10, 1 - 2.0**-10])).ravel()


@settings(max_examples=200, deadline=None)
@given(st.lists(_star, min_size=1, max_size=4))
def test_lattice_points_inside_match_shapely(rings: list[np.ndarray]) -> None:
    inside = lattice_inside(rings, _LATTICE, _LATTICE)
    xs, ys = np.meshgrid(_LATTICE, _LATTICE)
    polygons = [shapely.Polygon(ring) for ring in rings]
    expected = np.zeros(xs.shape, dtype=bool)
    for polygon in polygons:
        expected |= shapely.contains_xy(polygon, xs, ys)
    # Points on an outline may go either way; the lattice almost never meets one.
    on_edge = np.zeros(xs.shape, dtype=bool)
    for polygon in polygons:
        on_edge |= shapely.dwithin(polygon.exterior, shapely.points(xs, ys), 1e-9)
    assert np.array_equal(inside[~on_edge], expected[~on_edge])


def test_a_square_ring_covers_its_lattice_points_and_no_others() -> None:
    ring = np.array([(2.5, 2.5), (5.5, 2.5), (5.5, 4.5), (2.5, 4.5)])
    lattice = np.arange(8, dtype=np.float64)
    inside = lattice_inside([ring], lattice, lattice)
    rows, columns = np.nonzero(inside)
    assert set(zip(columns.tolist(), rows.tolist(), strict=True)) == {
        (x, y) for x in (3, 4, 5) for y in (3, 4)
    }


def test_degenerate_rings_and_empty_lattices_cover_nothing() -> None:
    lattice = np.arange(4, dtype=np.float64)
    assert not lattice_inside([np.array([(0.5, 0.5), (2.5, 2.5)])], lattice, lattice).any()
    assert lattice_inside([], lattice, lattice).shape == (4, 4)
    assert lattice_inside([np.zeros((3, 2))], np.zeros(0), lattice).shape == (4, 0)
