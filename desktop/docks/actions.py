"""Action palette: the selected token's actions; only legal ones are enabled, with reasons."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from desktop.controller import EncounterController
from desktop.fight import act
from engine.encounter import EncounterState
from engine.rules.base import ActionSpec, Command, CommandError

COLUMNS = 1  # action names are long; one column never needs sideways scrolling


class ActionPalette(QWidget):
    """Buttons for the catalogue. An action that needs targets or squares asks for a tool."""

    #: (token id, ActionSpec): the main window starts the matching tool.
    action_requested = Signal(str, object)

    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.controller = controller
        self.title = QLabel()
        self.buttons: dict[str, QPushButton] = {}
        self._grid = QGridLayout()
        self._grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        inner = QWidget()
        inner.setLayout(self._grid)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(scroll)
        controller.state_changed.connect(self.refresh)
        controller.selection_changed.connect(lambda _id: self.refresh(controller.state))
        self.refresh(controller.state)

    def actor(self, state: EncounterState) -> str | None:
        """The selected token, or else the one whose turn it is."""
        chosen = self.controller.selected or state.combat.active
        return chosen if chosen and any(t.id == chosen for t in state.tokens) else None

    def refresh(self, state: EncounterState) -> None:
        while self._grid.count():
            widget = self._grid.takeAt(0).widget()
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        actor = self.actor(state)
        if actor is None:
            self.title.setText("Select a token to see its actions")
            return
        token = state.token(actor)
        self.title.setText(f"Actions of {token.name}")
        system = self.controller.system
        try:
            legal = {spec.key for spec in self.controller.session.legal_actions(actor)}
        except CommandError:
            legal = set()
        for index, spec in enumerate(system.catalogue):
            button = QPushButton(spec.name)
            allowed = spec.key in legal and self._complete_command_legal(spec, actor)
            button.setEnabled(allowed)
            button.setToolTip(self._tooltip(spec, actor, allowed))
            button.clicked.connect(lambda _=False, s=spec, a=actor: self._chosen(a, s))
            self._grid.addWidget(button, index // COLUMNS, index % COLUMNS)
            self.buttons[spec.key] = button

    def _complete_command_legal(self, spec: ActionSpec, actor: str) -> bool:
        """An action that needs nothing picked is the whole command: ask the engine about it."""
        if spec.needs:
            return True  # its tool picks targets or squares and previews each choice
        try:
            return self.controller.preview(Command(spec.key, actor)).legal
        except CommandError:
            return False

    def _tooltip(self, spec: ActionSpec, actor: str, allowed: bool) -> str:
        lines = [f"<b>{spec.name}</b> ({spec.time})", spec.summary]
        if not allowed:
            try:
                reasons = self.controller.preview(Command(spec.key, actor)).reasons
            except CommandError as error:
                reasons = (str(error),)
            lines.append("<i>Not now: " + ("; ".join(reasons) or "not available") + "</i>")
        return "<br>".join(lines)

    def _chosen(self, actor: str, spec: ActionSpec) -> None:
        if spec.needs:
            self.action_requested.emit(actor, spec)
            return
        try:
            act(self, self.controller, Command(spec.key, actor))
        except CommandError as error:
            self.title.setText(str(error))
