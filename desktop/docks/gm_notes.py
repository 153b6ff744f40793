"""The GM's notes: the encounter's briefing (editable) and the selected token's notes.

Neither ever reaches the player view. The briefing is changed through the engine's
edit_encounter command, so it is undoable and saved with the file like every other edit.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from desktop.controller import EncounterController
from desktop.editing import commands
from engine.encounter import EncounterState
from engine.rules.base import CommandError


class GmNotes(QWidget):
    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.controller = controller
        self.briefing = QPlainTextEdit()
        self.briefing.setPlaceholderText("The briefing: who wants what, what happens when.")
        self.save_button = QPushButton("Keep briefing")
        self.save_button.clicked.connect(self.keep_briefing)
        self.briefing.textChanged.connect(self._briefing_edited)
        self.token_title = QLabel()
        self.token_title.setStyleSheet("font-weight: bold")
        self.token_notes = QLabel()
        self.token_notes.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #e5484d")
        self.problem.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Briefing (GM only)"))
        layout.addWidget(self.briefing, 1)
        layout.addWidget(self.save_button)
        layout.addWidget(self.problem)
        layout.addWidget(self.token_title)
        layout.addWidget(self.token_notes)
        controller.state_changed.connect(self.refresh)
        controller.selection_changed.connect(lambda _id: self.refresh(controller.state))
        self.refresh(controller.state)

    def _briefing_edited(self) -> None:
        self.save_button.setEnabled(
            self.briefing.toPlainText().strip() != self.controller.state.briefing
        )

    def keep_briefing(self) -> bool:
        try:
            self.controller.apply(commands.set_briefing(self.briefing.toPlainText().strip()))
        except CommandError as error:
            self.problem.setText(str(error))
            return False
        self.problem.setText("")
        return True

    def refresh(self, state: EncounterState) -> None:
        if self.briefing.toPlainText().strip() != state.briefing:
            self.briefing.blockSignals(True)  # our own echo, not an edit
            self.briefing.setPlainText(state.briefing)
            self.briefing.blockSignals(False)
        self._briefing_edited()
        token = next((t for t in state.tokens if t.id == self.controller.selected), None)
        if token is None:
            self.token_title.setText("")
            self.token_notes.setText("Select a token to read its notes.")
            return
        secret = " (GM only: hidden from players)" if token.hidden else ""
        self.token_title.setText(f"Notes on {token.name}{secret}")
        self.token_notes.setText(token.notes or "No notes. Double-click the token to write some.")
