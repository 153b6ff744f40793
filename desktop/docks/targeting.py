"""The targeting panel: the action being aimed, its options form, the preview, Confirm.

The form is built from what the action declares: a weapon box when it takes a weapon (its
unset entry names the weapon the rules pick, where the engine says they pick one), and
one field per option of its option schema (a list for options with choices, a tick box for
true/false, number boxes, an entries field for a list or mapping option, else a text line).
Every change goes to the ActionTool, which asks the engine again; the panel shows the
preview's summary, modifiers, rolls and reasons.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.docks.option_fields import (
    UNSET,
    form_label,
    narrow_combo_box,
    option_field,
    option_label,
    set_field_value,
)
from desktop.scrolling import vertical_scroll
from desktop.tools.action_tool import ActionTool, option_specs
from engine.rules.base import OptionValue

#: The least height of the scrolling fields and preview (about four fields), in pixels.
MIN_BODY_HEIGHT = 150


class TargetingPanel(QWidget):
    """Shows one ActionTool's state; hidden when no action is being aimed."""

    #: True when an action starts being aimed, False when none is.
    aiming = Signal(bool)

    def __init__(self) -> None:
        super().__init__()
        self.tool: ActionTool | None = None
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold")
        self.title.setWordWrap(True)  # a long action or token name must not widen the dock
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        # Each label above its field, both at the dock's full width: a long option name
        # beside its field would widen the dock and shrink the map as soon as the action
        # is aimed, and a form layout gave a label only its own narrow size hint, so
        # "Sweep from the other end" wrapped at a third of the dock.
        self.form = QVBoxLayout()
        self.form.setSpacing(2)
        self.fields: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.TextFormat.RichText)
        for label in (self.title, self.prompt, self.result):
            # Ignored: a label takes the dock's width and wraps; a long preview line asking
            # for more would make the main window widen the dock and shrink the map.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.confirm_button = QPushButton("Confirm (Enter)")
        self.cancel_button = QPushButton("Cancel (Esc)")
        self.confirm_button.clicked.connect(self._confirm)
        self.cancel_button.clicked.connect(self._cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.cancel_button)
        # The prompt, the fields and the preview scroll between the title and the buttons:
        # an action with many options must not make the window taller than the screen.
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, 0, 0)
        body_layout.addWidget(self.prompt)
        body_layout.addLayout(self.form)
        body_layout.addWidget(self.result)
        body_layout.addStretch(1)
        self.body = vertical_scroll(body)
        # A few fields stay in view on a 1366x768 screen however the docks are dragged.
        self.body.setMinimumHeight(MIN_BODY_HEIGHT)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.body, 1)
        layout.addLayout(buttons)
        self.hide()

    # ---- following a tool

    def follow(self, tool: ActionTool | None) -> None:
        self.tool = tool
        while self.form.count():
            taken = self.form.takeAt(0)
            widget = taken.widget() if taken is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.fields, self.labels = {}, {}
        if tool is None:
            self.hide()
            self.aiming.emit(False)
            return
        self._build_form(tool)
        tool.listeners.append(self.update_from)
        self.update_from(tool)
        self.show()
        self.aiming.emit(True)

    def _add_row(self, name: str, text: str, field: QWidget) -> None:
        label = form_label(text)
        label.setBuddy(field)
        self.form.addWidget(label)
        self.form.addWidget(field)
        self.form.addSpacing(6)
        self.fields[name], self.labels[name] = field, label

    def _build_form(self, tool: ActionTool) -> None:
        state = tool.host.controller.state
        weapons = state.token(tool.actor_id).weapons
        # Only where the engine asks for a weapon: a box for Treat Injury read "Weapon —".
        if tool.takes_weapon and (weapons or tool.rules_weapon):
            box = narrow_combo_box()
            # Unset: the rules' own pick where the engine names one, else the rules' default.
            ruled = tool.rules_weapon
            box.addItem(f"{ruled} (the rules' pick)" if ruled else UNSET, None)
            for weapon in weapons:
                box.addItem(weapon.name, weapon.name)
            box.setCurrentIndex(max(0, box.findData(tool.weapon)))
            box.currentIndexChanged.connect(lambda _i, b=box: tool.set_weapon(b.currentData()))
            self._add_row("weapon", "Weapon", box)
        for option in option_specs(tool.host.controller, tool.actor_id, tool.spec):
            field = option_field(
                option, tool.options.get(option.name), partial(tool.set_option, option.name),
                state,
            )
            self._add_row(option.name, option_label(option), field)

    def set_field(self, name: str, value: OptionValue | None) -> None:
        """Set a form field as the GM would (tests and the token menu use it)."""
        set_field_value(self.fields[name], name, value)

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
        self._grey_refused_weapons(tool)

    def _grey_refused_weapons(self, tool: ActionTool) -> None:
        """Grey the weapons the engine refuses for the action (its reason as the entry's
        tooltip), so the box offers what the engine accepts."""
        box = self.fields.get("weapon")
        if not isinstance(box, QComboBox):
            return
        model = box.model()
        if not isinstance(model, QStandardItemModel):
            return
        refused = tool.weapon_refusals()
        for row in range(box.count()):
            name, item = box.itemData(row), model.item(row)
            why = refused.get(name) if isinstance(name, str) else None
            item.setEnabled(why is None)
            item.setToolTip(f"Refused: {why}" if why else "")

    def _confirm(self) -> None:
        if self.tool is not None:
            self.tool.confirm()

    def _cancel(self) -> None:
        if self.tool is not None:
            self.tool.cancel()
