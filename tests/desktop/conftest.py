"""Desktop test fixtures: a sample encounter, and a check that a picture is not blank."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from engine.encounter import EncounterState
from tests.desktop.sample import sample_state

#: Messages the offscreen platform plugin itself prints when a window with docks is shown;
#: they say the plugin lacks a feature, not that Killbox did something wrong.
OFFSCREEN_NOISE = (
    "This plugin does not support propagateSizeHints",
    "This plugin does not support raise",
)


@pytest.fixture
def state() -> EncounterState:
    return sample_state()


def distinct_colours(image: QImage, step: int = 7) -> int:
    """How many different colours a sparse sample of the picture holds (1 means blank)."""
    seen: set[int] = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen.add(image.pixel(x, y))
    return len(seen)


@pytest.fixture
def window(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    """A shown main window on the sample encounter, with the stub rule system."""
    from PySide6.QtCore import QSettings

    from desktop.documents import Document
    from desktop.main_window import MainWindow
    from tests.desktop.stub_system import StubSystem

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(
        Document(sample_state(), {}, None),
        system=StubSystem(),
        autosave_folder=tmp_path / "autosave",
        settings=settings,
        ask_dice=False,
    )
    win.confirm_discard = lambda: True  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    win.view.resetTransform()
    win.view.centerOn(win.scene.map_rect.center())
    return win


@pytest.fixture(autouse=True)
def _dialog_answers_end_with_their_test():  # type: ignore[no-untyped-def]
    """A test's pending ``answer_next_dialog`` must never answer a later test's dialog."""
    yield
    from tests.desktop.window_helpers import forget_pending_answers  # it imports this module

    forget_pending_answers()
