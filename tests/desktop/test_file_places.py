"""Where the file dialogs open and what Save as proposes: beside the fight's file, else
beside the last fight, else Documents; never the folder Killbox was started from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from desktop.file_places import start_folder, suggested_file
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import make_window

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]


def asked(monkeypatch, kind: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The folder or file each file dialog of ``kind`` was opened on (the GM cancels)."""
    seen: list[str] = []

    def dialog(_parent, _title, where, _filter):  # type: ignore[no-untyped-def]
        seen.append(where)
        return "", ""

    monkeypatch.setattr(QFileDialog, kind, staticmethod(dialog))
    return seen


def test_save_as_proposes_the_fights_name_and_open_starts_beside_its_file(
    qtbot, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, replace(sample_state(), name="Night alley: part 2"))
    saves, opens = asked(monkeypatch, "getSaveFileName"), asked(monkeypatch, "getOpenFileName")
    win.save_as_dialog()
    first = Path(saves[-1])
    assert first.name == "Night alley part 2.killbox"
    assert first.parent == start_folder(None, []) != Path.cwd()
    fights = tmp_path / "fights"
    fights.mkdir()
    assert win.save_to(fights / "alley.killbox")
    win.save_as_dialog()
    win.export_dialog()
    win.open_dialog()
    assert saves[-2:] == [str(fights / "alley.killbox"), str(fights / "alley.png")]
    assert opens == [str(fights)]


def test_a_new_fight_opens_its_dialogs_beside_the_last_fight(
    qtbot, tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    fights = tmp_path / "fights"
    fights.mkdir()
    win = make_window(qtbot, tmp_path, sample_state())
    win.settings.setValue("recent_files", [str(fights / "last.killbox")])
    saves = asked(monkeypatch, "getSaveFileName")
    win.save_as_dialog()
    assert Path(saves[0]) == suggested_file(fights, sample_state().name, ".killbox")
