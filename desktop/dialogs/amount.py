"""How much damage or healing the GM deals by hand, and what it would do before OK.

What a number means is the rule system's business: hit points off a pool, or a damage
total compared with Toughness that may leave the token Shaken, wounded or out. So under
the number the dialog shows the engine's own words for that amount: the same command
dry-run on a throw-away copy of the state (states are immutable), in the combat log's
words, redone on every change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

#: What the command would do with an amount: the log lines of its dry run.
Foresee = Callable[[int], Sequence[str]]
#: Lines the outcome has room for from the start: the damage, a wound, a knock-out...
ROOM_LINES = 4


class AmountDialog(QDialog):
    """A whole number and, below it, what the engine says it would do."""

    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        label: str,
        foresee: Foresee,
        value: int = 1,
        minimum: int = 1,
        maximum: int = 9999,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.foresee = foresee
        self.box = QSpinBox()
        self.box.setRange(minimum, maximum)
        self.box.setValue(value)
        self.box.valueChanged.connect(self._show_outcome)
        self.outcome = QLabel()
        self.outcome.setWordWrap(True)
        self.outcome.setTextFormat(Qt.TextFormat.PlainText)
        self.outcome.setMinimumWidth(320)
        # Room for the usual outcome from the start: OK must not slide down under the
        # pointer while the GM types 12 and the knock-out line appears (a click missed it).
        self.outcome.setMinimumHeight(ROOM_LINES * self.outcome.fontMetrics().lineSpacing())
        self.outcome.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        form = QFormLayout()
        form.addRow(label, self.box)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = self.column = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.outcome)
        layout.addWidget(buttons)
        self._show_outcome(value)
        self.box.selectAll()

    def value(self) -> int:
        return self.box.value()

    def set_value(self, value: int) -> None:
        """Type a number (what a GM does; tests use it too)."""
        self.box.setValue(value)

    def _show_outcome(self, value: int) -> None:
        lines = list(self.foresee(value))
        self.outcome.setText("\n".join(lines))
        # Grow (or shrink) with the lines: a bigger amount says more (a wound, a knock-out),
        # and a dialog sized for the first line would cut the rest off.
        layout = self.column
        layout.activate()
        height = (
            layout.totalHeightForWidth(self.width())
            if layout.hasHeightForWidth()
            else self.sizeHint().height()
        )
        # Once shown, grow only: a shrinking dialog would move OK up under the pointer.
        shown = self.height() if self.isVisible() else 0
        self.resize(self.width(), max(height, self.minimumSizeHint().height(), shown))
