"""File > New: the rule system (from the registry), the name, and the size in squares.

The scale and the diagonal rule come from the chosen system; the dialog only shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.rules import get_system, system_names

MAX_SQUARES = 200


@dataclass(frozen=True)
class NewEncounterChoice:
    """What the GM asked for: a blank map of ``width`` x ``height`` squares."""

    system: str
    name: str
    width: int = 30
    height: int = 20


class NewEncounterDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, *, system: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New encounter")
        self.system_box = QComboBox()
        for name in system_names():
            self.system_box.addItem(get_system(name).title, name)
        if system is not None and self.system_box.findData(system) >= 0:
            self.system_box.setCurrentIndex(self.system_box.findData(system))
        self.scale_label = QLabel()
        self.name_edit = QLineEdit("New encounter")
        self.width_box = self._squares(30)
        self.height_box = self._squares(20)
        size_row = QHBoxLayout()
        size_row.addWidget(self.width_box)
        size_row.addWidget(QLabel("x"))
        size_row.addWidget(self.height_box)
        size_row.addWidget(QLabel("squares"))
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #e5484d")
        self.problem.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Rule system", self.system_box)
        form.addRow("Scale", self.scale_label)
        form.addRow("Name", self.name_edit)
        form.addRow("Size", size_row)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._accept_if_valid)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.system_box.currentIndexChanged.connect(self._show_scale)
        self._show_scale()

    def _squares(self, value: int) -> QSpinBox:
        box = QSpinBox()
        box.setRange(1, MAX_SQUARES)
        box.setValue(value)
        return box

    def _show_scale(self) -> None:
        scale = get_system(self.system_box.currentData()).scale
        self.scale_label.setText(
            f"one square is {scale.describe(1)}; diagonals: {scale.diagonal.value}"
        )

    def problems(self) -> list[str]:
        """What stops the dialog from being accepted, in words."""
        return [] if self.name_edit.text().strip() else ["The encounter needs a name."]

    def _accept_if_valid(self) -> None:
        found = self.problems()
        self.problem.setText(" ".join(found))
        if not found:
            self.accept()

    def choice(self) -> NewEncounterChoice:
        return NewEncounterChoice(
            system=str(self.system_box.currentData()),
            name=self.name_edit.text().strip(),
            width=self.width_box.value(),
            height=self.height_box.value(),
        )
