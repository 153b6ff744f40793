"""A GM builds a whole fight through the UI, saves it, reopens it and plays a round.

File > New from a PNG battle map (the detected grid accepted), walls and a door, terrain,
four party characters dragged from the roster, six enemies made in the token editor, save;
then the file is opened again and a full round is played. The main steps go to PNG.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent

from desktop.docks.roster import ROSTER_MIME
from engine.battlemap import PortalKind, TerrainKind
from engine.grid import Square
from engine.tokens import Side, Weapon
from tests.desktop.dialogs.test_grid_fit import gridded_picture
from tests.desktop.editing.conftest import NOISE, double_click_at, drag
from tests.desktop.editing.test_token_editor import fill_and_ok
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import click_at, make_window, render_png, view_point
from tests.desktop.window_helpers import answer_next_dialog, grab_png

pytestmark = pytest.mark.qt_log_ignore(*NOISE)

PARTY = ("Kestrel", "Ibarra", "Okafor", "Reyes")
ENEMIES = ((10.5, 1.5), (11.5, 1.5), (12.5, 2.5), (13.5, 5.5), (12.5, 6.5), (14.5, 7.5))


def drop_character(win, name: str, square: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    key = next(e.key for e in win.roster.entries() if e.token.name == name)
    mime = QMimeData()
    mime.setData(ROSTER_MIME, key.encode())
    event = QDropEvent(
        QPointF(view_point(win.view, square)),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    win.view.dropEvent(event)


def test_build_save_reopen_and_play_a_round(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = make_window(qtbot, tmp_path, sample_state())

    picture = tmp_path / "dockside.png"
    assert gridded_picture(47.5, (13, 21)).save(str(picture))

    def new(dialog) -> None:  # type: ignore[no-untyped-def]
        dialog.system_box.setCurrentIndex(dialog.system_box.findData("spycraft"))
        dialog.name_edit.setText("Dockside ambush")
        dialog.picture_edit.setText(str(picture))
        answer_next_dialog(accept_grid)
        dialog.buttons.accepted.emit()

    def accept_grid(dialog) -> None:  # type: ignore[no-untyped-def]
        assert dialog.found
        dialog.buttons.accepted.emit()

    answer_next_dialog(new)
    assert win.new_encounter()
    win.view.fit_map()
    assert win.controller.state.battlemap.background is not None
    assert (win.controller.state.battlemap.width, win.controller.state.battlemap.height) == (18, 12)
    assert win.controller.state.tokens == ()

    # A warehouse wall with a door in it, and a stack of rubble.
    win.menu_actions["map_walls"].trigger()
    for corner in ((8, 0), (8, 4)):
        click_at(qtbot, win.view, corner)
    double_click_at(qtbot, win.view, (8, 10))
    win.menu_actions["map_portals"].trigger()
    drag(qtbot, win.view, (8, 5), (8, 6))
    win.menu_actions["map_terrain"].trigger()
    drag(qtbot, win.view, (4.5, 4.5), (5.5, 5.5), Qt.KeyboardModifier.ShiftModifier)
    battlemap = win.controller.state.battlemap
    assert [p.kind for p in battlemap.portals] == [PortalKind.DOOR]
    assert battlemap.terrain_at(Square(5, 5)) is TerrainKind.DIFFICULT
    render_png(win, "build-1-map")

    # The party from the roster, the enemies from the editor.
    win.menu_actions["cancel"].trigger()
    for index, name in enumerate(PARTY):
        drop_character(win, name, (1.5, 2.5 + 2 * index))
    for number, square in enumerate(ENEMIES, start=1):

        def fill(editor, number=number) -> None:  # type: ignore[no-untyped-def]
            editor.name_edit.setText(f"Dock guard {number}")
            editor.side_box.setCurrentIndex(editor.side_box.findData("enemy"))
            editor.stats.set_text("defense", "13")
            editor.stats.set_text("vitality", "12")
            editor.weapons.add_weapon(Weapon("Pistol", "2d6", 30, ammo=12, capacity=12))

        win.token_editing.run_editor, _ = fill_and_ok(fill)
        double_click_at(qtbot, win.view, square)
    tokens = win.controller.state.tokens
    assert [t.name for t in tokens if t.side is Side.PARTY] == list(PARTY)
    assert len([t for t in tokens if t.side is Side.ENEMY]) == 6
    render_png(win, "build-2-tokens")
    grab_png(win, "build-2-window")

    path = tmp_path / "dockside.killbox"
    assert win.save_to(path)

    # Open it again and play a round: every combatant takes a turn.
    again = make_window(qtbot, tmp_path / "again", sample_state())
    assert again.open_path(path)
    state = again.controller.state
    assert state.name == "Dockside ambush" and len(state.tokens) == 10
    assert state.battlemap == win.controller.state.battlemap
    again.initiative.start_button.click()
    assert again.controller.state.combat.round == 1
    for _ in range(len(state.tokens)):
        again.initiative.next_button.click()
    assert again.controller.state.combat.round == 2
    grab_png(again, "build-3-played")
