"""Level of detail: how much of the map's drawing is worth doing at the painter's scale.

Below ``DETAIL_MIN_PIXELS_PER_SQUARE`` screen pixels per square, text would be under 5 px
tall and a wall's double stroke under a pixel wide, so items draw a simple version (a disc
for a token, one thin line for a wall or a door). Drawing every detail of a hundred tokens
and two thousand walls made a wheel zoom over a whole big map stutter.
"""

from __future__ import annotations

from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from desktop.scene.style import SQUARE

DETAIL_MIN_PIXELS_PER_SQUARE = 14.0


def pixels_per_square(painter: QPainter) -> float:
    """How many device pixels one square covers under the painter's current transform."""
    lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    return lod * SQUARE


def shows_details(painter: QPainter) -> bool:
    """Whether text, badges and double strokes are worth drawing at the painter's scale."""
    return pixels_per_square(painter) >= DETAIL_MIN_PIXELS_PER_SQUARE
