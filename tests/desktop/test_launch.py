"""Starting the app: the default encounter, and the offer to restore after a crash."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from desktop import main_window as mw
from desktop.autosave import AUTOSAVE_NAME, MARKER_NAME, crashed_session
from desktop.documents import Document, save_document
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.sample import sample_state

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[mw.MainWindow]:
    """Run launch() without entering the event loop; collect the window it opens."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setattr("desktop.autosave.data_folder", lambda: folder)
    windows: list[mw.MainWindow] = []
    original = mw.MainWindow.show

    def show(self: mw.MainWindow) -> None:
        self.confirm_discard = lambda: True  # type: ignore[method-assign]
        windows.append(self)
        original(self)

    monkeypatch.setattr(mw.MainWindow, "show", show)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    return windows


def _crash_with(folder: Path, name: str) -> None:
    """Leave what a crashed run leaves: an autosave and the running-session marker."""
    state = replace(sample_state(), name=name, system="spycraft")
    save_document(Document(state, {}, None), folder / AUTOSAVE_NAME)
    (folder / MARKER_NAME).write_text('{"pid": 1, "file": null}', encoding="utf-8")


def test_launch_opens_the_default_encounter(qapp, started, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert mw.launch(qapp, None) == 0
    window = started[0]
    assert window.controller.path == mw.default_map_path()
    assert window.controller.state.tokens
    window.close()


def test_after_a_crash_the_gm_may_restore_the_fight(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    _crash_with(folder, "Interrupted fight")
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: True)
    mw.launch(qapp, None)
    window = started[0]
    assert window.controller.state.name == "Interrupted fight"
    assert window.controller.dirty  # restored work is not saved to a file yet
    window.close()
    assert crashed_session(folder) is None


def test_declining_the_restore_discards_the_autosave(
    qapp, started, monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "data"
    _crash_with(folder, "Interrupted fight")
    monkeypatch.setattr(mw, "ask_restore", lambda parent, document: False)
    mw.launch(qapp, None)
    window = started[0]
    assert window.controller.state.name != "Interrupted fight"
    assert not (folder / AUTOSAVE_NAME).exists()
    window.close()


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
    assert window.controller.state.system == "spycraft"  # the import defaults
    assert window.import_progress.stages[-1] == (100, "Done")
    window.close()
