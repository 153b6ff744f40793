"""Token inspector: everything about the selected token, and the GM's overrides for it.

The dock must never change width while the GM works (a wider dock squeezes the map and
moves every square under the mouse), so the text wraps inside a scroll area whose labels
ask for no width of their own: a long Stats line wraps or scrolls, the map stays put.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.controller import EncounterController
from desktop.gm_menu import GmMenu
from engine.encounter import EncounterState
from engine.rules.base import StatSpec
from engine.tokens import Token
from engine.turns.endings import ending_words

FIELDS = (
    "Name",
    "Side",
    "Square",
    "Size",
    "Speed",
    "Facing",
    "Health",
    "Conditions",
    "Weapons",
    "Stats",
)


class TokenInspector(QWidget):
    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.controller = controller
        self.gm = GmMenu(self, controller, self._report)
        self.gm_button = QToolButton()
        self.gm_button.setText("GM overrides")
        self.gm_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.gm_menu = QMenu(self)
        self.gm_menu.aboutToShow.connect(self._build_gm_menu)
        self.gm_button.setMenu(self.gm_menu)
        self._built: QMenu | None = None
        #: The token the GM pinned here: shown whatever is selected (the turn moves the
        #: selection to the acting token, desktop.turn_follow); None follows the selection.
        self.pinned: str | None = None
        self.pin_button = QToolButton()
        self.pin_button.setText("Pin")
        self.pin_button.setCheckable(True)
        self.pin_button.setToolTip("Keep this token here while the turn and the selection move on")
        self.pin_button.toggled.connect(self._pin)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        body = QWidget()
        self.form = QFormLayout(body)
        self.fields: dict[str, QLabel] = {}
        for name in FIELDS:
            label = QLabel()
            label.setWordWrap(True)
            # Ignored: the label takes the width it is given and never asks for more.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.fields[name] = label
            self.form.addRow(name, label)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setWidget(body)
        layout = QVBoxLayout(self)
        layout.addWidget(self.scroll_area)
        buttons = QHBoxLayout()
        buttons.addWidget(self.gm_button)
        buttons.addWidget(self.pin_button)
        buttons.addStretch()
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        controller.state_changed.connect(self.refresh)
        controller.selection_changed.connect(lambda _id: self.refresh(controller.state))
        self.refresh(controller.state)

    @property
    def shown(self) -> str | None:
        """The token the dock shows: the pinned one, else the selection."""
        return self.pinned if self.pinned is not None else self.controller.selected

    def _pin(self, on: bool) -> None:
        self.pinned = self.controller.selected if on else None
        self.refresh(self.controller.state)

    def _report(self, text: str) -> None:
        self.message.setText(text)

    def _build_gm_menu(self) -> None:
        """Fill the menu for the token selected now (its conditions, weapons, counts)."""
        self.gm_menu.clear()
        token_id = self.shown
        if token_id is None:
            return
        self._built = self.gm.build(token_id)  # kept: it owns the actions shown
        self.gm_menu.addActions(self._built.actions())

    def refresh(self, state: EncounterState) -> None:
        token = next((t for t in state.tokens if t.id == self.shown), None)
        if token is None and self.pinned is not None:  # the pinned token left the map
            self.pin_button.setChecked(False)  # unpins and refreshes
            return
        self.gm_button.setEnabled(token is not None)
        self.pin_button.setEnabled(token is not None)
        self.message.setText("")
        if token is None:
            for label in self.fields.values():
                label.setText("")
            self.fields["Name"].setText("No token selected")
            return
        conditions = []
        for condition in token.conditions:
            end = ending_words(state, token, condition)
            conditions.append(condition.name + (f" ({end})" if end else ""))
        weapons = []
        for weapon in token.weapons:
            text = f"{weapon.name} {weapon.damage}"
            if weapon.uses_ammunition:
                text += f", {weapon.ammo}/{weapon.capacity} rounds"
            if weapon.modes and "modes" in dict(self.controller.system.weapon_fields):
                text += f", {'/'.join(weapon.modes)}"
            weapons.append(text)
        gauges = self.controller.system.gauges(state, token)
        values = {
            "Name": token.name,
            "Side": token.side.value,
            "Square": str(token.square),
            "Size": f"{token.size}x{token.size}",
            "Speed": f"{token.speed:g} {state.scale.unit.value}",
            "Facing": f"{token.facing:g}°",
            "Health": "\n".join(gauge.text for gauge in gauges) or "—",
            "Conditions": "\n".join(conditions) or "none",
            "Weapons": "\n".join(weapons) or "none",
            "Stats": stat_words(self.controller.system.stats, token) or "—",
        }
        for name, text in values.items():
            self.fields[name].setText(text)


def stat_words(specs: Sequence[StatSpec], token: Token) -> str:
    """The token's stats as the schema writes them ("Fighting d8, Parry 6"), in its order;
    a stat the schema does not declare as it is."""
    declared = {spec.name: spec for spec in specs}
    shown = [f"{spec.label or spec.name} {spec.words(token.stats[spec.name])}"
             for spec in specs if spec.name in token.stats]
    shown += [f"{name} {value}" for name, value in token.stats.items() if name not in declared]
    return ", ".join(shown)
