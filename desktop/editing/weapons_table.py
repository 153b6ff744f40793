"""The token's weapons as an editable table; rows come from the system's presets or by hand.

Each row becomes an engine ``Weapon``; a row the engine refuses (ammunition above capacity,
a negative range, a number that is not one) is reported with its row and reason. Only the
fields the rule system reads are shown, under its headings (``RuleSystem.weapon_fields``);
a hidden field keeps the value the weapon or preset had.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.rules.base import ALL_WEAPON_FIELDS
from engine.tokens import Weapon

#: (heading, Weapon field) in column order: every field, each system's rules reading some.
COLUMNS = tuple((heading, field) for field, heading in ALL_WEAPON_FIELDS)


def _cell_text(weapon: Weapon, field: str) -> str:
    value = getattr(weapon, field)
    if isinstance(value, tuple):
        return ", ".join(value)
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def weapon_from_cells(cells: Sequence[str], template: Weapon | None = None) -> Weapon:
    """A Weapon from one row's texts; ValueError names the bad cell."""
    values = dict(zip((field for _h, field in COLUMNS), cells, strict=True))
    name = values["name"].strip()
    if not name:
        raise ValueError("a weapon needs a name")

    def number(field: str, kind: type[int] | type[float]) -> int | float:
        text = values[field].strip() or "0"
        try:
            return kind(text)
        except ValueError:
            heading = dict((f, h) for h, f in COLUMNS)[field]
            raise ValueError(f"{name}: {heading} must be a number, not {text!r}") from None

    def words(field: str) -> tuple[str, ...]:
        return tuple(w.strip() for w in values[field].split(",") if w.strip())

    base = template or Weapon(name)
    return replace(
        base,
        name=name,
        damage=values["damage"].strip() or base.damage,
        range_increment=float(number("range_increment", float)),
        ammo=int(number("ammo", int)),
        capacity=int(number("capacity", int)),
        modes=words("modes"),
        rate_of_fire=max(1, int(number("rate_of_fire", int))),
        melee=values["melee"].strip().lower() in {"yes", "y", "true", "1", "x"},
        traits=words("traits"),
    )


class WeaponsTable(QWidget):
    """The weapons a token carries; add from a preset, add a blank row, remove a row."""

    changed = Signal()

    def __init__(
        self,
        weapons: Iterable[Weapon],
        presets: Sequence[Weapon],
        parent: QWidget | None = None,
        fields: Sequence[tuple[str, str]] = ALL_WEAPON_FIELDS,
    ) -> None:
        super().__init__(parent)
        self.presets = tuple(presets)
        self._templates: list[Weapon | None] = []
        self.table = QTableWidget(0, len(COLUMNS))
        headings = dict(fields)
        self.table.setHorizontalHeaderLabels(
            [headings.get(field, heading) for heading, field in COLUMNS]
        )
        for column, (_heading, field) in enumerate(COLUMNS):
            self.table.setColumnHidden(column, field not in headings)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemChanged.connect(lambda _item: self.changed.emit())
        self.preset_box = QComboBox()
        self.preset_box.addItem("Add a weapon from the presets…", None)
        for preset in self.presets:
            self.preset_box.addItem(f"{preset.name} ({preset.damage})", preset.name)
        self.preset_box.activated.connect(self._add_chosen_preset)
        self.preset_box.setVisible(bool(self.presets))
        blank = QPushButton("Add blank")
        blank.clicked.connect(lambda: self.add_weapon(Weapon("New weapon")))
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_current)
        buttons = QHBoxLayout()
        buttons.addWidget(self.preset_box, 1)
        buttons.addWidget(blank)
        buttons.addWidget(remove)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        for weapon in weapons:
            self.add_weapon(weapon)

    def add_weapon(self, weapon: Weapon) -> None:
        row = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(row)
        for column, (_heading, field) in enumerate(COLUMNS):
            self.table.setItem(row, column, QTableWidgetItem(_cell_text(weapon, field)))
        self.table.blockSignals(False)
        self._templates.append(weapon)
        self.changed.emit()

    def add_preset(self, name: str) -> None:
        for preset in self.presets:
            if preset.name == name:
                self.add_weapon(preset)
                return
        raise KeyError(f"no weapon preset called {name!r}")

    def _add_chosen_preset(self, index: int) -> None:
        name = self.preset_box.itemData(index)
        if name:
            self.add_preset(str(name))
        self.preset_box.setCurrentIndex(0)

    def remove_current(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)
            del self._templates[row]
            self.changed.emit()

    def _cell(self, row: int, column: int) -> QTableWidgetItem:
        """The table's item at a cell (every cell of a row gets one when the row is added)."""
        item = self.table.item(row, column)
        if item is None:
            raise LookupError(f"the weapons table has no cell at row {row}, column {column}")
        return item

    def weapons(self) -> tuple[tuple[Weapon, ...], list[str]]:
        """The rows as weapons, and the reason for each row that is refused."""
        weapons, problems = [], []
        for row in range(self.table.rowCount()):
            cells = [self._cell(row, c).text() for c in range(len(COLUMNS))]
            try:
                weapons.append(weapon_from_cells(cells, self._templates[row]))
            except ValueError as error:
                problems.append(f"weapon row {row + 1}: {error}")
        names = [w.name for w in weapons]
        for name in sorted({n for n in names if names.count(n) > 1}):
            problems.append(f"two weapons are called {name!r}")
        return tuple(weapons), problems
