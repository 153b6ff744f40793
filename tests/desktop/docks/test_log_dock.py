"""The combat log dock lists the newest lines, however long the log grows."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.controller import EncounterController
from desktop.docks.log import SHOWN_LINES, CombatLog
from desktop.documents import Document
from engine.turns.combat import LogEntry
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.sample import sample_state

pytestmark = pytest.mark.gui


def _lines(count: int, start: int = 0) -> tuple[LogEntry, ...]:
    return tuple(LogEntry(1, "note", f"line {i}") for i in range(start, start + count))


def test_a_long_log_shows_its_newest_lines_and_keeps_to_them_as_it_grows(qapp) -> None:  # type: ignore[no-untyped-def]
    state = sample_state()
    long = replace(state, combat=replace(state.combat, log=_lines(SHOWN_LINES + 10)))
    dock = CombatLog(EncounterController(Document(long, {}, None)))
    shown = dock.list
    assert shown.count() == SHOWN_LINES
    assert shown.item(0).text() == "R1 line 10"
    assert shown.item(SHOWN_LINES - 1).text() == f"R1 line {SHOWN_LINES + 9}"
    grown = replace(long, combat=replace(long.combat, log=long.combat.log + _lines(3, 10**6)))
    dock.refresh(grown)
    assert shown.count() == SHOWN_LINES
    assert shown.item(0).text() == "R1 line 13"
    assert shown.item(SHOWN_LINES - 1).text() == f"R1 line {10**6 + 2}"
    dock.refresh(state)  # undone to a short log: only its lines
    assert shown.count() == len(state.combat.log)


@pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)
def test_the_log_opens_at_its_newest_line_after_growing_while_hidden(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A log closed (or behind the GM notes tab) while the fight went on came back at an
    old line, and the GM scrolled down to find what had just happened."""
    state = sample_state()
    dock = CombatLog(EncounterController(Document(state, {}, None)))
    qtbot.addWidget(dock)
    dock.resize(300, 200)
    dock.show()
    qtbot.waitExposed(dock)
    dock.hide()
    words = " and the dice say what happened next" * 4  # wrapped over several lines
    long = tuple(replace(entry, text=entry.text + words) for entry in _lines(300))
    dock.refresh(replace(state, combat=replace(state.combat, log=long)))
    dock.show()
    bar = dock.list.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    qtbot.wait(50)
    assert bar.value() == bar.maximum()
    last = dock.list.item(dock.list.count() - 1)
    assert dock.list.viewport().rect().intersects(dock.list.visualItemRect(last))
