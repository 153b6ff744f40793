"""How much damage or healing the GM deals by hand, and what it would do before OK.

What a number means is the rule system's business: hit points off a pool, or a damage
total compared with Toughness that may leave the token Shaken, wounded or out. So under
the number the dialog shows the engine's own words for that amount: the same command
dry-run on a throw-away copy of the state (states are immutable), in the combat log's
words, redone on every change.

A GM used to typing ``/r 3d6`` in a VTT's chat may roll the amount here too: a dice
expression in the Roll box, rolled by the engine's dice, puts its total in the number and
its faces under it. Only the total is sent, as if typed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.dice import DiceError, Roll, roll_once

#: What the command would do with an amount: the log lines of its dry run.
Foresee = Callable[[int], Sequence[str]]
#: Rolls a dice expression for the amount (the engine's dice; a test fixes the faces).
RollDice = Callable[[str], Roll]
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
        roll_dice: RollDice | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.foresee = foresee
        self.roll_dice = roll_dice or (lambda expression: roll_once(expression, label))
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
        self.dice_box = QLineEdit()
        self.dice_box.setPlaceholderText("3d6+2, then Enter")
        self.dice_box.setToolTip("A dice expression: Killbox rolls it and puts the total above.")
        self.dice_box.returnPressed.connect(self.roll)
        roll_button = QPushButton("Roll")
        roll_button.setAutoDefault(False)
        roll_button.clicked.connect(self.roll)
        dice_row = QHBoxLayout()
        dice_row.addWidget(self.dice_box)
        dice_row.addWidget(roll_button)
        self.rolled = QLabel()
        self.rolled.setTextFormat(Qt.TextFormat.PlainText)
        form = QFormLayout()
        form.addRow(label, self.box)
        form.addRow("or roll:", dice_row)
        form.addRow("", self.rolled)
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

    def roll(self) -> None:
        """Roll the expression typed in the Roll box; its total becomes the amount."""
        expression = self.dice_box.text().strip()
        if not expression:
            return
        try:
            result = self.roll_dice(expression)
        except DiceError as error:
            self.rolled.setText(f"Not rolled: {error}")
            return
        low, high = self.box.minimum(), self.box.maximum()
        total = min(max(result.total, low), high)
        kept = "" if total == result.total else f" (counted as {total})"
        self.rolled.setText(f"Rolled {result.detail}{kept}")
        self.box.setValue(total)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter in the Roll box rolls (returnPressed); it must not also press OK.
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and self.focusWidget() is self.dice_box:
            event.accept()
            return
        super().keyPressEvent(event)

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
