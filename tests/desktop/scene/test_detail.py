"""Level of detail follows the painter's scale, whatever item asks."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage, QPainter

from desktop.scene.detail import DETAIL_MIN_PIXELS_PER_SQUARE, pixels_per_square, shows_details
from desktop.scene.style import SQUARE


@pytest.mark.parametrize("scale", [0.05, 0.2, 1.0, 2.5])
def test_pixels_per_square_is_the_painter_scale_times_a_square(qapp, scale: float) -> None:
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        painter.scale(scale, scale)
        assert pixels_per_square(painter) == pytest.approx(scale * SQUARE)
        assert shows_details(painter) == (scale * SQUARE >= DETAIL_MIN_PIXELS_PER_SQUARE)
    finally:
        painter.end()
