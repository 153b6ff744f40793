"""The outline of a set of squares: few rectangles, covering each square exactly once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QPointF

from desktop.scene.square_outline import square_blocks, squares_path
from desktop.scene.style import SQUARE
from engine.grid import Square

squares_sets = st.frozensets(st.builds(Square, st.integers(0, 9), st.integers(0, 9)),
                             max_size=60)


@given(squares_sets)
def test_the_blocks_cover_each_square_once_and_nothing_else(squares: frozenset[Square]) -> None:
    covered = [Square(left + dx, top + dy)
               for left, top, width, height in square_blocks(squares)
               for dx in range(width) for dy in range(height)]
    assert sorted(covered) == sorted(squares)


def test_a_filled_rectangle_is_one_block_and_a_ring_four() -> None:
    filled = {Square(x, y) for x in range(2, 7) for y in range(1, 4)}
    assert square_blocks(filled) == [(2, 1, 5, 3)]
    ring = {Square(x, y) for x in range(5) for y in range(5)} - {Square(x, y) for x in
                                                                 range(1, 4) for y in range(1, 4)}
    assert len(square_blocks(ring)) == 4


def test_the_path_holds_the_squares_centres_only() -> None:
    squares = {Square(0, 0), Square(1, 0), Square(1, 1), Square(3, 3)}
    path = squares_path(squares)
    for x in range(5):
        for y in range(5):
            centre = QPointF((x + 0.5) * SQUARE, (y + 0.5) * SQUARE)
            assert path.contains(centre) == (Square(x, y) in squares)
