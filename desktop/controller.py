"""The encounter controller: owns the engine session and tells the widgets when it changed.

Widgets never change the state themselves: they call ``preview``/``apply``/``undo``/``redo``
here, and redraw from ``state_changed``. This is the one place desktop/ talks to the
turn engine, so a different engine version only touches this file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from desktop.documents import Document, save_document
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, CommandError, Event, Preview, RuleSystem
from engine.turns.journal import REDO, UNDO, apply_record, image_record
from engine.turns.session import Encounter

#: Takes a journal record (engine.turns.journal) and has it on disk when it returns.
JournalWriter = Callable[[Mapping[str, Any]], None]


class EncounterController(QObject):
    """One open encounter: the engine session, its images, its file, and whether it is saved."""

    #: The state shown changed (apply, undo, redo, open). Argument: the new EncounterState.
    state_changed = Signal(object)
    #: A command was applied; argument: the tuple of engine events.
    applied = Signal(object)
    #: File name, dirty flag or undo/redo availability changed.
    document_changed = Signal()
    #: The selected token changed; argument: token id or None.
    selection_changed = Signal(object)
    #: A picture was added to the document (a token's); argument: the images by entry name.
    images_changed = Signal(object)
    #: Someone pinged a square (engine.grid.Square): every view of the encounter shows it.
    pinged = Signal(object)
    #: A new session replaced the old one (opened, new, renamed, restored): its undo
    #: history, and so its journal, starts here.
    session_started = Signal()

    def __init__(self, document: Document, system: RuleSystem | None = None) -> None:
        super().__init__()
        self._system = system
        self.path: Path | None = None
        self.dirty = False
        self.selected: str | None = None
        #: Ask the GM to roll or type the dice of each command (desktop.fight); off: seeded.
        self.ask_dice = False
        #: The GM rolls physical dice (desktop.preferences): with ask_dice, every roll's
        #: faces are asked for; off, Killbox rolls and the log shows the faces.
        self.physical_dice = False
        #: Where every change is journaled before it is shown (desktop.autosave), if anywhere.
        self.journal: JournalWriter | None = None
        self.session = self._session(document.state, document.images)
        self._take(document)

    def _session(self, state: EncounterState, images: Mapping[str, bytes]) -> Encounter:
        return Encounter(state, self._system, images=images)

    def _take(self, document: Document) -> None:
        self.path = document.path
        self.dirty = False

    @property
    def images(self) -> Mapping[str, bytes]:
        """The pictures of the document (the map's and the tokens'), by entry name."""
        return self.session.images

    def ping(self, square: Square) -> None:
        """Point the table at a square (shown on the GM's map and the player view)."""
        if self.state.battlemap.in_bounds(square):
            self.pinged.emit(square)

    # ---- reading

    @property
    def state(self) -> EncounterState:
        return self.session.state

    @property
    def system(self) -> RuleSystem:
        return self.session.system

    @property
    def document(self) -> Document:
        return Document(self.state, self.images, self.path)

    @property
    def can_undo(self) -> bool:
        return self.session.can_undo

    @property
    def can_redo(self) -> bool:
        return self.session.can_redo

    def preview(self, command: Command) -> Preview:
        return self.session.preview(command)

    # ---- changing

    def apply(self, command: Command, dice: Sequence[int] | None = None) -> tuple[Event, ...]:
        """Apply through the engine; raises the engine's CommandError when not allowed.

        The command is journaled (on disk) before anything shows its result."""
        depth = self.session.undo_depth
        events = self.session.apply(command, dice)
        joined = self.session.undo_depth == depth
        typed = None if dice is None else list(dice)
        self._record(apply_record(command, typed, joined, self.session))
        self._changed()
        self.applied.emit(events)
        return events

    def undo(self) -> bool:
        if not self.session.can_undo:
            return False
        self.session.undo()
        self._record(UNDO)
        self._changed()
        return True

    def redo(self) -> bool:
        if not self.session.can_redo:
            return False
        self.session.redo()
        self._record(REDO)
        self._changed()
        return True

    def remove_token(self, token_id: str) -> tuple[Event, ...]:
        """The GM takes a token off the map (the engine's remove_token command)."""
        return self.apply(Command("remove_token", targets=(token_id,)))

    def add_image(self, data: bytes, stem: str = "picture") -> str:
        """Keep a picture in the document before a command names it; returns its entry name.

        Raises the engine's CommandError when the picture is refused (not an image, too big).
        """
        known = set(self.images)
        name = self.session.add_image(data, stem)
        if name not in known:
            self._record(image_record(name, stem, data))
            self.images_changed.emit(self.images)
        return name

    def replace_state(self, state: EncounterState) -> None:
        """Start over from a state (a restored autosave); the undo history starts here."""
        self.session = self._session(state, self.images)
        self._changed()
        self.session_started.emit()

    def open(self, document: Document) -> None:
        self.session = self._session(document.state, document.images)
        self._take(document)
        self.select(None)
        self.state_changed.emit(self.state)
        self.document_changed.emit()
        self.session_started.emit()

    def resume(self, session: Encounter) -> None:
        """Carry on with a session restored after a crash (its undo history included);
        its journal goes on too, so no new session starts. It is not saved to a file."""
        self.session = session
        self.dirty = True
        self.select(None)
        self.state_changed.emit(self.state)
        self.document_changed.emit()

    def _record(self, record: Mapping[str, Any]) -> None:
        if self.journal is not None:
            self.journal(record)

    def save(self, path: Path) -> None:
        """Save atomically; raises DocumentError when it cannot."""
        save_document(self.document, path)
        self.path = path
        self.dirty = False
        self.document_changed.emit()

    def rename(self, name: str) -> None:
        self.replace_state(replace(self.state, name=name))

    def select(self, token_id: str | None) -> None:
        if token_id == self.selected:
            return
        self.selected = token_id
        self.selection_changed.emit(token_id)

    def _changed(self) -> None:
        self.dirty = True
        if self.selected is not None and all(t.id != self.selected for t in self.state.tokens):
            self.select(None)
        self.state_changed.emit(self.state)
        self.document_changed.emit()


__all__ = ["CommandError", "EncounterController"]
