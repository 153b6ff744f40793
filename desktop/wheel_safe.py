"""List and number boxes that a mouse wheel passing over them does not change.

Qt's own boxes take a wheel turn as "next entry" even when the GM is only scrolling a long
form (an action's options, a stat block): the weapon under the pointer silently became a
stun baton while the card scrolled. These boxes take the wheel only once the GM has clicked
or tabbed into them; otherwise the turn goes on to the form around them, which scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QSpinBox, QWidget


def _calm(box: QWidget) -> None:
    # Not WheelFocus (the boxes' default): a wheel turn would focus the box and then change it.
    box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def _wheel(box: QWidget, event: QWheelEvent, base: type[QWidget]) -> None:
    if box.hasFocus():
        base.wheelEvent(box, event)
    else:
        event.ignore()  # an ignored wheel turn goes on to the form around the box, which scrolls


class WheelSafeComboBox(QComboBox):
    """A list box that changes with the wheel only while it has the focus."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        _calm(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, QComboBox)


class WheelSafeSpinBox(QSpinBox):
    """A whole-number box that changes with the wheel only while it has the focus."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        _calm(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, QSpinBox)


class WheelSafeDoubleSpinBox(QDoubleSpinBox):
    """A number box that changes with the wheel only while it has the focus."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        _calm(self)

    def wheelEvent(self, event: QWheelEvent) -> None:
        _wheel(self, event, QDoubleSpinBox)
