"""The initiative tracker: what each combatant has left, read whole in a laptop-sized dock."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetricsF
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
    whether a Move was left. The acting token's is read whole in the heading; the bars keep
    their room and nothing scrolls sideways."""
    win = open_map(qtbot, tmp_path, "office_floor")
    win.resize(default_size(LAPTOP))
    win.controller.apply(Command("start_combat"))
    QApplication.processEvents()
    panel = win.initiative
    table = panel.table
    assert "1 main, 1 move left" in panel.heading.text()
    heading = panel.heading
    assert heading.fontMetrics().boundingRect(
        heading.contentsRect(), Qt.TextFlag.TextWordWrap, heading.text()).width() <= heading.width()
    header = table.horizontalHeader()
    widths = sum(header.sectionSize(c) for c in range(table.columnCount()))
    assert widths <= table.viewport().width()  # still no sideways scroll
    assert table.columnWidth(panel.COLUMNS.index("Health")) > 40  # bars keep room


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


def test_names_keep_their_room_and_the_acting_budget_is_read_whole_above(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Savage Worlds' "3 actions, 6 pace" in every row cut "Razor crew gunman" to "Razor c...":
    a waiting token's whole turn says nothing new, so its cell is empty (the tooltip keeps
    it), names keep NAME_LETTERS letters, and the heading says what the acting token has
    left whole."""
    from desktop.docks.initiative import NAME_LETTERS

    win = open_map(qtbot, tmp_path, "night_street")
    win.resize(default_size(LAPTOP))
    win.controller.apply(Command("start_combat"))
    QApplication.processEvents()
    panel = win.initiative
    table, columns = panel.table, panel.COLUMNS
    state = win.controller.state
    active = state.combat.active
    assert active is not None
    pools = state.combat.combatant(active).budget
    budget = ", ".join(f"{n} {pool}" for pool, n in pools.items() if n)
    assert f"{state.token(active).name}: {budget} left" in panel.heading.text()
    left = columns.index("Left")
    for row in range(table.rowCount()):
        item = table.item(row, left)
        acting = item.data(Qt.ItemDataRole.UserRole) == active
        lines = budget.replace(", ", "\n")  # the acting row: a line a pool, read whole
        assert (item.text() == lines) if acting else (item.text() == "")
        assert item.toolTip().replace("\n", ", ").startswith(budget)
    name_room = table.fontMetrics().averageCharWidth() * NAME_LETTERS
    assert table.columnWidth(columns.index("Token")) >= name_room
    header = table.horizontalHeader()
    widths = sum(header.sectionSize(c) for c in range(table.columnCount()))
    assert widths <= table.viewport().width()
    assert panel.width() <= win.width() // 3  # the heading's words never widen the dock


def test_the_acting_row_is_read_whole_at_1366_by_768(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Savage Worlds' acting row read "▶ Razor crew loo..." and "3 actio..." in bold: its
    name wraps onto a second line, what it has left takes a line a pool, and the row grows
    to hold them while the others stay one line."""
    win = open_map(qtbot, tmp_path, "night_street")
    win.resize(default_size(QSize(1366, 768)))
    win.controller.apply(Command("start_combat"))
    QApplication.processEvents()
    panel = win.initiative
    table, columns = panel.table, panel.COLUMNS
    state = win.controller.state
    long_name = next(t for t in state.tokens if len(t.name) >= len("Razor crew lookout"))
    while win.controller.state.combat.active != long_name.id:  # its turn comes round
        win.controller.apply(Command("end_turn"))
    QApplication.processEvents()
    row = next(r for r in range(table.rowCount())
               if table.item(r, 0).data(Qt.ItemDataRole.UserRole) == long_name.id)
    name, left = table.item(row, columns.index("Token")), table.item(row, columns.index("Left"))
    metrics = QFontMetricsF(name.font())
    for item, column in ((name, "Token"), (left, "Left")):
        width = table.columnWidth(columns.index(column))
        for line in item.text().split("\n"):
            assert metrics.horizontalAdvance(line) <= width - 6, (column, line, width)
    assert " ".join(name.text().replace("▶ ", "").split()) == long_name.name
    lines = max(name.text().count("\n"), left.text().count("\n")) + 1
    assert table.rowHeight(row) >= lines * table.fontMetrics().lineSpacing()
    others = {table.rowHeight(r) for r in range(table.rowCount()) if r != row}
    assert others == {table.verticalHeader().defaultSectionSize()}


