"""The New encounter flow: the dialog, then the document the GM asked for.

The map itself is an engine value built from the GM's choices; the desktop only asks.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog, QWidget

from desktop.dialogs.new_encounter import NewEncounterChoice, NewEncounterDialog
from desktop.documents import Document
from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.rules import get_system

#: How a dialog is shown; tests replace it to fill the dialog in instead of waiting.
RunDialog = Callable[[QDialog], bool]


def run_modal(dialog: QDialog) -> bool:
    return bool(dialog.exec())


def blank_document(choice: NewEncounterChoice) -> Document:
    """An empty map of the chosen size, at the chosen system's scale."""
    system = get_system(choice.system)
    state = EncounterState(
        choice.name, system.name, system.scale, BattleMap(choice.width, choice.height)
    )
    return Document(state, {}, None)


def ask_new_document(
    parent: QWidget | None, *, system: str | None = None, run: RunDialog = run_modal
) -> Document | None:
    """Ask for a new encounter; None when the GM cancels."""
    dialog = NewEncounterDialog(parent, system=system)
    if not run(dialog):
        return None
    return blank_document(dialog.choice())
