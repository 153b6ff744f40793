"""Hooks encounter preparation into the main window: the Map menu and toolbar, the token
editor on double-click, Ctrl+D, and pictures added to the document reaching the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence

from desktop.docks.gm_notes import GmNotes
from desktop.docks.roster import RosterDock, RosterDrop
from desktop.editing.map_menu import install_map_menu
from desktop.editing.snapping import square_at
from desktop.editing.token_actions import TokenEditing

if TYPE_CHECKING:
    from desktop.main_window import MainWindow


def install_preparation(window: MainWindow) -> TokenEditing:
    """Add the preparation tools to a main window; returns its token-editing gestures."""
    editing = TokenEditing(window.controller, window, window._status)
    window.map_toolbar = install_map_menu(window)
    window.gm_notes = GmNotes(window.controller)
    window._add_dock("GM notes", window.gm_notes, Qt.DockWidgetArea.RightDockWidgetArea)
    # Tabbed behind the play docks, so the table's layout stays as it was while playing.
    window.tabifyDockWidget(window.docks["Combat log"], window.docks["GM notes"])
    window.docks["Combat log"].raise_()
    window.menus["View"].addAction(window.docks["GM notes"].toggleViewAction())
    window.roster = RosterDock(
        window.controller, window.autosaver.folder, window._status, window.set_tool, window.host
    )
    window._add_dock("Roster", window.roster, Qt.DockWidgetArea.LeftDockWidgetArea)
    window.tabifyDockWidget(window.docks["Actions"], window.docks["Roster"])
    window.docks["Actions"].raise_()
    window.menus["View"].addAction(window.docks["Roster"].toggleViewAction())
    window.view.set_drop_target(RosterDrop(window.roster))
    edit_menu = window.menus["Edit"]
    edit_menu.addSeparator()
    for key, text, shortcut, slot in (
        ("edit_token", "&Edit token…", "Ctrl+Return", lambda: _edit_selected(window, editing)),
        ("duplicate", "D&uplicate token", "Ctrl+D", lambda: _duplicate_selected(window, editing)),
    ):
        action = QAction(text, window)
        action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False, s=slot: s())
        edit_menu.addAction(action)
        window.menu_actions[key] = action
    window.view.double_clicked.connect(lambda pos: double_click(window, editing, pos))
    window.controller.images_changed.connect(lambda images: _share_images(window, images))
    return editing


def double_click(window: MainWindow, editing: TokenEditing, scene_pos: QPointF) -> None:
    """A token: edit it. An empty square of the map: a new token there."""
    item = window.scene.token_item_at(scene_pos)
    if item is not None:
        window.controller.select(item.token_id)
        editing.edit(item.token_id)
        return
    square = square_at(scene_pos)
    if window.controller.state.battlemap.in_bounds(square):
        editing.add_at(square)


def _edit_selected(window: MainWindow, editing: TokenEditing) -> None:
    if window.controller.selected is None:
        window._status("Select a token to edit it")
    else:
        editing.edit(window.controller.selected)


def _duplicate_selected(window: MainWindow, editing: TokenEditing) -> None:
    if window.controller.selected is None:
        window._status("Select a token to duplicate it")
    else:
        editing.duplicate(window.controller.selected)


def _share_images(window: MainWindow, images: Mapping[str, bytes]) -> None:
    """The map scenes draw pictures from their own copy of the document's images."""
    window.scene.images = dict(images)
    if window.player_window is not None:
        window.player_window.scene.images = dict(images)
