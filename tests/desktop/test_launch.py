"""Starting the app: the default encounter or the last fight, and the offer to restore
after a crash (with the undo history); damaged autosaves never stop the start."""

from __future__ import annotations

import json
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from desktop import main_window as mw
from desktop.autosave import DAMAGED, SESSIONS, Autosaver, crashed_sessions
from desktop.controller import EncounterController
from desktop.documents import Document, load_document, save_document
from engine.rules import DEFAULT_SYSTEM
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.sample import sample_state

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[mw.MainWindow]:
    """Run launch() without entering the event loop; collect the window it opens and the
    warnings it shows. The data folder and the settings are the test's own."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setattr("desktop.autosave.data_folder", lambda: folder)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "ini"))
    windows: list[mw.MainWindow] = []
    original = mw.MainWindow.show

    def show(self: mw.MainWindow) -> None:
        self.confirm_discard = lambda: True  # type: ignore[method-assign]
        self.warnings = []  # type: ignore[attr-defined]
        self.show_error = lambda title, text: self.warnings.append(text)  # type: ignore[method-assign, attr-defined]
        windows.append(self)
        original(self)

    monkeypatch.setattr(mw.MainWindow, "show", show)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    yield windows
    for window in windows:
        window.close()


def _crash_with(folder: Path, name: str, moves: int = 2, saved_as: Path | None = None) -> Path:
    """Leave what a killed run leaves: a session folder (base, journal, snapshot) whose
    lock's owner is gone; with ``saved_as``, the fight was saved there after its first
    command. Returns the session folder."""
    state = replace(sample_state(), name=name, system="spycraft")
    controller = EncounterController(Document(state, {}, None))
    autosaver = Autosaver(controller, folder)
    controller.apply(Command("start_combat"), [9, 2, 5, 3])
    if saved_as is not None:
        controller.save(saved_as)
    for _ in range(moves - 1):
        controller.apply(Command("end_turn"))
    autosaver.wait()
    assert autosaver._lock_file is not None and autosaver.session_folder is not None
    autosaver._lock_file.unlock()  # as the dead process's lock: its owner is gone
    controller.journal = None
    return autosaver.session_folder


def test_a_fight_killed_just_after_its_save_is_not_offered_back(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Killed at logout with everything saved: the file holds it all, so no question."""
    folder, file = tmp_path / "data", tmp_path / "saved.killbox"
    session = _crash_with(folder, "Saved fight", moves=1, saved_as=file)
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: pytest.fail("asked"))
    mw.launch(qapp, file)
    window = started[0]
    assert window.controller.path == file and not window.controller.dirty
    assert window.controller.state.combat.round == 1
    assert not session.exists() and crashed_sessions(folder) == []


def test_a_change_after_the_save_is_still_offered_back(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder, file = tmp_path / "data", tmp_path / "saved.killbox"
    _crash_with(folder, "Saved fight", moves=2, saved_as=file)
    asked: list[str] = []
    monkeypatch.setattr(
        mw, "ask_restore", lambda parent, document: asked.append(document.state.name) or True
    )
    mw.launch(qapp, None)
    assert asked == ["Saved fight"]
    controller = started[0].controller
    assert controller.dirty and controller.path == file
    assert controller.state != load_document(file).state  # the turn ended after the save


def test_launch_opens_the_default_encounter(qapp, started, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert mw.launch(qapp, None) == 0
    window = started[0]
    assert window.controller.path == mw.default_map_path()
    assert window.controller.state.tokens
    assert window.warnings == []


def test_after_a_crash_the_gm_gets_the_fight_back_with_its_undo_history(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    session = _crash_with(folder, "Interrupted fight", moves=3)
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: True)
    mw.launch(qapp, None)
    window = started[0]
    controller = window.controller
    assert controller.state.name == "Interrupted fight"
    assert controller.dirty  # restored work is not saved to a file yet
    assert controller.session.undo_depth == 3
    assert window.autosaver.session_folder == session  # the restored session goes on
    controller.undo()
    controller.undo()
    controller.undo()
    assert controller.state.combat.round == 0 and not controller.can_undo
    window.close()
    assert crashed_sessions(folder) == []


def test_declining_the_restore_discards_that_autosave_only(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    older = _crash_with(folder, "Older fight")
    newer = _crash_with(folder, "Interrupted fight")
    asked: list[str] = []
    monkeypatch.setattr(
        mw, "ask_restore", lambda parent, document: asked.append(document.state.name) and False
    )
    mw.launch(qapp, None)
    window = started[0]
    assert asked == ["Interrupted fight"]
    assert window.controller.state.name != "Interrupted fight"
    assert not newer.exists() and older.exists()  # the other one is offered next time
    # A No must not lose the fight: it is kept as a file, one click away in Open recent.
    (kept,) = (folder / "declined").glob("*.killbox")
    assert window.recent_files()[0] == kept.resolve()
    assert str(kept) in window.statusBar().currentMessage()
    document = load_document(kept)
    assert document.state.name == "Interrupted fight" and document.state.combat.round >= 1


def test_a_running_killbox_is_not_a_crash_and_its_files_are_left_alone(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    controller = EncounterController(Document(sample_state(), {}, None))
    first = Autosaver(controller, folder)  # the first copy, still running
    controller.apply(Command("start_combat"), [9, 2, 5, 3])
    first.wait()
    assert first.session_folder is not None
    before = {p.name: p.read_bytes() for p in first.session_folder.iterdir() if p.is_file()}
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: pytest.fail("asked"))
    mw.launch(qapp, None)
    second = started[0]
    assert second.autosaver.session_folder != first.session_folder
    second.controller.apply(Command("start_combat"))
    second.close()
    after = {p.name: p.read_bytes() for p in first.session_folder.iterdir() if p.is_file()}
    assert after == before
    first.finish()


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    else:  # one byte flipped, in the middle of the compressed JSON
        middle = len(data) // 3
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])


def _unknown_system(path: Path) -> None:
    with zipfile.ZipFile(path) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    document = json.loads(entries["encounter.json"])
    document["encounter"]["system"] = "no-such-system"
    entries["encounter.json"] = json.dumps(document).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)


