"""The map background draws walls and grid in full at readable sizes and simply when zoomed far
out (level of detail), so a wheel zoom over a big map stays smooth."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from desktop.scene import style
from desktop.scene.background import GRID_MIN_PIXELS_APART, MapBackground
from desktop.scene.detail import DETAIL_MIN_PIXELS_PER_SQUARE
from desktop.scene.style import SQUARE
from engine.battlemap import BattleMap, Wall

WALL = Wall((2.0, 5.0), (8.0, 5.0))


def _render(battlemap: BattleMap, pixels_per_square: float) -> QImage:
    """The whole map's background, ``pixels_per_square`` device pixels to a square."""
    factor = pixels_per_square / SQUARE
    image = QImage(
        round(battlemap.width * pixels_per_square),
        round(battlemap.height * pixels_per_square),
        QImage.Format.Format_ARGB32_Premultiplied,
    )
    image.fill(QColor("black"))
    background = MapBackground(battlemap)
    painter = QPainter(image)
    painter.scale(factor, factor)
    background.paint(painter, background.rect)
    painter.end()
    return image


def _wall_pixels_in_column(pixels_per_square: float, column_square: float) -> list[QColor]:
    """The colours the wall changed in one pixel column (rendered with and without it)."""
    with_wall = _render(BattleMap(10, 10, walls=(WALL,)), pixels_per_square)
    without = _render(BattleMap(10, 10), pixels_per_square)
    x = int(column_square * pixels_per_square)
    return [
        with_wall.pixelColor(x, y)
        for y in range(with_wall.height())
        if with_wall.pixelColor(x, y) != without.pixelColor(x, y)
    ]


def test_far_out_a_wall_is_one_plain_pixel_line(qapp: QApplication) -> None:
    changed = _wall_pixels_in_column(DETAIL_MIN_PIXELS_PER_SQUARE - 4, 5.5)
    assert changed == [style.WALL_EDGE]  # one pixel thick, no antialiased blend, no dark core


def test_at_readable_sizes_a_wall_is_the_full_double_stroke(qapp: QApplication) -> None:
    changed = _wall_pixels_in_column(DETAIL_MIN_PIXELS_PER_SQUARE + 6, 5.5)
    assert len(changed) >= 3  # 11 scene px of pale edge at 20 px a square
    assert any(colour.lightness() < 40 for colour in changed)  # the dark core


def _column_has_line(image: QImage, x: int, y: int) -> bool:
    """Whether a vertical grid line crosses row ``y`` within a pixel of column ``x``."""
    floor = image.pixelColor(x + 2, y)
    return any(image.pixelColor(px, y) != floor for px in (x - 1, x, x + 1))


def test_the_grid_keeps_only_lines_far_enough_apart(qapp: QApplication) -> None:
    battlemap = BattleMap(20, 20)
    readable = _render(battlemap, GRID_MIN_PIXELS_APART + 4)  # 10 px a square
    assert _column_has_line(readable, 10, 5)  # a minor line
    dense = _render(battlemap, GRID_MIN_PIXELS_APART - 2)  # 4 px a square
    assert not _column_has_line(dense, 4, 2)  # minor lines left out
    assert _column_has_line(dense, 20, 2)  # the line every fifth square, 20 px apart, stays
    tiny = _render(battlemap, 1.0)  # even the fifth-square lines would be 5 px apart
    assert len({tiny.pixelColor(x, 7).rgba() for x in range(tiny.width())}) == 1
