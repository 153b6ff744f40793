"""File > New: the rule system from the registry, the name, a size in squares or a picture."""

from __future__ import annotations

import pytest

from desktop.dialogs.new_encounter import NewEncounterDialog
from engine.rules import get_system, system_names
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import make_window
from tests.desktop.window_helpers import answer_next_dialog

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


def test_a_name_is_needed(qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = NewEncounterDialog()
    qtbot.addWidget(dialog)
    dialog.name_edit.setText("  ")
    dialog.buttons.accepted.emit()
    assert "needs a name" in dialog.problem.text()
    assert dialog.result() != NewEncounterDialog.DialogCode.Accepted