@pytest.mark.parametrize(
    "damage", ["truncated", "empty", "flipped byte", "bad marker", "unknown system"]
)
def test_a_damaged_autosave_is_reported_kept_aside_and_the_app_starts(
    qapp, started, monkeypatch, tmp_path: Path, damage: str
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    session = _crash_with(folder, "Interrupted fight")
    if damage == "bad marker":
        (session / "session.json").write_text('{"file": 42}', encoding="utf-8")
    for path in session.glob("*.killbox"):
        if damage == "unknown system":
            _unknown_system(path)
        elif damage != "bad marker":
            _damage(path, damage)
    kept = {p.name: p.read_bytes() for p in session.iterdir() if p.name != "lock"}
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: pytest.fail("asked"))
    assert mw.launch(qapp, None) == 0
    window = started[0]
    assert window.controller.path == mw.default_map_path()
    aside = folder / DAMAGED / session.name
    assert len(window.warnings) == 1
    assert "is damaged" in window.warnings[0] and str(aside) in window.warnings[0]
    assert {p.name: p.read_bytes() for p in aside.iterdir()} == kept
    window.controller.apply(Command("start_combat"))
    window.autosaver.wait()
    assert {p.name: p.read_bytes() for p in aside.iterdir()} == kept  # never overwritten
    assert not session.exists()


def test_a_damaged_journal_gives_the_newest_state_back_without_its_history(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    session = _crash_with(folder, "Interrupted fight", moves=3)
    journal = next(session.glob("journal-*.jsonl"))
    lines = journal.read_bytes().split(b"\n")
    lines[0] = b"{not json"
    journal.write_bytes(b"\n".join(lines))
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: True)
    mw.launch(qapp, None)
    window = started[0]
    assert window.controller.state.name == "Interrupted fight"
    assert window.controller.state.combat.round >= 1  # the snapshot's state
    assert not window.controller.can_undo
    assert "without its undo history" in window.warnings[0]
    assert (folder / DAMAGED / session.name / journal.name).exists()


