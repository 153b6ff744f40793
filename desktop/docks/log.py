"""Combat log: the events the engine reported, newest at the bottom.

The dock lists the newest SHOWN_LINES lines; the encounter keeps every line (and its
file saves them). Laying out 200,000 wrapped lines took a second with the window waiting,
and a GM reads the last few hundred.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QListWidget, QVBoxLayout, QWidget

from desktop.controller import EncounterController
from engine.encounter import EncounterState
from engine.turns.combat import LogEntry

#: How many of the newest log lines the dock lists.
SHOWN_LINES = 5000


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
        if len(new) >= SHOWN_LINES:
            self.list.clear()
        self.list.addItems([_line(entry) for entry in new[-SHOWN_LINES:]])
        for _ in range(self.list.count() - SHOWN_LINES):
            self.list.takeItem(0)  # an item taken out is no one's: Python lets it go
        self._shown = log
        self.list.scrollToBottom()

    def showEvent(self, event: QShowEvent) -> None:
        # Lines added while hidden (the dock closed, or behind another tab) are laid out
        # only now: scroll once they are, so the newest line is in view, not an old one.
        super().showEvent(event)
        QTimer.singleShot(0, self.list.scrollToBottom)


def _line(entry: LogEntry) -> str:
    prefix = f"R{entry.round} " if entry.round else ""
    # Dice working comes with Markdown emphasis (`15`, **1**); the list shows plain text.
    return prefix + entry.text.replace("`", "").replace("**", "")
