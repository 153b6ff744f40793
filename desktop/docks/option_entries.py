"""A form field for an option that holds a list or a mapping (the option schema's ListOf and
MapOf kinds): token ids in order, or token ids each with a word or a square.

The GM picks a token (or a side) by name, a value where the option maps to one, and presses
Add; the entries show in order and Remove takes the selected one out. The field hands the
tool a tuple of ids or a tuple of (id, value) pairs, never text to be split, so an id may
hold any character.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.wheel_safe import WheelSafeComboBox, WheelSafeSpinBox
from engine.grid import Square
from engine.rules.base import ListOf, MapOf, OptionValue, Ref
from engine.tokens import Token

Entry = str | tuple[str, str | Square]
#: The largest square coordinate the field offers (engine.limits bounds a map far below).
MOST = 100_000


#: The most entries shown at once; more scroll.
MOST_ROWS = 4

class EntriesField(QWidget):
    """Edits one list or mapping option; ``on_change`` gets the new value (None: empty)."""

    def __init__(self, kind: ListOf | MapOf, keys: Sequence[tuple[str, str]],
                 choices: Sequence[OptionValue], on_change: Callable[[OptionValue | None], None],
                 ) -> None:
        super().__init__()
        self.kind = kind
        self.names = dict((key, label) for label, key in keys)
        self.on_change = on_change
        self.entries: list[Entry] = []
        self.key_box = WheelSafeComboBox()
        for label, key in keys:
            self.key_box.addItem(label, key)
            self.key_box.setItemData(self.key_box.count() - 1, key, Qt.ItemDataRole.ToolTipRole)
        self.value_box: QComboBox | QLineEdit | None = None
        self.x_box, self.y_box = WheelSafeSpinBox(), WheelSafeSpinBox()
        # The key on a line of its own for a mapping: key, value and Add side by side would
        # be wider than the actions dock.
        self.key_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.key_box.setMinimumContentsLength(8)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_box, 1)
        row = key_row if isinstance(kind, ListOf) else QHBoxLayout()
        if isinstance(kind, MapOf) and kind.value is Square:
            for box in (self.x_box, self.y_box):
                box.setRange(-MOST, MOST)
                row.addWidget(box)
        elif isinstance(kind, MapOf):
            self.value_box = WheelSafeComboBox() if choices else QLineEdit()
            if isinstance(self.value_box, QComboBox):
                for choice in choices:
                    self.value_box.addItem(str(choice), choice)
            row.addWidget(self.value_box)
        add = QPushButton("Add")
        add.clicked.connect(self.add_current)
        row.addWidget(add)
        # One row while nothing is entered: the list and its Remove show (as tall as its
        # entries, at most MOST_ROWS) once something is, so a form of several list options
        # stays compact, and narrow enough for the actions dock.
        self.shown = QListWidget()
        self.remove = QPushButton("Remove")
        self.remove.clicked.connect(self.remove_selected)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if row is not key_row:
            layout.addLayout(key_row)
        layout.addLayout(row)
        layout.addWidget(self.shown)
        layout.addWidget(self.remove)
        self._fit_list()

    def _picked_value(self) -> str | Square:
        if isinstance(self.value_box, QComboBox):
            return str(self.value_box.currentData())
        if isinstance(self.value_box, QLineEdit):
            return self.value_box.text()
        return Square(self.x_box.value(), self.y_box.value())

    def add_current(self) -> None:
        key = self.key_box.currentData()
        if key is None:
            return
        entry: Entry = str(key) if isinstance(self.kind, ListOf) else (str(key),
                                                                        self._picked_value())
        self.set_value((*[e for e in self.entries if _key(e) != key], entry))

    def remove_selected(self) -> None:
        """Take out the selected entry, or the last one when none is selected."""
        row = self.shown.currentRow() if self.shown.currentRow() >= 0 else len(self.entries) - 1
        if row >= 0:
            self.set_value(tuple(e for i, e in enumerate(self.entries) if i != row))

    def set_value(self, value: object) -> None:
        """Show ``value`` (a tuple of ids or of pairs; None or () for none) and hand it on."""
        self.entries = list(value) if isinstance(value, tuple) else []
        self.shown.clear()
        for entry in self.entries:
            key = _key(entry)
            text = self.names.get(key, key)
            if isinstance(entry, tuple):
                shown = entry[1]
                text += f" → {tuple(shown) if isinstance(shown, Square) else shown}"
            item = QListWidgetItem(text)
            item.setToolTip(key)
            self.shown.addItem(item)
        self._fit_list()
        self.on_change(self.value())

    def _fit_list(self) -> None:
        rows = min(self.shown.count(), MOST_ROWS)
        line = self.shown.sizeHintForRow(0) if rows else 0
        self.shown.setFixedHeight(rows * line + 2 * self.shown.frameWidth())
        self.shown.setVisible(bool(rows))
        self.remove.setVisible(bool(rows))

    def value(self) -> OptionValue | None:
        """The option's value (None when no entry is given: the rules' default)."""
        if not self.entries:
            return None
        if isinstance(self.kind, ListOf):
            return tuple(e for e in self.entries if isinstance(e, str))
        return tuple(e for e in self.entries if isinstance(e, tuple))


def _key(entry: Entry) -> str:
    return entry[0] if isinstance(entry, tuple) else entry


def key_choices(kind: ListOf | MapOf, choices: Sequence[OptionValue],
                tokens: Sequence[Token], sides: Sequence[str]) -> list[tuple[str, str]]:
    """(label, key) pairs the GM picks from: the tokens by name, or the sides."""
    if isinstance(kind, ListOf) and kind.item is Ref.SIDE:
        return [(str(c), str(c)) for c in (choices or sides)]
    if isinstance(kind, ListOf) and kind.item is Ref.TEXT:
        return [(str(c), str(c)) for c in choices]
    return [(token.name, token.id) for token in tokens]
