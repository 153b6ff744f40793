"""The outline of a set of squares (terrain, fog, a brush stroke) as one painter path.

Qt merges overlapping rectangles (QPainterPath.simplified) at a cost that grows with the
rectangles, not the area, so the squares are first joined into as few rectangles as a
simple sweep finds: runs along each row, and equal runs of consecutive rows stacked. The
250,000 squares of a map at every limit took 2.8 s one rectangle a square.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import groupby
from operator import itemgetter

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainterPath

from desktop.scene.style import SQUARE
from engine.grid import Square

#: A rectangle of whole squares: left, top, width and height, in squares.
Block = tuple[int, int, int, int]


def squares_path(squares: Iterable[Square]) -> QPainterPath:
    """The outline of a set of squares, merged into one path."""
    path = QPainterPath()
    for left, top, width, height in square_blocks(squares):
        path.addRect(QRectF(left * SQUARE, top * SQUARE, width * SQUARE, height * SQUARE))
    return path.simplified()


def square_blocks(squares: Iterable[Square]) -> list[Block]:
    """Rectangles covering exactly ``squares`` (each once), few for compact shapes."""
    blocks: list[Block] = []
    #: The previous row's runs, (left, right) -> the row their rectangle started on.
    above: dict[tuple[int, int], int] = {}
    last_row = 0
    for row, runs in _rows(squares):
        here: dict[tuple[int, int], int] = {}
        for run in runs:
            # A run exactly below one of the row above grows that rectangle downwards.
            here[run] = above.pop(run, row) if row == last_row + 1 else row
        _end(blocks, above, last_row)
        above, last_row = here, row
    _end(blocks, above, last_row)
    return blocks


def _rows(squares: Iterable[Square]) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """Each row holding squares, top to bottom, with its runs as (left, right + 1)."""
    for y, row in groupby(sorted({(square.y, square.x) for square in squares}), itemgetter(0)):
        runs: list[tuple[int, int]] = []
        for _, x in row:
            if runs and runs[-1][1] == x:
                runs[-1] = (runs[-1][0], x + 1)
            else:
                runs.append((x, x + 1))
        yield y, runs


def _end(blocks: list[Block], runs: dict[tuple[int, int], int], last_row: int) -> None:
    """The rectangles of ``runs`` end with ``last_row``."""
    for (left, right), top in runs.items():
        blocks.append((left, top, right - left, last_row + 1 - top))