def test_an_earlier_versions_autosave_and_a_bad_marker_never_stop_the_start(
    qapp, started, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    (folder / "session-running.json").write_text('{"file": 42}', encoding="utf-8")
    save_document(Document(sample_state()), folder / "autosave.killbox")
    assert mw.launch(qapp, None) == 0
    window = started[0]
    assert "earlier Killbox" in window.warnings[0]
    assert not (folder / "session-running.json").exists()
    kept = next((folder / DAMAGED).iterdir())
    assert sorted(p.name for p in kept.iterdir()) == ["autosave.killbox", "session-running.json"]


def test_a_data_folder_that_cannot_be_written_means_a_warning_and_no_autosave(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    import errno
    import os

    real_mkdir = Path.mkdir

    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        if SESSIONS in self.parts:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", read_only)
    assert mw.launch(qapp, None) == 0
    window = started[0]
    assert not window.autosaver.enabled
    assert "read-only" in window.warnings[0] and "not autosaved" in window.warnings[0]
    window.controller.apply(Command("start_combat"))  # play goes on
    assert window.controller.state.combat.round == 1


def test_a_full_disk_during_play_turns_autosave_off_and_play_goes_on(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    import errno

    import engine.turns.journal as journal_module

    mw.launch(qapp, None)
    window = started[0]

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_module.os, "fsync", full)
    window.controller.apply(Command("start_combat"))
    assert window.controller.state.combat.round == 1
    assert not window.autosaver.enabled and "disk is full" in (window.autosaver.last_error or "")


def test_the_last_fight_reopens_at_start(qapp, started, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "last.killbox"
    save_document(Document(replace(sample_state(), name="Last night's fight")), path)
    QSettings().setValue("recent_files", [str(path)])
    mw.launch(qapp, None)
    assert started[0].controller.path == path
    assert started[0].controller.state.name == "Last night's fight"


def test_the_gm_may_turn_the_reopening_off(qapp, started, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "last.killbox"
    save_document(Document(sample_state()), path)
    QSettings().setValue("recent_files", [str(path)])
    mw.launch(qapp, None)
    started[0].menu_actions["reopen_last"].setChecked(False)
    started[0].close()
    mw.launch(qapp, None)
    assert started[1].controller.path == mw.default_map_path()


def test_a_last_fight_that_is_gone_bad_falls_back_with_a_warning(
    qapp, started, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "last.killbox"
    path.write_bytes(b"not a zip")
    QSettings().setValue("recent_files", [str(path)])
    mw.launch(qapp, None)
    assert started[0].controller.path == mw.default_map_path()
    assert "could not be reopened" in started[0].warnings[0]


def test_launch_with_a_universal_vtt_map_imports_it_under_a_progress_bar(
    qapp, started, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import SHARED

    source = SHARED / "fixtures" / "uvtt" / "dungeondraft-0.3-doors.dd2vtt"
    if not source.is_file():
        pytest.skip(f"the shared Universal VTT fixture is absent ({source})")
    assert mw.launch(qapp, source) == 0
    window = started[0]
    assert window.controller.state.name == "dungeondraft-0.3-doors"
    assert window.controller.state.system == DEFAULT_SYSTEM  # nothing was open: the starting one
    assert window.import_progress.stages[-1] == (100, "Done")
    window.close()


def test_temporary_files_a_killed_save_left_go_at_the_next_start(
    qapp, started, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from engine.files.atomic import TEMP_PREFIX, TEMP_SUFFIX
    from tests.engine.files.test_atomic import _dead_pid

    path = tmp_path / "last.killbox"
    save_document(Document(sample_state()), path)
    left = tmp_path / f"{TEMP_PREFIX}{_dead_pid()}-0badf00d{TEMP_SUFFIX}"
    left.write_bytes(b"half a save")
    QSettings().setValue("recent_files", [str(path)])
    mw.launch(qapp, None)
    assert not left.exists() and path.exists()


def test_a_damaged_file_named_at_launch_is_explained_in_the_window(
    qapp, started, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Opened from a file manager there is no console: the window opens on the default
    encounter and tells the GM what is wrong with the file (here, a damaged picture)."""
    from tests.engine.files.builders import damaged_png_entries, write_archive

    path = write_archive(tmp_path / "damaged.killbox", damaged_png_entries())
    assert mw.launch(qapp, path) == 0
    window = started[0]
    assert window.warnings[0].startswith("The file could not be opened: ")
    assert "images/background.png" in window.warnings[0]
    assert str(path) in window.warnings[0]


def test_a_declined_fight_that_cannot_be_written_keeps_its_session_aside(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    session = _crash_with(folder, "Interrupted fight")
    (folder / "declined").write_text("a file where the folder would go")
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: False)
    mw.launch(qapp, None)
    window = started[0]
    assert not session.exists()
    (kept,) = (folder / DAMAGED).iterdir()
    assert kept.name == session.name and (kept / "snapshot.killbox").exists()
    assert str(kept) in window.statusBar().currentMessage()


def test_only_the_newest_declined_fights_are_kept(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    monkeypatch.setattr("desktop.autosave.KEEP_DECLINED", 2)
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: False)
    for number in range(3):
        _crash_with(folder, f"Fight {number}")
        mw.launch(qapp, None)
        kept = sorted(p.name.split(" (")[0] for p in (folder / "declined").glob("*.killbox"))
        assert kept == [f"Fight {n}" for n in range(max(0, number - 1), number + 1)]
