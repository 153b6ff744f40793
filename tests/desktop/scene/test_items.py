"""Doors and windows draw in full at readable sizes and as one plain line when zoomed far out
(level of detail)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication, QStyleOptionGraphicsItem

from desktop.scene import style
from desktop.scene.detail import DETAIL_MIN_PIXELS_PER_SQUARE
from desktop.scene.items import PortalItem
from desktop.scene.style import SQUARE
from engine.battlemap import Portal, PortalKind, PortalState

FLOOR = QColor("#3b3f45")
LOCK = QColor("#f4d03f")


def _render(portal: Portal, pixels_per_square: float) -> QImage:
    """The portal alone on the floor colour, in a 4x4-square image."""
    factor = pixels_per_square / SQUARE
    size = round(4 * pixels_per_square)
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(FLOOR)
    painter = QPainter(image)
    painter.scale(factor, factor)
    PortalItem(portal).paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return image


def _colours(image: QImage) -> set[int]:
    return {
        image.pixelColor(x, y).rgba() for x in range(image.width()) for y in range(image.height())
    } - {FLOOR.rgba()}


LOCKED_DOOR = Portal("d1", (1.0, 2.0), (3.0, 2.0), PortalKind.DOOR, PortalState.LOCKED)


def test_far_out_a_locked_door_is_one_line_in_its_colour(qapp: QApplication) -> None:
    image = _render(LOCKED_DOOR, DETAIL_MIN_PIXELS_PER_SQUARE - 4)
    colour = style.portal_colour(LOCKED_DOOR.kind, LOCKED_DOOR.state)
    assert _colours(image) == {colour.rgba()}  # no dark bar, no lock, no antialiasing


def test_at_readable_sizes_a_locked_door_shows_its_lock(qapp: QApplication) -> None:
    image = _render(LOCKED_DOOR, SQUARE)
    assert LOCK.rgba() in _colours(image)


def test_far_out_an_open_door_is_its_swung_leaf(qapp: QApplication) -> None:
    door = Portal("d2", (1.0, 2.0), (3.0, 2.0), PortalKind.DOOR, PortalState.OPEN)
    image = _render(door, 10.0)
    columns = {
        x
        for x in range(image.width())
        for y in range(image.height())
        if image.pixelColor(x, y) != FLOOR
    }
    assert max(columns) - min(columns) <= 2  # upright at the hinge, not along the doorway
