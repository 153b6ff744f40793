"""A frameless area that scrolls its contents up and down, never sideways."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


def vertical_scroll(contents: QWidget) -> QScrollArea:
    """``contents`` at the area's width, scrolling when taller (a dialog or a dock's fields
    that must not push the window past the screen)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(contents)
    return area
