"""A drag's route squares tinted by the band of reach each falls in, as a VTT's drag ruler
colours them: the ordinary move, what else the drag may spend (a double move, a run), out
of reach. The engine says which band each square is in (``desktop.movement.DragPlan``);
this module only picks the colours.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QColor

from desktop.scene import style
from desktop.scene.rule_overlays import AreaItem
from desktop.scene.square_outline import squares_path
from engine.grid import Square

#: How strongly a band's squares are filled: the route line stays the thing read first.
BAND_FILL_ALPHA = 60


def band_colour(band: int | None) -> QColor:
    """The ordinary move's colour, the second band's, any further band's, or out of reach."""
    if band is None:
        return style.ROUTE_BAD
    return (style.ROUTE_OK, style.ROUTE_LONG, style.ROUTE_LONGEST)[min(band, 2)]


def band_items(squares: Sequence[Square], bands: Sequence[int | None]) -> list[AreaItem]:
    """One tinted area per band among the route's squares (start excluded), under tokens."""
    by_colour: dict[str, tuple[QColor, list[Square]]] = {}
    for square, band in zip(squares, bands, strict=False):
        colour = band_colour(band)
        by_colour.setdefault(colour.name(), (colour, []))[1].append(square)
    items = []
    for colour, group in by_colour.values():
        item = AreaItem(squares_path(group), colour, BAND_FILL_ALPHA)
        item.setZValue(style.Z_OVERLAY_BELOW_TOKENS)
        items.append(item)
    return items
