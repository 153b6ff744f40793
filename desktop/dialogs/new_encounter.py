"""File > New: the rule system (from the registry), the name, and a size or a battle-map picture.

The scale and the diagonal rule come from the chosen system; the dialog only shows them.
A picture chosen here (or dropped on the window, or named on the command line) goes on to
the grid-fitting dialog, where the GM accepts or adjusts the grid the engine found.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.rules import get_system, system_names

#: Battle-map pictures the app reads (the formats an encounter file may hold).
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
PICTURE_FILTER = "Battle-map pictures (" + " ".join(f"*{s}" for s in PICTURE_SUFFIXES) + ")"
MAX_SQUARES = 200


def is_picture(path: Path) -> bool:
    return path.suffix.lower() in PICTURE_SUFFIXES


@dataclass(frozen=True)
class NewEncounterChoice:
    """What the GM asked for: a blank map of ``width`` x ``height``, or one from ``picture``."""

    system: str
    name: str
    width: int = 30
    height: int = 20
    picture: Path | None = None


class NewEncounterDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        system: str | None = None,
        picture: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("New encounter")
        self.system_box = QComboBox()
        for name in system_names():
            self.system_box.addItem(get_system(name).title, name)
        if system is not None and self.system_box.findData(system) >= 0:
            self.system_box.setCurrentIndex(self.system_box.findData(system))
        self.scale_label = QLabel()
        self.name_edit = QLineEdit("New encounter")

        self.blank_button = QRadioButton("Blank map, size in squares")
        self.picture_button = QRadioButton("From a battle-map picture")
        choice = QButtonGroup(self)
        choice.addButton(self.blank_button)
        choice.addButton(self.picture_button)
        self.width_box = self._squares(30)
        self.height_box = self._squares(20)
        size_row = QHBoxLayout()
        size_row.addWidget(self.width_box)
        size_row.addWidget(QLabel("x"))
        size_row.addWidget(self.height_box)
        size_row.addWidget(QLabel("squares"))
        self.picture_edit = QLineEdit()
        self.picture_edit.setPlaceholderText("PNG, JPEG or WebP")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        picture_row = QHBoxLayout()
        picture_row.addWidget(self.picture_edit, 1)
        picture_row.addWidget(browse)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #e5484d")
        self.problem.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Rule system", self.system_box)
        form.addRow("Scale", self.scale_label)
        form.addRow("Name", self.name_edit)
        form.addRow(self.blank_button)
        form.addRow("Size", size_row)
        form.addRow(self.picture_button)
        form.addRow("Picture", picture_row)
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
        self.blank_button.toggled.connect(self._enable)
        self.picture_edit.textChanged.connect(lambda _text: self.picture_button.setChecked(True))
        if picture is not None:
            self.picture_edit.setText(str(picture))
            self.picture_button.setChecked(True)
        else:
            self.blank_button.setChecked(True)
        self._show_scale()
        self._enable()

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

    def _enable(self) -> None:
        blank = self.blank_button.isChecked()
        self.width_box.setEnabled(blank)
        self.height_box.setEnabled(blank)

    def _browse(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Battle-map picture", "", PICTURE_FILTER)
        if name:
            self.picture_edit.setText(name)

    def problems(self) -> list[str]:
        """What stops the dialog from being accepted, in words."""
        found = []
        if not self.name_edit.text().strip():
            found.append("The encounter needs a name.")
        if self.picture_button.isChecked():
            text = self.picture_edit.text().strip()
            path = Path(text)
            if not text:
                found.append("Choose a picture, or a blank map.")
            elif not path.is_file():
                found.append(f"{path}: no such file.")
            elif not is_picture(path):
                found.append(f"{path.name}: not a PNG, JPEG or WebP picture.")
        return found

    def _accept_if_valid(self) -> None:
        found = self.problems()
        self.problem.setText(" ".join(found))
        if not found:
            self.accept()

    def choice(self) -> NewEncounterChoice:
        picture = (
            Path(self.picture_edit.text().strip()) if self.picture_button.isChecked() else None
        )
        return NewEncounterChoice(
            system=str(self.system_box.currentData()),
            name=self.name_edit.text().strip(),
            width=self.width_box.value(),
            height=self.height_box.value(),
            picture=picture,
        )
