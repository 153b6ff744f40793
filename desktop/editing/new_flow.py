"""The New encounter flow: the dialog, then (for a picture) the grid, then the document.

File > New, a picture dropped on the window and ``killbox PICTURE`` all come here. The map
itself is made by the engine (``engine.new_encounter``) from the GM's choices and the grid
the GM accepted; the grid's proposal is the engine's ``detect_grid``. The desktop only asks.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDialog, QWidget

import engine
from desktop.dialogs.grid_fit import GridFit, GridFitDialog
from desktop.dialogs.new_encounter import NewEncounterChoice, NewEncounterDialog
from desktop.documents import Document, DocumentError
from engine.rules.base import CommandError

#: How a dialog is shown; tests replace it to fill the dialog in instead of waiting.
RunDialog = Callable[[QDialog], bool]


def run_modal(dialog: QDialog) -> bool:
    return bool(dialog.exec())


def blank_document(choice: NewEncounterChoice) -> Document:
    """An empty map of the chosen size, at the chosen system's scale."""
    fight = engine.new_encounter(choice.system, choice.name, size=(choice.width, choice.height))
    return Document(fight.state, dict(fight.images), None)


def ask_new_document(
    parent: QWidget | None,
    picture: Path | None = None,
    *,
    system: str | None = None,
    run: RunDialog = run_modal,
) -> Document | None:
    """Ask for a new encounter; None when the GM cancels. DocumentError for a bad picture."""
    dialog = NewEncounterDialog(parent, system=system, picture=picture)
    if not run(dialog):
        return None
    choice = dialog.choice()
    if choice.picture is None:
        return blank_document(choice)
    return picture_document(parent, choice, run=run)


def proposed_grid(data: bytes) -> tuple[GridFit | None, float]:
    """The engine's grid for a picture and its confidence; None when it found none."""
    guess = engine.detect_grid(data)
    if not guess.found:
        return None, guess.confidence
    fit = GridFit(guess.pixels_per_square, guess.offset_x, guess.offset_y)
    return fit.normalised(), guess.confidence


def picture_document(
    parent: QWidget | None, choice: NewEncounterChoice, *, run: RunDialog = run_modal
) -> Document | None:
    """The grid dialog on the chosen picture, then the encounter the engine makes from it."""
    assert choice.picture is not None
    try:
        data = choice.picture.read_bytes()
    except OSError as error:
        raise DocumentError(f"{choice.picture}: {error.strerror or error}") from error
    image = QImage.fromData(data)
    if image.isNull():
        raise DocumentError(f"{choice.picture}: not a picture Killbox can read")
    try:
        proposal, confidence = proposed_grid(data)
    except ValueError as error:  # the engine could not read it as a picture
        raise DocumentError(f"{choice.picture}: {error}") from error
    grid = GridFitDialog(image, proposal, confidence, parent)
    if not run(grid):
        return None
    fit = grid.fit()
    try:
        fight = engine.new_encounter(
            choice.system,
            choice.name,
            picture=data,
            grid=(fit.pixels_per_square, fit.offset_x, fit.offset_y),
        )
    except CommandError as error:
        raise DocumentError(f"{choice.picture}: {error}") from error
    return Document(fight.state, dict(fight.images), None)
