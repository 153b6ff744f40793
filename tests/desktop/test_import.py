"""Universal VTT import from the window: options dialog, progress dialog, drop with defaults."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from desktop.dialogs.import_map import ImportOptionsDialog, ImportProgress
from engine.battlemap import PortalKind
from tests.conftest import SHARED
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.window_helpers import answer_next_dialog, drop_file, grab_png

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, "This plugin does not support raise()")

FIXTURE = SHARED / "fixtures" / "uvtt" / "dungeondraft-0.3-doors.dd2vtt"


@pytest.fixture
def fixture_map() -> Path:
    if not FIXTURE.is_file():
        pytest.skip(f"the shared Universal VTT fixture is absent ({FIXTURE})")
    return FIXTURE


def test_file_import_asks_the_options_and_shows_progress(
    qtbot, window, fixture_map: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(fixture_map), ""))
    )
    seen: list = []

    def choose(dialog) -> None:  # type: ignore[no-untyped-def]
        assert isinstance(dialog, ImportOptionsDialog)
        assert dialog.objects_block_sight.isChecked()  # the defaults are shown first
        assert "low cover" in dialog.objects_block_sight.toolTip()
        dialog.objects_block_sight.setChecked(False)
        dialog.open_portals.setCurrentIndex(dialog.open_portals.findData("door"))
        dialog.system.setCurrentIndex(dialog.system.findData("savage-worlds"))
        dialog.accept()

    answer_next_dialog(choose, seen)
    window.import_dialog()
    assert seen, "the options dialog did not open"
    state = window.controller.state
    assert state.system == "savage-worlds"
    cover = state.battlemap.cover
    assert len(cover) == 2 and not any(c.blocks_sight for c in cover)  # the GM said no
    doors = [p for p in state.battlemap.portals if p.kind is PortalKind.DOOR]
    assert len(doors) == 3  # the fixture's three closed doors
    progress = window.import_progress
    assert isinstance(progress, ImportProgress)
    fractions = [value for value, _stage in progress.stages]
    assert fractions[0] == 0 and fractions[-1] == 100 and fractions == sorted(fractions)
    assert len(progress.stages) >= 4  # reading, picture, walls, done at least
    assert not progress.dialog.isVisible()
    grab_png(window, "import-dungeondraft-options")


def test_cancelling_the_options_keeps_the_encounter(
    qtbot, window, fixture_map, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(fixture_map), ""))
    )
    before = window.controller.state
    answer_next_dialog(lambda dialog: dialog.reject())
    window.import_dialog()
    assert window.controller.state is before


def test_dropping_a_map_imports_it_with_the_defaults(qtbot, window, fixture_map) -> None:  # type: ignore[no-untyped-def]
    open_system = window.controller.state.system
    drop_file(window, fixture_map)
    state = window.controller.state
    assert state.system == open_system  # a map names no rule system: the one open is kept
    cover = state.battlemap.cover
    assert len(cover) == 2 and all(c.blocks_sight for c in cover)  # low cover, sight blocked
    assert window.import_progress.stages[-1] == (100, "Done")
    grab_png(window, "import-dungeondraft-dropped")


def test_cancel_on_the_progress_dialog_stops_the_import(
    qtbot, window, fixture_map, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    before = window.controller.state
    monkeypatch.setattr(ImportProgress, "__init__", _cancelled_progress)
    assert not window.open_path(fixture_map)
    assert window.controller.state is before
    assert "cancelled" in window.statusBar().currentMessage()


def _cancelled_progress(self, parent, path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QProgressDialog

    self.dialog = QProgressDialog("Importing", "Cancel", 0, 100, parent)
    self.stages = []
    self.dialog.cancel()  # as if the GM pressed Cancel at once


@pytest.mark.parametrize("system", ["savage-worlds", "cities-without-number"])
def test_an_imported_map_is_for_the_rule_system_open_unless_the_gm_picks_another(
    qtbot, tmp_path, fixture_map, monkeypatch, system: str
) -> None:  # type: ignore[no-untyped-def]
    """The options dialog offers the open encounter's system first, and a dropped map takes
    it (with its grid scale): a GM running one game imports its maps for that game."""
    import engine
    from engine.rules import get_system
    from tests.desktop.tools.conftest import make_window

    win = make_window(qtbot, tmp_path, engine.new_encounter(system, "Open", size=(8, 6)).state)
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(fixture_map), ""))
    )
    offered: list[str] = []
    answer_next_dialog(lambda dialog: (offered.append(dialog.system.currentData()),
                                       dialog.reject()))
    win.import_dialog()
    assert offered == [system]
    drop_file(win, fixture_map)
    state = win.controller.state
    assert state.name == fixture_map.stem
    assert state.system == system and state.scale == get_system(system).scale
