"""Never lose a fight: autosave after every applied command, and offer a restore after a crash.

The autosave lives in the user's data folder (QStandardPaths.AppDataLocation). A marker file
says "a session is running"; a clean exit removes it. If the marker is still there at the
next start, the last run crashed and its autosave is offered back.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths

from desktop.controller import EncounterController
from desktop.documents import Document, DocumentError, load_document, save_document

AUTOSAVE_NAME = "autosave.killbox"
MARKER_NAME = "session-running.json"


def data_folder() -> Path:
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    folder = Path(location or Path.home() / ".killbox")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Autosaver(QObject):
    """Writes the controller's document to the autosave file whenever the state changes.

    Saving a big map takes a while, so it runs on a background thread: the state is an
    immutable value, so the thread reads a snapshot while play goes on. Changes made during
    a save are coalesced into one more save of the newest state.
    """

    def __init__(self, controller: EncounterController, folder: Path | None = None) -> None:
        super().__init__()
        self.folder = folder or data_folder()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.controller = controller
        self.last_error: str | None = None
        self._lock = threading.Lock()
        self._pending: Document | None = None
        self._worker: threading.Thread | None = None
        controller.state_changed.connect(self._state_changed)
        self._write_marker(controller.path)

    @property
    def autosave_path(self) -> Path:
        return self.folder / AUTOSAVE_NAME

    @property
    def marker_path(self) -> Path:
        return self.folder / MARKER_NAME

    def _write_marker(self, path: Path | None) -> None:
        marker = {"pid": os.getpid(), "file": str(path) if path else None}
        self.marker_path.write_text(json.dumps(marker), encoding="utf-8")

    def _state_changed(self, _state: object) -> None:
        if self.controller.dirty:
            self.save_now()

    def save_now(self) -> None:
        """Queue a save of the current document (returns at once)."""
        with self._lock:
            self._pending = self.controller.document
            if self._worker is not None and self._worker.is_alive():
                return  # the running worker picks the newest document up when it is done
            self._worker = threading.Thread(target=self._run, name="autosave", daemon=True)
            self._worker.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                document, self._pending = self._pending, None
            if document is None:
                return
            try:
                save_document(document, self.autosave_path)
                self._write_marker(document.path)
            except (DocumentError, OSError) as error:
                self.last_error = str(error)  # shown in the status bar; never stops play
            else:
                self.last_error = None

    def wait(self, timeout: float = 60.0) -> None:
        """Block until every queued save is written."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)

    def restart(self) -> None:
        """Another document was opened: the old autosave no longer matters."""
        self.wait()
        self.autosave_path.unlink(missing_ok=True)
        self._write_marker(self.controller.path)

    def finish(self) -> None:
        """A clean exit: nothing to restore next time."""
        self.wait()
        for path in (self.marker_path, self.autosave_path):
            path.unlink(missing_ok=True)


def crashed_session(folder: Path | None = None) -> Document | None:
    """The autosave of a run that did not exit cleanly, or None."""
    folder = folder or data_folder()
    marker = folder / MARKER_NAME
    autosave = folder / AUTOSAVE_NAME
    if not marker.exists() or not autosave.exists():
        return None
    try:
        document = load_document(autosave)
        info = json.loads(marker.read_text(encoding="utf-8"))
    except (DocumentError, ValueError, OSError):
        return None
    original = info.get("file") if isinstance(info, dict) else None
    return Document(document.state, document.images, Path(original) if original else None)


def discard_crashed_session(folder: Path | None = None) -> None:
    folder = folder or data_folder()
    for name in (MARKER_NAME, AUTOSAVE_NAME):
        (folder / name).unlink(missing_ok=True)
