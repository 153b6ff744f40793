"""Never lose a fight: a journal of every change, and a restore with its undo history.

Each running Killbox keeps its own session folder under ``<data>/sessions/``, held by a
lock file (QLockFile) for as long as it runs, so two copies never share or touch each
other's autosave. The folder holds:

- ``base-N.killbox``: the state the undo history starts from (written when a document is
  opened, made or restored), with its pictures;
- ``journal-N.jsonl``: every command, undo, redo and picture since, appended and fsynced
  before the window shows the result (``engine.turns.journal``);
- ``snapshot.killbox``: the newest state, written on a background thread (a fallback when
  the history cannot be replayed);
- ``session.json``: which base and journal are current, and the document's file.

A clean exit removes the folder. At the next start a folder whose lock can be taken
belongs to a run that died: it is offered back, replayed with its undo history. A session
that cannot be read is reported and moved to ``<data>/damaged/`` (never overwritten), and
never stops the app from starting. When the data folder cannot be written (read-only, disk
full) the app runs without autosave and says so.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, QStandardPaths

from desktop.controller import EncounterController
from desktop.documents import Document, DocumentError, load_document, save_document
from engine.files import SUFFIX
from engine.files.atomic import atomic_write_bytes, remove_stale_temporaries
from engine.rules.base import RuleSystem
from engine.turns.journal import CommandJournal, JournalError, read_journal, replay
from engine.turns.session import Encounter

SESSIONS = "sessions"
DAMAGED = "damaged"
#: Where a fight the GM chose not to restore is kept, as a .killbox file, the newest few.
DECLINED = "declined"
KEEP_DECLINED = 20
LOCK_NAME = "lock"
INFO_NAME = "session.json"
SNAPSHOT_NAME = "snapshot.killbox"
#: What Killbox versions before the session folders left behind after a crash.
LEGACY_NAMES = ("autosave.killbox", "session-running.json")


def data_folder() -> Path:
    """The user's Killbox data folder (made if missing; OSError when it cannot be)."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    folder = Path(location or Path.home() / ".killbox")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class SessionDamaged(Exception):
    """A crashed session that cannot be restored; the message says what is wrong."""


def _lock(folder: Path) -> QLockFile | None:
    """The session folder's lock, taken, or None when a live Killbox holds it."""
    lock = QLockFile(str(folder / LOCK_NAME))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    return lock if lock.tryLock(0) else None


