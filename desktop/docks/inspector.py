"""Token inspector: everything about the selected token, read-only."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QLabel, QWidget

from desktop.controller import EncounterController
from engine.encounter import EncounterState


class TokenInspector(QWidget):
    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.controller = controller
        self.form = QFormLayout(self)
        self.fields: dict[str, QLabel] = {}
        for name in (
            "Name",
            "Side",
            "Square",
            "Size",
            "Speed",
            "Facing",
            "Conditions",
            "Weapons",
            "Stats",
        ):
            label = QLabel()
            label.setWordWrap(True)
            self.fields[name] = label
            self.form.addRow(name, label)
        controller.state_changed.connect(self.refresh)
        controller.selection_changed.connect(lambda _id: self.refresh(controller.state))
        self.refresh(controller.state)

    def refresh(self, state: EncounterState) -> None:
        token_id = self.controller.selected
        token = next((t for t in state.tokens if t.id == token_id), None)
        if token is None:
            for label in self.fields.values():
                label.setText("")
            self.fields["Name"].setText("No token selected")
            return
        conditions = []
        for condition in token.conditions:
            text = condition.name
            if condition.expires is not None:
                text += f" (until round {condition.expires.round}, "
                text += condition.expires.point.value.replace("_", " ") + ")"
            conditions.append(text)
        weapons = []
        for weapon in token.weapons:
            text = f"{weapon.name} {weapon.damage}"
            if weapon.uses_ammunition:
                text += f", {weapon.ammo}/{weapon.capacity} rounds"
            if weapon.modes:
                text += f", {'/'.join(weapon.modes)}"
            weapons.append(text)
        values = {
            "Name": token.name,
            "Side": token.side.value,
            "Square": str(token.square),
            "Size": f"{token.size}x{token.size}",
            "Speed": f"{token.speed:g} {state.scale.unit.value}",
            "Facing": f"{token.facing:g}°",
            "Conditions": "\n".join(conditions) or "none",
            "Weapons": "\n".join(weapons) or "none",
            "Stats": ", ".join(f"{k} {v}" for k, v in token.stats.items()) or "—",
        }
        for name, text in values.items():
            self.fields[name].setText(text)
