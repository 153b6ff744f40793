"""The roster dock: the GM's library kept between encounters, onto the map, in and out as files.

The files and their checks are the engine's (tests/engine/files/test_roster.py); these tests
are about the dock showing them and putting characters on the map.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent

from desktop.docks.roster import ROSTER_MIME
from engine.files.character_file import read_character
from engine.files.roster import Roster
from engine.grid import Square
from tests.desktop.editing.conftest import NOISE, blank_state
from tests.desktop.tools.conftest import click_at, make_window, view_point

pytestmark = pytest.mark.qt_log_ignore(*NOISE)

def key_of(dock, name: str) -> str:  # type: ignore[no-untyped-def]
    return next(e.key for e in dock.entries() if e.token.name == name)


def test_drag_from_the_roster_onto_a_square(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    dock = win.roster
    mime = QMimeData()
    mime.setData(ROSTER_MIME, key_of(dock, "Kestrel").encode())
    where = QPointF(view_point(win.view, (5.5, 3.5)))
    event = QDropEvent(
        where,
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    win.view.dropEvent(event)
    (token,) = win.controller.state.tokens
    assert (token.name, token.square) == ("Kestrel", Square(5, 3))
    assert token.weapons and token.stats  # the character comes with its stats and weapons


def test_add_to_map_then_click_a_square_and_names_stay_unique(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    dock = win.roster
    for square in ((1.5, 1.5), (2.5, 1.5)):
        dock.list.setCurrentRow(
            [
                dock.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dock.list.count())
            ].index(key_of(dock, "Rifleman"))
        )
        dock.start_placing()
        click_at(qtbot, win.view, square)
    names = sorted(t.name for t in win.controller.state.tokens)
    assert names == ["Rifleman", "Rifleman 2"]


def test_a_character_off_the_map_is_refused_with_the_reason(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    assert not win.roster.place(key_of(win.roster, "Kestrel"), Square(40, 3))
    assert win.controller.state.tokens == ()
    assert "off the map" in win.statusBar().currentMessage() or "outside" in (
        win.statusBar().currentMessage()
    )


def test_a_token_saved_to_the_roster_is_there_in_the_next_encounter(
    qtbot, blank_window, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    win.roster.place(key_of(win.roster, "Okafor"), Square(2, 2))
    token = win.controller.state.tokens[0]
    from dataclasses import replace

    from desktop.editing import commands

    win.controller.apply(commands.edit_token(token, replace(token, name="Okafor (veteran)")))
    win.controller.select(token.id)
    assert win.roster.save_selected()
    other = make_window(qtbot, tmp_path / "second", blank_state("spycraft"))
    other.roster.data_folder = win.roster.data_folder  # the same data folder
    other.roster.refresh()
    assert "Okafor (veteran)" in [e.token.name for e in other.roster.entries()]
    savage = Roster(win.roster.data_folder, "savage-worlds").load().characters
    assert "Okafor (veteran)" not in [e.token.name for e in savage]


def test_export_and_import_a_character_file(qtbot, blank_window, tmp_path) -> None:  # type: ignore[no-untyped-def]
    dock = blank_window.roster
    path = tmp_path / "kestrel.killbox-character"
    choose(dock, "Kestrel")
    assert dock.export_to(key_of(dock, "Kestrel"), path)
    assert read_character(path, "spycraft").token.name == "Kestrel"
    dock.remove_current()
    assert "Kestrel" not in [dock.list.item(i).text() for i in range(dock.list.count())]
    assert dock.import_from(path)
    assert blank_window.statusBar().currentMessage() == "Kestrel imported"
    assert "Kestrel · party" in [dock.list.item(i).text() for i in range(dock.list.count())]


def test_a_bad_character_file_is_refused_naming_the_file_place_and_problem(
    qtbot, blank_window, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    dock = blank_window.roster
    path = tmp_path / "bad.killbox-character"
    dock.export_to(key_of(dock, "Kestrel"), path)
    path.write_text(path.read_text().replace('"defense": ', '"defence": '))
    count = dock.list.count()
    assert not dock.import_from(path)
    said = blank_window.statusBar().currentMessage()
    assert said.startswith(f"{path}: token.stats: ") and "defence" in said
    assert dock.list.count() == count


def test_a_damaged_character_file_is_named_and_the_others_listed(
    qtbot, blank_window
) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    dock = win.roster
    count = dock.list.count()
    choose(dock, "Kestrel")
    damaged = dock.roster.path_of(key_of(dock, "Kestrel"))
    damaged.write_text("{")  # listed, then damaged: Add to map says why instead of placing
    dock.start_placing()
    assert win.view.tool is win.default_tool
    assert win.statusBar().currentMessage().startswith(f"{damaged}: file: not valid JSON")
    assert dock.list.count() == count - 1  # and the list is read again
    assert f"Not read: {damaged.name}: file: not valid JSON" in dock.caption.text()
    assert str(damaged) in dock.caption.toolTip()


def test_the_roster_is_listed_after_the_first_frame_not_before(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QSettings

    from desktop.documents import Document
    from desktop.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(
        Document(blank_state(), {}, None),
        autosave_folder=tmp_path / "autosave",
        settings=settings,
        defer_tools=True,  # as the killbox command opens it
    )
    qtbot.addWidget(win)
    win.confirm_discard = lambda: True  # type: ignore[method-assign]
    # Building the window read no roster (a first start would make it from the maps).
    assert win.roster.listed_system is None
    assert not (tmp_path / "autosave" / "roster").exists()
    win.show()
    win.docks["Roster"].raise_()
    qtbot.waitUntil(lambda: win.roster.listed_system == win.controller.state.system)
    assert win.roster.list.count() >= 4


def test_a_roster_that_cannot_be_made_says_so_and_the_window_goes_on(
    qtbot, blank_window, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    import errno

    import engine.files.character_file as store

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "atomic_write_bytes", full)
    dock = blank_window.roster
    dock.data_folder = dock.data_folder / "fresh"  # nothing made yet
    dock.refresh()
    assert dock.list.count() == 0
    assert "could not be read or made" in dock.caption.text()


def choose(dock, name: str) -> None:  # type: ignore[no-untyped-def]
    keys = [dock.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dock.list.count())]
    dock.list.setCurrentRow(keys.index(key_of(dock, name)))


def test_add_to_map_places_once_then_clicks_select_again(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    """After a character is placed, the next click on a token selects it: placing stayed on
    and tried to put a second copy on the token the GM clicked."""
    win = blank_window
    choose(win.roster, "Rifleman")
    win.roster.start_placing()
    click_at(qtbot, win.view, (1.5, 1.5))
    assert win.view.tool is win.default_tool
    assert "Rifleman joins the encounter" in win.statusBar().currentMessage()
    click_at(qtbot, win.view, (1.5, 1.5))
    (token,) = win.controller.state.tokens
    assert win.controller.selected == token.id


def test_a_character_placed_on_a_token_is_refused_naming_who_stands_there(
    qtbot, blank_window
) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    assert win.roster.place(key_of(win.roster, "Kestrel"), Square(2, 2))
    choose(win.roster, "Rifleman")
    win.roster.start_placing()
    click_at(qtbot, win.view, (2.5, 2.5))
    said = win.statusBar().currentMessage()
    assert said == "Rifleman not placed: Kestrel already stands on (2,2)"
    assert win.view.tool is not win.default_tool  # still placing: the GM clicks elsewhere
    click_at(qtbot, win.view, (3.5, 2.5))
    assert sorted(t.name for t in win.controller.state.tokens) == ["Kestrel", "Rifleman"]


def test_add_four_copies_numbered_near_the_click_in_one_undo_step(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    """A GM adding a squad: × 4, Add 4 to map, one click: Rifleman 1..4 on the free squares
    nearest the click; one undo takes all four away."""
    win = blank_window
    dock = win.roster
    keys = [dock.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(dock.list.count())]
    dock.list.setCurrentRow(keys.index(key_of(dock, "Rifleman")))
    dock.copies.setFocus()
    dock.copies.selectAll()  # the 1, not the "× " before it
    qtbot.keyClicks(dock.copies, "4")
    assert dock.copies.value() == 4
    assert dock.buttons["place"].text() == "Add 4 to map"
    qtbot.mouseClick(dock.buttons["place"], Qt.MouseButton.LeftButton)
    click_at(qtbot, win.view, (5.5, 3.5))
    tokens = win.controller.state.tokens
    assert sorted(t.name for t in tokens) == [f"Rifleman {n}" for n in range(1, 5)]
    squares = {t.square for t in tokens}
    assert Square(5, 3) in squares and len(squares) == 4
    assert all(max(abs(s.x - 5), abs(s.y - 3)) <= 1 for s in squares)
    assert "Rifleman 1, Rifleman 2, Rifleman 3, Rifleman 4 join" in (
        win.statusBar().currentMessage())
    win.undo()
    assert win.controller.state.tokens == ()