class Autosaver(QObject):
    """Journals every change of the controller's session and snapshots its state.

    ``folder`` is the data folder (the session folder is made inside it); ``resume``
    continues a restored session's folder, base and journal.
    """

    def __init__(
        self,
        controller: EncounterController,
        folder: Path | None = None,
        resume: CrashedSession | None = None,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.folder = folder if folder is not None else _data_folder_or_home()
        self.session_folder: Path | None = None
        self.enabled = False
        #: Why autosave failed or is off, for the status bar and the warning; None when fine.
        self.last_error: str | None = None
        self._lock_file: QLockFile | None = None
        #: The base, journal and file the session's info names (rewritten when they change).
        self._info: tuple[str, str, Path | None] | None = None
        self._journal: CommandJournal | None = None
        self._generation = 0
        self._mutex = threading.Lock()
        self._pending: Document | None = None
        self._worker: threading.Thread | None = None
        try:
            if resume is not None:
                self._resume(resume)
            else:
                self._open_session()
        except OSError as error:
            self._disable(error)
        controller.state_changed.connect(self._state_changed)
        controller.document_changed.connect(self._file_changed)
        controller.session_started.connect(self.restart)
        controller.journal = self._record

    # ---- the session folder

    def _open_session(self) -> None:
        sessions = self.folder / SESSIONS
        sessions.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for _ in range(100):
            folder = sessions / f"{stamp}-{os.getpid()}-{secrets.token_hex(3)}"
            try:
                folder.mkdir()
            except FileExistsError:
                continue
            lock = _lock(folder)
            if lock is None:
                raise OSError(f"cannot lock the autosave folder {folder}")
            self.session_folder, self._lock_file = folder, lock
            self.enabled = True
            self._start_generation()
            return
        raise OSError(f"no free autosave folder in {sessions}")

    def _resume(self, crashed: CrashedSession) -> None:
        self.session_folder, self._lock_file = crashed.folder, crashed.take_lock()
        self._generation = crashed.generation
        self._journal = CommandJournal(crashed.folder / crashed.journal_name)
        self.enabled = True
        self._write_info(crashed.base_name, crashed.journal_name)

    def _start_generation(self) -> None:
        """A new base (the document as it is now) and an empty journal after it."""
        folder = self.session_folder
        assert folder is not None
        old = (self._base_name(self._generation), self._journal_name(self._generation))
        self._generation += 1
        base, journal = self._base_name(self._generation), self._journal_name(self._generation)
        if self._journal is not None:
            self._journal.close()
        self._write_base(folder / base)
        (folder / journal).write_bytes(b"")
        self._journal = CommandJournal(folder / journal)
        self._write_info(base, journal)
        for name in old:
            (folder / name).unlink(missing_ok=True)

    def _write_base(self, target: Path) -> None:
        source = self.controller.path
        if source is not None and not self.controller.dirty and source.suffix == SUFFIX:
            # The document is that file, unchanged since it was opened and checked: a copy
            # spares writing and checking the whole encounter again while the window waits
            # (2.7 s of CPU and 300 MB for a file at every limit). Were the file rewritten
            # in the moment since, the journal would not replay on it and a restore would
            # fall back to the snapshot.
            try:
                shutil.copyfile(source, target)
                return
            except OSError:
                pass  # moved or unreadable since: the document is written instead
        save_document(self.controller.document, target)

    @staticmethod
    def _base_name(generation: int) -> str:
        return f"base-{generation}.killbox"

    @staticmethod
    def _journal_name(generation: int) -> str:
        return f"journal-{generation}.jsonl"

    def _write_info(self, base: str, journal: str) -> None:
        assert self.session_folder is not None
        path = self.controller.path
        self._info = (base, journal, path)
        info = {
            "pid": os.getpid(),
            "file": str(path) if path else None,
            "generation": self._generation,
            "base": base,
            "journal": journal,
            "name": self.controller.state.name,
        }
        atomic_write_bytes(self.session_folder / INFO_NAME, json.dumps(info).encode("utf-8"))

    def _disable(self, error: BaseException) -> None:
        self.enabled = False
        self.last_error = f"autosave is off: {_reason(error)}"
        if self._journal is not None and not self._journal.closed:
            with contextlib.suppress(OSError):
                self._journal.close()

    # ---- following the controller

    def _record(self, record: Mapping[str, Any]) -> None:
        """A change, on disk before the window shows it (the controller calls this)."""
        if not self.enabled or self._journal is None:
            return
        try:
            self._journal.append(record)
        except (OSError, ValueError) as error:
            self._disable(error)

    def _file_changed(self) -> None:
        """Saved under a new name (Save as, or a first Save): the info names that file, so
        a fight restored after a crash saves back to it instead of asking for a name."""
        info = self._info
        if not self.enabled or info is None or info[2] == self.controller.path:
            return
        try:
            self._write_info(info[0], info[1])
        except OSError as error:
            self._disable(error)

    def _state_changed(self, _state: object) -> None:
        if self.enabled and self.controller.dirty:
            self.save_now()

    def save_now(self) -> None:
        """Queue a snapshot of the current document (returns at once)."""
        with self._mutex:
            self._pending = self.controller.document
            if self._worker is not None and self._worker.is_alive():
                return  # the running worker picks the newest document up when it is done
            self._worker = threading.Thread(target=self._run, name="autosave", daemon=True)
            self._worker.start()

    def _run(self) -> None:
        while True:
            with self._mutex:
                document, self._pending = self._pending, None
            folder = self.session_folder
            if document is None or folder is None:
                return
            try:
                save_document(document, folder / SNAPSHOT_NAME)
            except (DocumentError, OSError) as error:
                self.last_error = str(error)  # shown in the status bar; never stops play
            else:
                if self.enabled:
                    self.last_error = None

    def wait(self, timeout: float = 60.0) -> None:
        """Block until every queued snapshot is written."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)

    def restart(self) -> None:
        """Another document (opened, new, restored): its history starts a new journal."""
        self.wait()
        if not self.enabled:
            return
        try:
            self._start_generation()
        except (OSError, DocumentError) as error:
            self._disable(error)

    def finish(self) -> None:
        """A clean exit: nothing to restore next time."""
        self.wait()
        if self._journal is not None and not self._journal.closed:
            self._journal.close()
        self.enabled = False
        if self.session_folder is not None:
            shutil.rmtree(self.session_folder, ignore_errors=True)
        if self._lock_file is not None:
            self._lock_file.unlock()
            self._lock_file = None


def _data_folder_or_home() -> Path:
    try:
        return data_folder()
    except OSError:
        return Path.home() / ".killbox"


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        from desktop.documents import os_problem

        where = f" ({error.filename})" if error.filename else ""
        return os_problem(error) + where
    return str(error)


# ---- after a crash


@dataclass
class RestoredSession:
    """What a crashed session gives back: the document, and its history when it replayed."""

    document: Document
    #: The session replayed from its base with the journal (undo history and all), or None
    #: when only the newest state could be read (``problem`` says why).
    encounter: Encounter | None
    problem: str | None = None


class CrashedSession:
    """The folder of a run that died, locked by us while we look at it."""

    def __init__(self, folder: Path, lock: QLockFile) -> None:
        self.folder = folder
        self._lock: QLockFile | None = lock
        self.generation = 0
        self.base_name = ""
        self.journal_name = ""
        self.file: Path | None = None

    @property
    def name(self) -> str:
        return self.folder.name

    def take_lock(self) -> QLockFile:
        lock, self._lock = self._lock, None
        assert lock is not None, "the session was already handed over"
        return lock

    def release(self) -> None:
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    def read_info(self) -> None:
        """Read ``session.json``; SessionDamaged when it is missing or not as written."""
        try:
            info = json.loads((self.folder / INFO_NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SessionDamaged(f"{INFO_NAME} cannot be read ({error})") from error
        if not isinstance(info, dict):
            raise SessionDamaged(f"{INFO_NAME} does not hold a JSON object")
        file, base, journal = info.get("file"), info.get("base"), info.get("journal")
        generation = info.get("generation")
        if file is not None and not isinstance(file, str):
            raise SessionDamaged(f"{INFO_NAME}: 'file' must be a file name, found {file!r}")
        for key, value in (("base", base), ("journal", journal)):
            if not isinstance(value, str) or Path(value).name != value or not value:
                raise SessionDamaged(f"{INFO_NAME}: {key!r} must be a file name, found {value!r}")
        if type(generation) is not int:
            raise SessionDamaged(f"{INFO_NAME}: 'generation' must be a whole number")
        assert isinstance(base, str) and isinstance(journal, str)
        self.file = Path(file) if file else None
        self.generation, self.base_name, self.journal_name = generation, base, journal

    def restore(self, system: RuleSystem | None = None) -> RestoredSession:
        """The fight as it was, with its undo history when the journal replays; only the
        newest state (``problem`` says why) when it does not; SessionDamaged when neither
        can be read."""
        self.read_info()
        try:
            base = load_document(self.folder / self.base_name)
            encounter = Encounter(base.state, system, images=base.images)
            replay(encounter, read_journal(self.folder / self.journal_name))
        except (DocumentError, JournalError, OSError, KeyError, ValueError) as error:
            history_problem = str(error)
        else:
            document = Document(encounter.state, dict(encounter.images), self.file)
            return RestoredSession(document, encounter)
        try:
            newest = load_document(self.folder / SNAPSHOT_NAME)
        except DocumentError as error:
            raise SessionDamaged(
                f"the undo history cannot be replayed ({history_problem}), and the newest "
                f"state cannot be read either ({error})"
            ) from error
        document = Document(newest.state, newest.images, self.file)
        return RestoredSession(document, None, f"the undo history is lost: {history_problem}")

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        self.release()

    def decline(self, document: Document) -> Path:
        """The GM chose not to restore: the fight as it was after the last action is saved
        to ``<data>/declined/`` (a click on No must not lose an evening's preparation that
        was never saved), then the session folder goes. When that file cannot be written,
        the folder is kept aside instead. Returns where the fight is kept."""
        declined = self.folder.parent.parent / DECLINED
        readable = re.sub(r"[^\w .,()-]+", "_", document.state.name).strip()[:80] or "fight"
        target = declined / f"{readable} ({self.folder.name}).killbox"
        try:
            declined.mkdir(parents=True, exist_ok=True)
            save_document(document, target)
        except (OSError, DocumentError):
            return self.keep_aside()
        self.discard()
        _keep_newest(declined, KEEP_DECLINED)
        return target

    def keep_aside(self) -> Path:
        """Move the folder to ``<data>/damaged/`` (kept, never written again); where it went.
        When it cannot be moved it stays where it is, unlocked."""
        damaged = self.folder.parent.parent / DAMAGED
        target = _free_name(damaged / self.folder.name)
        try:
            damaged.mkdir(parents=True, exist_ok=True)
            self.release()
            (self.folder / LOCK_NAME).unlink(missing_ok=True)
            os.replace(self.folder, target)
        except OSError:
            return self.folder
        return target


def _last_written(folder: Path) -> float:
    """When a session last wrote (its journal, else its folder), to find the newest."""
    times = [0.0]
    for path in (folder, *folder.glob("journal-*.jsonl")):
        with contextlib.suppress(OSError):
            times.append(path.stat().st_mtime)
    return max(times)


def _keep_newest(folder: Path, count: int) -> None:
    """Remove all but the ``count`` newest .killbox files of ``folder``."""
    files = sorted(folder.glob("*.killbox"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in files[count:]:
        old.unlink(missing_ok=True)


def _free_name(path: Path) -> Path:
    """``path``, or ``path-2``, ``path-3``... the first that does not exist."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}-{number}")
    return candidate


