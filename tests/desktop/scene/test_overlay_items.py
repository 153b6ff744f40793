"""Overlay items: their bounds hold everything they paint (else a repaint leaves trails)."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from desktop.scene.overlay_items import SightLinesItem


def test_sight_line_bounds_hold_the_origin_and_every_target(qapp: QApplication) -> None:
    item = SightLinesItem()
    origin = QPointF(100, 100)
    targets = [QPointF(900, 120), QPointF(-300, 700), QPointF(500, -50)]
    item.set_lines(origin, targets)
    bounds = item.boundingRect()
    for point in (origin, *targets):
        assert bounds.contains(point), point
    assert bounds.left() <= -300 and bounds.right() >= 900
    assert bounds.top() <= -50 and bounds.bottom() >= 700


def test_sight_lines_along_one_row_still_have_height_for_the_pen(qapp: QApplication) -> None:
    item = SightLinesItem()
    item.set_lines(QPointF(0, 64), [QPointF(640, 64), QPointF(320, 64)])
    bounds = item.boundingRect()
    assert bounds.left() <= 0 and bounds.right() >= 640
    assert bounds.height() >= 2.5  # the dashed pen is 2.5 units wide
