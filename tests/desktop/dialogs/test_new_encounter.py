"""File > New: the rule system from the registry, the name, a size in squares or a picture."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from desktop.dialogs.grid_fit import GridFitDialog
from desktop.dialogs.new_encounter import NewEncounterDialog
from engine.rules import get_system, system_names
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.dialogs.test_grid_fit import gridded_picture
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import make_window
from tests.desktop.window_helpers import answer_next_dialog, drop_file, grab_png

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)


def test_every_registered_system_is_offered(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = NewEncounterDialog()
    qtbot.addWidget(dialog)
    offered = [dialog.system_box.itemData(i) for i in range(dialog.system_box.count())]
    assert offered == list(system_names())


SYSTEMS = ["spycraft", "savage-worlds", "cities-without-number", "d20-firearms"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_blank_map_of_the_chosen_size_system_and_scale(  # type: ignore[no-untyped-def]
    qtbot, tmp_path, system: str
) -> None:
    win = make_window(qtbot, tmp_path, sample_state())

    def fill(dialog: NewEncounterDialog) -> None:
        dialog.system_box.setCurrentIndex(dialog.system_box.findData(system))
        dialog.name_edit.setText("Rooftop")
        dialog.width_box.setValue(24)
        dialog.height_box.setValue(14)
        dialog.buttons.accepted.emit()

    answer_next_dialog(fill)
    assert win.new_encounter()
    state = win.controller.state
    assert (state.name, state.system, state.scale) == ("Rooftop", system, get_system(system).scale)
    assert (state.battlemap.width, state.battlemap.height, state.tokens) == (24, 14, ())
    assert win.controller.system.name == system


def test_cancel_keeps_the_encounter(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, sample_state())
    before = win.controller.state
    answer_next_dialog(lambda dialog: dialog.reject())
    assert not win.new_encounter()
    assert win.controller.state is before


@pytest.mark.parametrize(
    ("name", "picture", "problem"),
    [
        ("", None, "needs a name"),
        ("Dock", "", "Choose a picture"),
        ("Dock", "missing.png", "no such file"),
        ("Dock", "notes.txt", "not a PNG, JPEG or WebP"),
    ],
)
def test_what_is_missing_is_said(qtbot, tmp_path, name, picture, problem) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "notes.txt").write_text("hello")
    dialog = NewEncounterDialog()
    qtbot.addWidget(dialog)
    dialog.name_edit.setText(name)
    if picture is not None:
        dialog.picture_button.setChecked(True)
        dialog.picture_edit.setText(str(tmp_path / picture) if picture else "")
        dialog.picture_button.setChecked(True)
    dialog.buttons.accepted.emit()
    assert problem in dialog.problem.text()
    assert dialog.result() != NewEncounterDialog.DialogCode.Accepted
    assert Path(tmp_path).exists()


def picture_file(tmp_path: Path, image: QImage, name: str = "dock.png") -> Path:
    path = tmp_path / name
    assert image.save(str(path))
    return path


def test_a_map_from_a_picture_with_the_detected_grid(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, sample_state())
    path = picture_file(tmp_path, gridded_picture(47.5, (13, 21)))
    seen: list[object] = []

    def new(dialog: NewEncounterDialog) -> None:
        dialog.name_edit.setText("Dock")
        dialog.picture_edit.setText(str(path))
        answer_next_dialog(accept_grid, seen)
        dialog.buttons.accepted.emit()

    def accept_grid(dialog: GridFitDialog) -> None:
        grab_png(dialog, "new-from-picture-grid")
        dialog.buttons.accepted.emit()

    answer_next_dialog(new)
    assert win.new_encounter()
    (grid,) = seen
    assert isinstance(grid, GridFitDialog) and grid.found
    assert grid.fit().pixels_per_square == pytest.approx(47.5, abs=0.3)
    background = win.controller.state.battlemap.background
    assert background is not None and background.image in win.controller.images
    assert background.pixels_per_square == pytest.approx(47.5, abs=0.3)
    assert (win.controller.state.battlemap.width, win.controller.state.battlemap.height) == (18, 12)


def test_no_grid_found_asks_and_the_drawn_square_is_used(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from desktop.dialogs.grid_fit import GridFit

    plain = QImage(600, 400, QImage.Format.Format_RGB32)
    plain.fill(QColor("#556b2f"))
    win = make_window(qtbot, tmp_path, sample_state())
    path = picture_file(tmp_path, plain, "field.png")
    seen: list[object] = []

    def draw_square(dialog: GridFitDialog) -> None:
        assert "No grid found" in dialog.verdict.text()
        dialog.set_fit(GridFit(50, 0, 0))
        dialog.buttons.accepted.emit()

    def new(dialog: NewEncounterDialog) -> None:
        dialog.name_edit.setText("Field")
        dialog.picture_edit.setText(str(path))
        answer_next_dialog(draw_square, seen)
        dialog.buttons.accepted.emit()

    answer_next_dialog(new)
    assert win.new_encounter()
    assert seen and (
        win.controller.state.battlemap.width,
        win.controller.state.battlemap.height,
    ) == (12, 8)


def test_dropping_a_picture_on_the_window_starts_the_same_flow(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, sample_state())
    path = picture_file(tmp_path, gridded_picture(47.5, (13, 21)))
    seen: list[object] = []

    def new(dialog: NewEncounterDialog) -> None:
        assert dialog.picture_button.isChecked()
        assert dialog.picture_edit.text() == str(path)
        answer_next_dialog(lambda grid: grid.buttons.accepted.emit(), seen)
        dialog.buttons.accepted.emit()

    answer_next_dialog(new)
    drop_file(win, path)
    assert seen and win.controller.state.battlemap.background is not None