def crashed_sessions(folder: Path | None = None) -> list[CrashedSession]:
    """The session folders of runs that died, newest first, each locked by us (a running
    Killbox's folder is locked by it and never listed). Cleans stale temporary files."""
    try:
        root = folder if folder is not None else data_folder()
        entries = sorted((root / SESSIONS).iterdir(), key=_last_written, reverse=True)
    except OSError:
        return []
    found: list[CrashedSession] = []
    for entry in entries:
        if not entry.is_dir():
            continue
        lock = _lock(entry)
        if lock is None:
            continue  # a live Killbox's session
        remove_stale_temporaries(entry)
        found.append(CrashedSession(entry, lock))
    return found


def keep_legacy_autosave_aside(folder: Path | None = None) -> Path | None:
    """An earlier Killbox's crash autosave (one per data folder) is moved to ``damaged/``
    unread, so no launch trips on it; where it went, or None when there was none."""
    try:
        root = folder if folder is not None else data_folder()
    except OSError:
        return None
    present = [root / name for name in LEGACY_NAMES if (root / name).exists()]
    if not present:
        return None
    target = root / DAMAGED / time.strftime("earlier-killbox-%Y%m%d-%H%M%S")
    try:
        target.mkdir(parents=True, exist_ok=True)
        for path in present:
            os.replace(path, target / path.name)
    except OSError:
        return None
    return target
