"""Combat log: every event the engine reported, newest at the bottom."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget, QVBoxLayout, QWidget

from desktop.controller import EncounterController
from engine.encounter import EncounterState


class CombatLog(QWidget):
    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.list = QListWidget()
        self.list.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        self._shown: tuple[object, ...] = ()
        controller.state_changed.connect(self.refresh)
        self.refresh(controller.state)

    def refresh(self, state: EncounterState) -> None:
        log = state.combat.log
        if log[: len(self._shown)] == self._shown:
            new = log[len(self._shown) :]  # only append what is new
        else:
            self.list.clear()  # undo went back past what we showed
            new = log
        for entry in new:
            prefix = f"R{entry.round} " if entry.round else ""
            # Dice working comes with Markdown emphasis (`15`, **1**); the list shows plain text.
            text = entry.text.replace("`", "").replace("**", "")
            self.list.addItem(prefix + text)
        self._shown = log
        self.list.scrollToBottom()
