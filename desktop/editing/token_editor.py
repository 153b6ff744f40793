"""The token editor: name, side, size, speed, facing, picture, GM-only, notes, stats, weapons.

The stat block is a form built from the rule system's stat schema; weapons come from the
system's presets and can be edited. The editor only builds a Token value: the caller sends
it to the engine (add_token or edit_token), which has the last word on whether it fits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.editing.pictures import PictureError, disc_from_file
from desktop.editing.stat_form import StatForm
from desktop.editing.weapons_table import WeaponsTable
from engine.grid import GridScale
from engine.rules.base import ALL_WEAPON_FIELDS, StatSpec
from engine.tokens import Side, Token, Weapon

PICTURE_PREVIEW = 96
IMAGE_FILTER = "Pictures (*.png *.jpg *.jpeg *.webp *.bmp *.gif)"



def across(size: int) -> str:
    """The size box's suffix: "1 square across", "2 squares across"."""
    return " square across" if size == 1 else " squares across"

class TokenEditor(QDialog):
    """Edit one token; ``result_token()`` is the token as the GM left the form.

    ``add_image`` keeps a chosen picture in the document and returns its entry name (the
    controller's ``add_image``), so the token can name it.
    """

    def __init__(
        self,
        token: Token,
        *,
        stat_specs: Sequence[StatSpec],
        presets: Sequence[Weapon],
        weapon_fields: Sequence[tuple[str, str]] = ALL_WEAPON_FIELDS,
        scale: GridScale,
        images: Mapping[str, bytes],
        add_image: Callable[[bytes, str], str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Token: {token.name}")
        self.token = token
        #: Asked on OK with the edited token: the engine's reasons to refuse it (none: accepted).
        self.engine_check: Callable[[Token], list[str]] | None = None
        self._picture_ref = token.portrait
        self._images = images
        self._add_image = add_image

        self.name_edit = QLineEdit(token.name)
        self.side_box = QComboBox()
        for side in Side:
            self.side_box.addItem(side.value.capitalize(), side.value)
        self.side_box.setCurrentIndex(self.side_box.findData(token.side.value))
        self.size_box = QSpinBox()
        self.size_box.setRange(1, 10)
        self.size_box.valueChanged.connect(lambda size: self.size_box.setSuffix(across(size)))
        self.size_box.setValue(token.size)
        self.size_box.setSuffix(across(token.size))
        self.speed_box = QDoubleSpinBox()
        self.speed_box.setRange(0, 10000)
        self.speed_box.setDecimals(1)
        self.speed_box.setSuffix(f" {scale.unit.value}")
        self.speed_box.setValue(token.speed)
        self.facing_box = QDoubleSpinBox()
        self.facing_box.setRange(0, 359.9)
        self.facing_box.setWrapping(True)
        self.facing_box.setSuffix("°")
        self.facing_box.setValue(token.facing % 360)
        self.hidden_box = QCheckBox("GM only: never shown in the player view")
        self.hidden_box.setChecked(token.hidden)
        self.notes_edit = QPlainTextEdit(token.notes)
        self.notes_edit.setPlaceholderText("Notes only the GM sees")
        self.picture_label = QLabel()
        self.picture_label.setFixedSize(PICTURE_PREVIEW, PICTURE_PREVIEW)
        self.picture_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        choose = QPushButton("Choose picture…")
        choose.clicked.connect(self._choose_picture)
        clear = QPushButton("No picture")
        clear.clicked.connect(self.clear_picture)
        picture_row = QHBoxLayout()
        picture_row.addWidget(self.picture_label)
        buttons_col = QVBoxLayout()
        buttons_col.addWidget(choose)
        buttons_col.addWidget(clear)
        buttons_col.addStretch(1)
        picture_row.addLayout(buttons_col)
        picture_row.addStretch(1)
        self._show_picture()

        general = QWidget()
        form = QFormLayout(general)
        form.addRow("Name", self.name_edit)
        form.addRow("Side", self.side_box)
        form.addRow("Size", self.size_box)
        form.addRow("Speed", self.speed_box)
        form.addRow("Facing", self.facing_box)
        form.addRow("Picture", picture_row)
        form.addRow(self.hidden_box)
        form.addRow("Notes", self.notes_edit)

        self.stats = StatForm(stat_specs, token.stats)
        stats_scroll = QScrollArea()
        stats_scroll.setWidgetResizable(True)
        stats_scroll.setWidget(self.stats)
        self.weapons = WeaponsTable(token.weapons, presets, fields=weapon_fields)

        self.tabs = QTabWidget()
        self.tabs.addTab(general, "Token")
        self.tabs.addTab(stats_scroll, "Stats")
        self.tabs.addTab(self.weapons, "Weapons")
        self.problem = QLabel()
        self.problem.setObjectName("token-problem")
        self.problem.setStyleSheet("color: #e5484d")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._accept_if_valid)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.resize(720, 560)
        self.stats.validity_changed.connect(lambda _p: self.refresh())
        self.weapons.changed.connect(self.refresh)
        self.name_edit.textChanged.connect(lambda _t: self.refresh())
        self.refresh()

    # ---- picture

    def _choose_picture(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Token picture", "", IMAGE_FILTER)
        if name:
            self.set_picture_file(name)

    def set_picture_file(self, path: str) -> bool:
        """Crop an image file to a disc and use it; False (and the reason shown) if unreadable."""
        try:
            self._picture_ref = self._add_image(disc_from_file(path), "token")
        except (PictureError, ValueError) as error:  # the engine's CommandError is a ValueError
            self.problem.setText(str(error))
            return False
        self._show_picture()
        return True

    def clear_picture(self) -> None:
        self._picture_ref = None
        self._show_picture()

    @property
    def picture(self) -> str | None:
        """The entry name of the token's picture as the form stands (None: no picture)."""
        return self._picture_ref

    def _show_picture(self) -> None:
        data = self._images.get(self._picture_ref) if self._picture_ref else None
        image = QImage.fromData(data) if data else QImage()
        if image.isNull():
            self.picture_label.setPixmap(QPixmap())
            self.picture_label.setText("no picture")
            return
        self.picture_label.setPixmap(
            QPixmap.fromImage(image).scaled(
                PICTURE_PREVIEW,
                PICTURE_PREVIEW,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        )

    # ---- result

    def problems(self) -> list[str]:
        found = []
        if not self.name_edit.text().strip():
            found.append("The token needs a name.")
        found += self.stats.problems()
        found += self.weapons.weapons()[1]
        return found

    def refresh(self) -> None:
        found = self.problems()
        self.problem.setText("; ".join(found))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not found)

    def _accept_if_valid(self) -> None:
        """OK: the form's own checks, then the engine's (the dialog stays open on a refusal)."""
        if self.problems():
            return
        reasons = self.engine_check(self.result_token()) if self.engine_check else []
        if reasons:
            self.problem.setText("; ".join(reasons))
            return
        self.accept()

    def result_token(self) -> Token:
        """The token as the editor says (raises ValueError while the form has problems)."""
        found = self.problems()
        if found:
            raise ValueError("; ".join(found))
        return replace(
            self.token,
            name=self.name_edit.text().strip(),
            side=Side(self.side_box.currentData()),
            size=self.size_box.value(),
            speed=self.speed_box.value(),
            facing=self.facing_box.value(),
            hidden=self.hidden_box.isChecked(),
            notes=self.notes_edit.toPlainText().strip(),
            portrait=self.picture,
            stats=self.stats.values(),
            weapons=self.weapons.weapons()[0],
        )
