"""The initiative tracker: what each combatant has left, read whole in a laptop-sized dock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop.main_window import default_size
from engine.rules.base import Command
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.test_fight import open_map
from tests.desktop.test_main_window_size import LAPTOP

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)]


def test_what_is_left_is_read_whole_in_a_laptop_sized_dock(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Cities Without Number's "1 main, 1 move" elided to "1 mai..." in every row: the
    column shared the width equally with the name and the bars, and the GM could not see
    whether a Move was left."""
    win = open_map(qtbot, tmp_path, "office_floor")
    win.resize(default_size(LAPTOP))
    win.controller.apply(Command("start_combat"))
    QApplication.processEvents()
    table = win.initiative.table
    column = win.initiative.COLUMNS.index("Left")
    texts = [table.item(row, column).text() for row in range(table.rowCount())]
    assert "1 main, 1 move" in texts
    widest = max(table.fontMetrics().horizontalAdvance(text) for text in texts)
    assert table.columnWidth(column) > widest
    header = table.horizontalHeader()
    widths = sum(header.sectionSize(c) for c in range(table.columnCount()))
    assert widths <= table.viewport().width()  # still no sideways scroll
    assert table.columnWidth(win.initiative.COLUMNS.index("Health")) > 40  # bars keep room



def test_a_token_on_hold_reads_on_hold_with_its_card_not_done(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A Savage Worlds holder showed ✓ (as if its turn were spent) and the card "—"."""
    win = open_map(qtbot, tmp_path, "night_street")
    win.controller.apply(Command("start_combat"))
    holder = win.controller.state.combat.active
    assert holder is not None
    card = win.controller.state.combat.combatant(holder).get("card")
    win.controller.apply(Command("hold", holder))
    table = win.initiative.table
    row = next(r for r in range(table.rowCount())
               if table.item(r, 0).data(Qt.ItemDataRole.UserRole) == holder)
    name = win.controller.state.token(holder).name
    columns = win.initiative.COLUMNS
    assert table.item(row, columns.index("Token")).text() == f"‖ {name}"
    assert table.item(row, columns.index("Left")).text() == "On Hold"
    assert table.item(row, columns.index("Init")).text() == card != ""
    win.controller.apply(Command("act_from_hold", holder))
    assert table.item(row, columns.index("Token")).text().startswith("▶ ")
