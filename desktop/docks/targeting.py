"""The targeting panel: the action being aimed, its options form, the preview, Confirm.

The form is built from what the action declares: a weapon box when it needs a weapon, and
one field per option of its option schema (a list for options with choices, a tick box for
true/false, number boxes, an entries field for a list or mapping option, else a text line).
Every change goes to the ActionTool, which asks the engine again; the panel shows the
preview's summary, modifiers, rolls and reasons.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.docks.option_entries import EntriesField, key_choices
from desktop.tools.action_tool import ActionTool, option_specs
from engine.rules.base import ListOf, MapOf, OptionValue

UNSET = "—"  # the list entry of an option left to the rules' default


def narrow_combo_box() -> QComboBox:
    """A list box sized by the dock, not by its longest entry (a long weapon name would
    otherwise widen the dock and shift the map when targeting starts)."""
    box = QComboBox()
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(8)
    return box


class TargetingPanel(QWidget):
    """Shows one ActionTool's state; hidden when no action is being aimed."""

    def __init__(self) -> None:
        super().__init__()
        self.tool: ActionTool | None = None
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold")
        self.title.setWordWrap(True)  # a long action or token name must not widen the dock
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.form = QFormLayout()
        self.fields: dict[str, QWidget] = {}
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.TextFormat.RichText)
        self.confirm_button = QPushButton("Confirm (Enter)")
        self.cancel_button = QPushButton("Cancel (Esc)")
        self.confirm_button.clicked.connect(self._confirm)
        self.cancel_button.clicked.connect(self._cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 6)
        for widget in (self.title, self.prompt):
            layout.addWidget(widget)
        layout.addLayout(self.form)
        layout.addWidget(self.result)
        layout.addLayout(buttons)
        self.hide()

    # ---- following a tool

    def follow(self, tool: ActionTool | None) -> None:
        self.tool = tool
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        if tool is None:
            self.hide()
            return
        self._build_form(tool)
        tool.listeners.append(self.update_from)
        self.update_from(tool)
        self.show()

    def _build_form(self, tool: ActionTool) -> None:
        state = tool.host.controller.state
        weapons = state.token(tool.actor_id).weapons
        if weapons:  # an action that does not need one may still be done with one
            box = narrow_combo_box()
            box.addItem(UNSET, None)  # some rules pick the weapons themselves
            for weapon in weapons:
                box.addItem(weapon.name, weapon.name)
            box.setCurrentIndex(max(0, box.findData(tool.weapon)))
            box.currentIndexChanged.connect(lambda _i, b=box: tool.set_weapon(b.currentData()))
            self.form.addRow("Weapon", box)
            self.fields["weapon"] = box
        for option in option_specs(tool.spec):
            field = self._field(tool, option)
            label = getattr(option, "label", "") or str(getattr(option, "name", ""))
            self.form.addRow(label.capitalize(), field)
            self.fields[str(getattr(option, "name", ""))] = field

    def _field(self, tool: ActionTool, option: object) -> QWidget:
        name = str(getattr(option, "name", ""))
        kind = getattr(option, "kind", str)
        choices = tuple(getattr(option, "choices", ()))
        current = tool.options.get(name)
        if isinstance(kind, ListOf | MapOf):
            state = tool.host.controller.state
            sides = sorted({token.side.value for token in state.tokens})
            keys = key_choices(kind, choices, state.tokens, sides)
            entries = EntriesField(kind, keys, choices,
                                   lambda value: tool.set_option(name, value))
            entries.set_value(current)
            return entries
        if choices:
            box = narrow_combo_box()
            box.addItem(UNSET, None)
            for choice in choices:
                box.addItem(str(choice), choice)
            if current is not None:
                box.setCurrentIndex(max(0, box.findData(current)))
            box.currentIndexChanged.connect(
                lambda _i, b=box: tool.set_option(name, b.currentData())
            )
            return box
        if kind is bool:
            tick = QCheckBox()
            tick.setTristate(False)
            tick.setChecked(bool(current))
            tick.toggled.connect(lambda on: tool.set_option(name, True if on else None))
            return tick
        if kind is int:
            spin = QSpinBox()
            spin.setRange(-999, 999)
            spin.setSpecialValueText(UNSET)
            spin.setMinimum(-1000)
            spin.setValue(int(current) if isinstance(current, int) else -1000)
            spin.valueChanged.connect(
                lambda value: tool.set_option(name, None if value == -1000 else value)
            )
            return spin
        if kind is float:
            number = QDoubleSpinBox()
            number.setRange(-1000.0, 1000.0)
            number.setSpecialValueText(UNSET)
            number.setValue(float(current) if isinstance(current, int | float) else -1000.0)
            number.valueChanged.connect(
                lambda value: tool.set_option(name, None if value <= -1000.0 else value)
            )
            return number
        line = QLineEdit(str(current) if current is not None else "")
        line.setPlaceholderText(UNSET)
        line.textChanged.connect(lambda text: tool.set_option(name, text or None))
        return line

    def set_field(self, name: str, value: OptionValue | None) -> None:
        """Set a form field as the GM would (tests and the token menu use it)."""
        field = self.fields[name]
        if isinstance(field, EntriesField):
            field.set_value(value)
        elif isinstance(field, QComboBox):
            index = field.findData(value)
            if index < 0:
                raise ValueError(f"{value!r} is not offered for {name}")
            field.setCurrentIndex(index)
        elif isinstance(field, QCheckBox):
            field.setChecked(bool(value))
        elif isinstance(field, QSpinBox):
            field.setValue(int(value) if isinstance(value, int | float) else field.minimum())
        elif isinstance(field, QDoubleSpinBox):
            field.setValue(float(value) if isinstance(value, int | float) else field.minimum())
        elif isinstance(field, QLineEdit):
            field.setText("" if value is None else str(value))

    def update_from(self, tool: ActionTool) -> None:
        if tool is not self.tool:
            return
        actor = tool.host.controller.state.token(tool.actor_id)
        self.title.setText(f"{tool.spec.name} — {actor.name}")
        self.prompt.setText(tool.prompt())
        preview = tool.preview
        lines: list[str] = []
        if preview is not None:
            if preview.legal:
                lines += [preview.summary] if preview.summary else []
                lines += [f"{m}" for m in preview.modifiers]
                lines += [f"rolls {r}" for r in preview.rolls]
                if preview.cost:
                    lines.append(f"costs {preview.cost}")
            else:
                lines += [f"<span style='color:#d33'>✗ {r}</span>" for r in preview.reasons]
        self.result.setText("<br>".join(lines))
        self.confirm_button.setEnabled(tool.ready)

    def _confirm(self) -> None:
        if self.tool is not None:
            self.tool.confirm()

    def _cancel(self) -> None:
        if self.tool is not None:
            self.tool.cancel()
