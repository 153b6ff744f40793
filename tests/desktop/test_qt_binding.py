"""The Qt binding must not drop references to None (PySide6 6.12.0 did, on every void call,
which crashes a long session with "deallocating None" on Python 3.11)."""

from __future__ import annotations

import sys

from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication


def test_void_painter_calls_keep_none_alive(qapp: QApplication) -> None:
    image = QImage(8, 8, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    before = sys.getrefcount(None)
    for _ in range(200):
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QColor(1, 2, 3))
    after = sys.getrefcount(None)
    painter.end()
    assert after >= before - 50  # a leaking binding loses 400 references here