def test_a_dead_token_reads_defeated_dimmed_and_marked(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A dead token showed as any other, ✓ and its name in its side's colour: it is
    marked ☠, dimmed, and its Left cell says why it is out."""
    from desktop.docks.initiative import OUT_COLOUR, OUT_MARK

    win = open_map(qtbot, tmp_path, "warehouse")
    win.controller.apply(Command("start_combat"))
    state = win.controller.state
    dead = next(c.token_id for c in state.combat.order if c.token_id != state.combat.active)
    win.controller.apply(Command.build("gm_condition", targets=[dead], condition="dead"))
    table, columns = win.initiative.table, win.initiative.COLUMNS
    row = next(r for r in range(table.rowCount())
               if table.item(r, 0).data(Qt.ItemDataRole.UserRole) == dead)
    name = win.controller.state.token(dead).name
    assert table.item(row, columns.index("Token")).text() == f"{OUT_MARK}{name}"
    assert table.item(row, columns.index("Left")).text() == "dead"
    assert table.item(row, columns.index("Token")).foreground().color() == OUT_COLOUR
    living = next(r for r in range(table.rowCount()) if r != row)
    assert table.item(living, columns.index("Token")).foreground().color() != OUT_COLOUR


def test_the_bars_leave_the_acting_row_its_left_words(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Two Mortally Wounded guards' wide flags in the Health column squeezed the acting
    row's "1 main" / "1 move" to "1 m..."."""
    win = open_map(qtbot, tmp_path, "office_floor")
    win.resize(default_size(QSize(1366, 768)))
    win.controller.apply(Command("start_combat"))
    state = win.controller.state
    others = [c.token_id for c in state.combat.order if c.token_id != state.combat.active]
    for token_id in others[:2]:
        win.controller.apply(Command.build("gm_damage", targets=[token_id], amount=99))
    QApplication.processEvents()
    panel = win.initiative
    table = panel.table
    left = table.item(panel.acting_row, panel.COLUMNS.index("Left"))
    metrics = QFontMetricsF(left.font())
    width = table.columnWidth(panel.COLUMNS.index("Left"))
    assert all(metrics.horizontalAdvance(line) <= width - 6 for line in left.text().split("\n"))


def test_the_tracker_menu_takes_a_dead_token_out_or_revives_it(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A defeated token stayed in the order for good: its row's menu takes it out (it
    stays on the map) or brings it back into the fight; the acting token cannot leave."""
    win = open_map(qtbot, tmp_path, "night_street")
    controller = win.controller
    controller.apply(Command("start_combat"))
    state = controller.state
    waiting = [c.token_id for c in state.combat.order if c.token_id != state.combat.active]
    down, other = waiting[:2]
    controller.apply(Command.build("gm_knock_out", targets=[down]))
    panel = win.initiative

    def entry(token_id: str, starts: str):  # type: ignore[no-untyped-def]
        return next(a for a in panel.row_menu(token_id).actions() if a.text().startswith(starts))

    acting = entry(str(state.combat.active), "Take ")
    assert not acting.isEnabled()
    entry(down, "Revive").trigger()
    assert not controller.system.down_mark(controller.state.token(down))
    controller.apply(Command.build("gm_knock_out", targets=[down]))
    entry(down, "Take ").trigger()
    assert not controller.state.combat.has(down)
    assert any(t.id == down for t in controller.state.tokens)  # still on the map
    assert panel.table.rowCount() == len(state.combat.order) - 1
    assert controller.state.combat.has(other)
