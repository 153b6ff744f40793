"""The default window fits a 1366x768 laptop: its size and the smallest its docks allow."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from desktop.main_window import PREFERRED_SIZE, default_size
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]

LAPTOP = QSize(1366, 768)


def test_default_size_fits_the_laptop_and_keeps_the_preferred_size_on_a_big_screen() -> None:
    fitted = default_size(LAPTOP)
    assert fitted.width() <= LAPTOP.width() and fitted.height() <= LAPTOP.height() - 30
    assert default_size(QSize(2560, 1440)) == PREFERRED_SIZE


def test_the_main_window_can_shrink_to_the_laptop_with_every_dock(window) -> None:  # type: ignore[no-untyped-def]
    smallest = window.minimumSizeHint()
    fitted = default_size(LAPTOP)
    assert smallest.width() <= fitted.width() and smallest.height() <= fitted.height(), smallest
    window.resize(fitted)
    window.show()
    assert window.height() <= LAPTOP.height() and window.width() <= LAPTOP.width()
    assert all(dock.isVisible() for dock in window.docks.values() if not dock.isFloating())


def test_a_new_window_opens_inside_its_screen(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    from desktop.documents import Document
    from desktop.main_window import MainWindow
    from tests.desktop.sample import sample_state

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(
        Document(sample_state(), {}, None), autosave_folder=tmp_path / "autosave",
        settings=settings, ask_dice=False,
    )
    qtbot.addWidget(win)
    available = win.screen().availableGeometry().size()
    assert win.width() <= available.width() and win.height() <= available.height()
    assert win.size() == default_size(available)


def test_the_map_keeps_its_size_while_the_gm_selects_and_fights(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication

    from desktop.fight import start_combat

    window.resize(default_size(LAPTOP))
    QApplication.processEvents()
    size = window.view.size()
    for token in window.controller.state.tokens:  # the inspector fills with each one's stats
        window.controller.select(token.id)
        QApplication.processEvents()
        assert window.view.size() == size, token.name
    window.statusBar().showMessage("The first message")  # no bar appears and takes room
    QApplication.processEvents()
    assert window.view.size() == size
    start_combat(window, window.controller)  # the tracker and the log fill
    window.controller.apply(Command("end_turn"))
    QApplication.processEvents()
    assert window.view.size() == size


def test_the_tracker_fits_its_dock_without_a_sideways_scroll(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QApplication

    from tests.desktop.test_fight import open_map, roll
    from tests.desktop.window_helpers import answer_next_dialog

    win = open_map(qtbot, tmp_path, "night_street")  # long names, Savage Worlds health
    win.resize(default_size(LAPTOP))
    answer_next_dialog(roll)
    from desktop.fight import start_combat

    start_combat(win, win.controller)
    QApplication.processEvents()
    table = win.initiative.table
    header = table.horizontalHeader()
    widths = sum(header.sectionSize(c) for c in range(table.columnCount()))
    assert widths <= table.viewport().width(), (widths, table.viewport().width())
    assert header.sectionSize(2) > 40  # the Health column is there, not squeezed out
    for row in range(table.rowCount()):
        for column in range(table.columnCount()):
            item = table.item(row, column)
            # An elided cell still says it all (an empty Left cell, a whole turn, too).
            assert item.toolTip().startswith(item.text())
    # One line a combatant but the acting one (its pools a line each), before and after
    # the first command: a dozen rows stay in view.
    win.controller.apply(Command("end_turn"))
    QApplication.processEvents()
    line = table.verticalHeader().defaultSectionSize()
    acting = win.initiative.acting_row
    assert {table.rowHeight(row) for row in range(table.rowCount()) if row != acting} == {line}
    assert acting is None or table.rowHeight(acting) <= line + 2 * table.fontMetrics().lineSpacing()
