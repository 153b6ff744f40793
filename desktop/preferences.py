"""The GM's preferences, kept between runs (QSettings): Edit > Preferences… (Ctrl+,), where a
GM used to a VTT's settings page looks, and a check entry beside it for the one most used.

Dice: Killbox rolls for the GM by default (a rolled action applies at once and the log shows
its faces); a GM rolling physical dice at the table has every roll asked for instead, start
of turn rolls too (``desktop.fight``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from desktop.main_window import MainWindow

#: The settings key: True, Killbox rolls; False, the GM types the faces of physical dice.
ROLL_FOR_ME = "dice/roll_for_me"

ROLL_WORDS = "Roll dice for me"
PHYSICAL_WORDS = "I roll physical dice at the table (enter faces)"


def rolls_for_me(settings: QSettings) -> bool:
    """The GM's dice preference: Killbox rolls unless the GM chose physical dice."""
    value = settings.value(ROLL_FOR_ME, True)
    # An ini file gives a boolean back as the text it wrote.
    return value if isinstance(value, bool) else str(value).lower() != "false"


class PreferencesDialog(QDialog):
    """The preferences page: for now who rolls the dice."""

    def __init__(self, parent: QWidget | None, roll_for_me: bool) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        dice = QGroupBox("Dice")
        rows = QVBoxLayout(dice)
        self.roll_choice = QRadioButton(ROLL_WORDS)
        self.physical_choice = QRadioButton(PHYSICAL_WORDS)
        self.choices = QButtonGroup(self)
        for choice in (self.roll_choice, self.physical_choice):
            self.choices.addButton(choice)
            rows.addWidget(choice)
        explained = QLabel(
            "Rolling for you, an action applies at once and the combat log shows the faces. "
            "With physical dice, Killbox asks for the faces of every roll, those made at the "
            "start of a turn too; Undo takes a rolled action back whole either way."
        )
        explained.setWordWrap(True)
        rows.addWidget(explained)
        (self.roll_choice if roll_for_me else self.physical_choice).setChecked(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(dice)
        layout.addWidget(buttons)

    def roll_for_me(self) -> bool:
        return self.roll_choice.isChecked()


class Preferences:
    """The window's preference entries and what they change, kept in step."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        menu = window.menus["Edit"]
        menu.addSeparator()
        self.dice_check = QAction(ROLL_WORDS, window)
        self.dice_check.setCheckable(True)
        self.dice_check.setToolTip("Off: Killbox asks the faces your physical dice show")
        self.dice_check.setChecked(not window.controller.physical_dice)
        self.dice_check.toggled.connect(lambda on: self.set_roll_for_me(bool(on)))
        menu.addAction(self.dice_check)
        self.open_action = QAction("&Preferences…", window)
        self.open_action.setShortcut(QKeySequence("Ctrl+,"))
        self.open_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.open_action.triggered.connect(lambda _checked=False: self.open())
        menu.addAction(self.open_action)
        window.menu_actions["roll_for_me"] = self.dice_check
        window.menu_actions["preferences"] = self.open_action

    def set_roll_for_me(self, on: bool) -> None:
        self.window.controller.physical_dice = not on
        self.window.settings.setValue(ROLL_FOR_ME, on)
        if self.dice_check.isChecked() != on:
            self.dice_check.setChecked(on)
        self.window.statusBar().showMessage(
            "Killbox rolls the dice" if on else "You roll physical dice: Killbox asks the faces",
            6000,
        )

    def open(self) -> bool:
        """The preferences page; False: cancelled."""
        dialog = PreferencesDialog(self.window, not self.window.controller.physical_dice)
        if not dialog.exec():
            return False
        self.set_roll_for_me(dialog.roll_for_me())
        return True
