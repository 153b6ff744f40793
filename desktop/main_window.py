"""The main window: the map, the docks, the menus, files, autosave and the player view."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPoint, QPointF, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMenu,
    QMessageBox,
    QWidget,
)

from desktop.autosave import (
    Autosaver,
    CrashedSession,
    RestoredSession,
    SessionDamaged,
    crashed_sessions,
    keep_legacy_autosave_aside,
)
from desktop.controller import EncounterController
from desktop.docks.actions import ActionPalette, needs_targeting
from desktop.docks.initiative import InitiativePanel
from desktop.docks.inspector import TokenInspector
from desktop.docks.log import CombatLog
from desktop.documents import (
    OPENABLE_SUFFIXES,
    UVTT_SUFFIXES,
    Document,
    DocumentError,
    ImportOptions,
    blank_state,
    default_map_path,
    is_uvtt,
    load_document,
)
from desktop.fight import act, pin_seed
from desktop.file_places import start_folder, suggested_file
from desktop.gm_menu import GmMenu
from desktop.preferences import Preferences, rolls_for_me
from desktop.render import export_png
from desktop.scene.map_scene import MapScene
from desktop.scene.overlay_items import LayerItem, detach
from desktop.square_menu import add_offer_entries, square_menu
from desktop.step_words import STEP_MESSAGE_MS, step_words
from desktop.table import add_hide_entry, add_ping_entry, enemy_health_shown, install_table
from desktop.tools.action_tool import ActionTool
from desktop.tools.base import Tool, ToolHost, square_at
from desktop.tools.offers import own_offers, target_offers, turn_offers, turn_refusals
from desktop.tools.select_move import SelectMoveTool
from desktop.tools.tool_checks import ToolChecks
from desktop.turn_follow import TurnFollower
from desktop.view import MapView
from desktop.warm import after_first_paint, warm_after_first_paint
from engine.encounter import EncounterState
from engine.files.atomic import remove_stale_temporaries
from engine.grid import Square
from engine.rules.base import ActionSpec, Command, CommandError, RuleSystem

if TYPE_CHECKING:
    # Added by desktop.editing.install, imported there.
    from desktop.docks.gm_notes import GmNotes
    from desktop.docks.roster import RosterDock
    from desktop.editing.map_menu import MapToolbar

    # Imported when F5 first opens it: the first frame does not need it.
    from desktop.player_view import PlayerWindow

MAX_RECENT = 8
KILLBOX_FILTER = "Killbox encounters (*.killbox)"
UVTT_FILTER = "Universal VTT maps (" + " ".join(f"*{s}" for s in UVTT_SUFFIXES) + ")"
OPEN_FILTER = "Maps (" + " ".join(f"*{s}" for s in OPENABLE_SUFFIXES) + ")"


class MainWindow(QMainWindow):
    # Added by desktop.editing.install when the preparation tools are put in.
    map_toolbar: MapToolbar
    gm_notes: GmNotes
    roster: RosterDock

    def __init__(
        self,
        document: Document,
        *,
        system: RuleSystem | None = None,
        autosave_folder: Path | None = None,
        settings: QSettings | None = None,
        defer_tools: bool = False,
        ask_dice: bool = True,
        physical_dice: bool | None = None,
        restored: RestoredSession | None = None,
        crashed: CrashedSession | None = None,
    ) -> None:
        """``defer_tools`` builds the Tools menu just after the first frame (faster start).
        ``physical_dice``: ask the faces of every roll (None: as the GM's preference says).
        ``restored``: a crashed session given back (``document`` is its document); with its
        history, its folder (``crashed``) goes on being the autosave."""
        super().__init__()
        self._defer_tools = defer_tools
        self.settings = settings or QSettings()
        self.controller = EncounterController(document, system)
        self.controller.ask_dice = ask_dice  # Roll / Type dice dialogs (desktop.fight)
        self.controller.physical_dice = (
            not rolls_for_me(self.settings) if physical_dice is None else physical_dice
        )
        self.scene = MapScene(document.state, document.images)
        self.view = MapView(self.scene)
        self.setCentralWidget(self.view)
        self.host = ToolHost(self.view, self.controller)
        self.host.tool_done = self._tool_done
        self.default_tool: Tool = SelectMoveTool(self.host)
        #: What lasts on the map (zones, cones, waiting tokens), redrawn after each command.
        self.lasting_layer = LayerItem()
        #: The tool entries (Select checked now), built before the menus that fill them.
        self.tool_checks = ToolChecks(lambda: self.set_tool(self.default_tool))
        self.view.tool_changed.connect(self.tool_checks.show)
        self.view.set_tool(self.default_tool)
        self.player_window: PlayerWindow | None = None
        #: The last Universal VTT import's progress (its dialog and the stages it showed).
        self.import_progress: object | None = None
        resume = None
        if restored is not None:
            if restored.encounter is not None:
                self.controller.resume(restored.encounter)
                resume = crashed
            self.controller.dirty = True  # restored work is not saved to a file yet
        self.autosaver = Autosaver(self.controller, autosave_folder, resume=resume)
        self.setAcceptDrops(True)
        self.resize(default_size(self.screen().availableGeometry().size()))

        self.initiative = InitiativePanel(self.controller)
        self.action_palette = ActionPalette(self.controller)
        self.inspector = TokenInspector(self.controller)
        self.log = CombatLog(self.controller)
        self.docks: dict[str, QDockWidget] = {}
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        for title, widget, area in (
            ("Initiative", self.initiative, left),
            ("Actions", self.action_palette, left),
            ("Token", self.inspector, right),
            ("Combat log", self.log, right),
        ):
            self._add_dock(title, widget, area)
        self.action_palette.action_requested.connect(self.start_action)

        self.controller.state_changed.connect(self._state_changed)
        self.controller.document_changed.connect(self._update_title)
        self.controller.selection_changed.connect(self._selection_changed)
        # Made now, not on the first message: a status bar appearing later would take its
        # height from the map and shift it under the GM's cursor.
        self.statusBar()
        self.view.status_message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.view.context_requested.connect(self._context_menu)
        self._build_menus()
        self.preferences = Preferences(self)
        from desktop.editing.install import install_preparation

        self.token_editing = install_preparation(self)
        if self._defer_tools:  # the roster is listed once the map is on screen
            self.roster.listing_allowed = False
            after_first_paint(self.view.viewport(), self.roster.allow_listing)
        install_table(self)
        # Last to hear of a change: the scene has the new tokens when it scrolls to one.
        self.turn_follower = TurnFollower(self)
        self.draw_lasting_effects()
        self._update_title()
        self.restore_layout()
        QTimer.singleShot(0, self.view.fit_map)

    # ---- layout remembered between runs (QSettings)

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())

    def restore_layout(self) -> bool:
        """The window's place and size and the docks' as the GM left them; False if none."""
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        restored = False
        if isinstance(geometry, QByteArray | bytes) and geometry:
            restored = self.restoreGeometry(QByteArray(geometry))
        if isinstance(state, QByteArray | bytes) and state:
            restored = self.restoreState(QByteArray(state)) and restored
        return restored

    # ---- construction

    def _add_dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[title] = dock

    def _action(
        self,
        menu_name: str,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: slot())
        self.menus[menu_name].addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.menus = {name: bar.addMenu(f"&{name}") for name in ("File", "Edit", "View")}
        keys = QKeySequence.StandardKey
        self.menu_actions: dict[str, QAction] = {"tool_select": self.tool_checks.select}
        actions = self.menu_actions
        add = self._action
        actions["new"] = add("File", "&New", self.new_encounter, keys.New)
        actions["open"] = add("File", "&Open…", self.open_dialog, keys.Open)
        self.recent_menu = self.menus["File"].addMenu("Open &recent")
        actions["reopen_last"] = self.menus["File"].addAction("Reopen the last fight at start")
        actions["reopen_last"].setCheckable(True)
        actions["reopen_last"].setChecked(reopens_last(self.settings))
        actions["reopen_last"].toggled.connect(
            lambda on: self.settings.setValue(REOPEN_LAST, bool(on))
        )
        actions["save"] = add("File", "&Save", self.save, keys.Save)
        actions["save_as"] = add("File", "Save &as…", self.save_as_dialog, "Ctrl+Shift+S")
        self.menus["File"].addSeparator()
        actions["import"] = add("File", "&Import Universal VTT…", self.import_dialog, "Ctrl+I")
        actions["export"] = add("File", "&Export PNG…", self.export_dialog, "Ctrl+E")
        self.menus["File"].addSeparator()
        actions["quit"] = add("File", "&Quit", self.close, keys.Quit)
        actions["undo"] = add("Edit", "&Undo", self.undo, "Ctrl+Z")
        actions["redo"] = add("Edit", "&Redo", self.redo, "Ctrl+Shift+Z")
        actions["delete"] = add("Edit", "&Delete token", self.delete_selected, "Delete")
        actions["cancel"] = add("Edit", "Cancel tool", self.cancel_tool, "Escape")
        actions["seed"] = add("Edit", "Dice &seed…", lambda: pin_seed(self, self.controller))
        actions["find_action"] = add("Edit", "Find an &action…", self.find_action, "Ctrl+K")
        actions["fit"] = add("View", "&Fit map", self.view.fit_map, "Ctrl+0")
        actions["zoom_in"] = add("View", "Zoom &in", lambda: self.view.zoom_by(1.25), "Ctrl+=")
        actions["zoom_out"] = add(
            "View", "Zoom &out", lambda: self.view.zoom_by(0.8), "Ctrl+-"
        )
        actions["player"] = add("View", "&Player view", self.show_player_view, "F5")
        self.menus["View"].addSeparator()
        for dock in self.docks.values():
            self.menus["View"].addAction(dock.toggleViewAction())
        if self._defer_tools:
            QTimer.singleShot(0, self._install_tools)
            # The route engine and the sight index, ready before the first drag.
            warm_after_first_paint(self.view.viewport(), lambda: self.controller.state)
        else:
            self._install_tools()
        self._refresh_recent()
        self._update_actions()

    def _install_tools(self) -> None:
        # Imported here: the rule tools pull in the route engine, which the first frame
        # does not need.
        from desktop.tools.catalogue import install_tools_menu

        install_tools_menu(self)

    # ---- state flow: engine -> items

    def _state_changed(self, state: EncounterState) -> None:
        self.scene.set_state(state)
        self.draw_lasting_effects()
        if self.view.tool is not None:
            self.view.tool.state_changed()
        self._selection_changed(self.controller.selected)
        self._update_actions()
        if self.autosaver.last_error:
            self.statusBar().showMessage(f"Autosave failed: {self.autosaver.last_error}")

    def draw_lasting_effects(self) -> None:
        """Zones, covered cones and waiting tokens, from the rule system, while they last."""
        from desktop.scene.preview_overlay import draw_lasting

        layer = self.lasting_layer
        for child in layer.childItems():
            detach(child)
        if layer.scene() is not self.scene:
            layer.setParentItem(self.scene.overlay_layer)
            # Under what a tool draws now: a preview's threat ring on a covering shooter
            # stays visible over the lasting ring the cone puts there.
            layer.setZValue(-1)
        state = self.controller.state
        self.lasting = draw_lasting(self.controller.system.lasting_overlay(state), state)
        for item in self.lasting.items:
            item.setParentItem(layer)

    def _selection_changed(self, token_id: object) -> None:
        for item in self.scene.token_items.values():
            item.set_selected(item.token_id == token_id)
        self._update_actions()

    def _update_actions(self) -> None:
        self.menu_actions["undo"].setEnabled(self.controller.can_undo)
        self.menu_actions["redo"].setEnabled(self.controller.can_redo)
        self.menu_actions["delete"].setEnabled(self.controller.selected is not None)

    def _update_title(self) -> None:
        path = self.controller.path
        where = path.name if path else "unsaved"
        mark = "*" if self.controller.dirty else ""
        self.setWindowTitle(f"{self.controller.state.name} — {where}{mark} — Killbox")
        self._update_actions()

    # ---- documents

    def load(self, document: Document) -> None:
        """Show another document (opened, imported, restored or new)."""
        self.view.set_tool(None)
        self.controller.open(document)
        self.scene = MapScene(document.state, document.images)
        self.view.set_scene(self.scene)
        self.lasting_layer = LayerItem()
        self.draw_lasting_effects()
        self.view.set_tool(self.default_tool)
        self.view.fit_map()
        if self.player_window is not None:
            self.player_window.reload()
        if document.path is not None:
            self.add_recent(document.path)

    def open_path(self, path: Path, options: ImportOptions | None = None) -> bool:
        """Open a .killbox file, or import a Universal VTT map (``options``, else defaults)."""
        if not self.confirm_discard():
            return False
        try:
            document = self._read(path, options)
        except DocumentError as error:
            self.show_error("Could not open the file", str(error))
            return False
        if document is None:
            self.statusBar().showMessage(f"Import of {path.name} cancelled", 4000)
            return False
        self.load(document)
        if document.path is None:  # an imported map: remember where it came from
            self.add_recent(path)
        self.statusBar().showMessage(f"Opened {path.name}", 4000)
        return True

    def _read(self, path: Path, options: ImportOptions | None) -> Document | None:
        """The document at ``path``; a Universal VTT map loads under a progress dialog, for the
        rule system of the encounter open unless ``options`` say otherwise."""
        from desktop.dialogs.import_map import ImportCancelled, import_with_progress

        if not is_uvtt(path):
            return load_document(path)
        chosen = options or ImportOptions(self.controller.state.system)
        try:
            document, self.import_progress = import_with_progress(self, path, chosen)
        except ImportCancelled:
            return None
        return document

    def new_encounter(self, picture: Path | None = None) -> bool:
        """File > New (or a picture dropped or named): the New encounter dialog, then the map."""
        from desktop.editing.new_flow import ask_new_document

        if not self.confirm_discard():
            return False
        try:
            document = ask_new_document(self, picture, system=self.controller.state.system)
        except DocumentError as error:
            self.show_error("Could not make the encounter", str(error))
            return False
        if document is None:
            return False
        self.load(document)
        return True

    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, "Open encounter", str(self.dialog_folder()), OPEN_FILTER
        )
        if name:
            self.open_path(Path(name))

    def import_dialog(self) -> None:
        from desktop.dialogs.import_map import ImportOptionsDialog

        name, _ = QFileDialog.getOpenFileName(
            self, "Import Universal VTT map", str(self.dialog_folder()), UVTT_FILTER
        )
        if not name:
            return
        choices = ImportOptionsDialog(self, Path(name), self.controller.state.system)
        if choices.exec():
            self.open_path(Path(name), choices.options())

    def save(self) -> bool:
        if self.controller.path is None:
            return self.save_as_dialog()
        return self.save_to(self.controller.path)

    def save_as_dialog(self) -> bool:
        name, _ = QFileDialog.getSaveFileName(
            self, "Save encounter", str(self.proposed_file(".killbox")), KILLBOX_FILTER
        )
        if not name:
            return False
        path = Path(name)
        if path.suffix.lower() != ".killbox":
            path = path.with_suffix(".killbox")
        return self.save_to(path)

    def save_to(self, path: Path) -> bool:
        try:
            self.controller.save(path)
        except DocumentError as error:
            self.show_error("Could not save", str(error))
            return False
        self.add_recent(path)
        self.statusBar().showMessage(f"Saved {path.name}", 4000)
        return True

    def export_dialog(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, "Export picture", str(self.proposed_file(".png")), "PNG pictures (*.png)"
        )
        if name:
            self.export_to(Path(name))

    def export_to(self, path: Path) -> bool:
        try:
            export_png(self.controller.state, self.controller.images, path)
        except OSError as error:
            self.show_error("Could not export", str(error))
            return False
        self.statusBar().showMessage(f"Exported {path.name}", 4000)
        return True

    # ---- recent files

    def recent_files(self) -> list[Path]:
        return [Path(n) for n in recent_names(self.settings) if n]

    def dialog_folder(self) -> Path:
        """Where Open, Import, Save as and Export start (desktop.file_places)."""
        return start_folder(self.controller.path, recent_names(self.settings))

    def proposed_file(self, suffix: str) -> Path:
        """The name Save as or Export proposes: the fight's file, else the fight's name."""
        path = self.controller.path
        if path is not None and path.parent.is_dir():
            return path.with_suffix(suffix)
        return suggested_file(self.dialog_folder(), self.controller.state.name, suffix)

    def add_recent(self, path: Path) -> None:
        names = [str(path.resolve())]
        names += [str(p) for p in self.recent_files() if str(p) != names[0]]
        self.settings.setValue("recent_files", names[:MAX_RECENT])
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(str(path))
            action.triggered.connect(lambda _checked=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(recent))

    # ---- editing

    def undo(self) -> None:
        self.cancel_tool()
        before = self.controller.state.combat.log
        if not self.controller.undo():
            self.statusBar().showMessage("Nothing to undo", 3000)
            return
        after = self.controller.state.combat.log
        self.statusBar().showMessage(step_words("Undone", before, after), STEP_MESSAGE_MS)

    def redo(self) -> None:
        self.cancel_tool()
        before = self.controller.state.combat.log
        if not self.controller.redo():
            self.statusBar().showMessage("Nothing to redo", 3000)
            return
        after = self.controller.state.combat.log
        self.statusBar().showMessage(step_words("Redone", after, before), STEP_MESSAGE_MS)

    def delete_selected(self) -> None:
        if self.controller.selected is not None:
            self._remove(self.controller.selected)

    def cancel_tool(self) -> None:
        tool = self.view.tool
        if tool is not None and tool is not self.default_tool:
            self.view.set_tool(self.default_tool)
            self.action_palette.targeting.follow(None)
            self.statusBar().showMessage("Tool cancelled", 3000)
        elif tool is not None:
            tool.cancel()

    def acting_token(self, state: EncounterState) -> str | None:
        """Who acts: the palette's acting token (the turn's, or the GM's pick)."""
        return self.action_palette.actor(state)

    def find_action(self) -> None:
        """Ctrl+K: type an action's name in the palette's filter; Enter starts it."""
        self.docks["Actions"].show()
        self.docks["Actions"].raise_()
        self.action_palette.filter.setFocus()
        self.action_palette.filter.selectAll()

    def set_tool(self, tool: Tool) -> None:
        if not isinstance(tool, ActionTool):
            self.action_palette.targeting.follow(None)
        self.view.set_tool(tool)
        # A tool's keys (T, [ ] and C for templates, Space for a waypoint, Enter to confirm)
        # work at once: picked from a toolbar, the focus stayed on the last button clicked.
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def start_action(
        self,
        actor: str,
        spec: ActionSpec,
        targets: tuple[str, ...] = (),
        weapon: str | None = None,
    ) -> ActionTool:
        """The targeting mode for ``spec`` of ``actor`` (palette, token menu or shortcut)."""
        tool = ActionTool(self.host, actor, spec, targets=targets, weapon=weapon)
        tool.finished = lambda: self._action_finished(tool)
        self.set_tool(tool)
        self.action_palette.targeting.follow(tool)
        self.docks["Actions"].raise_()
        return tool

    def _tool_done(self, tool: Tool) -> None:
        """A one-shot tool is done: the default tool again, the tool's last word kept."""
        if self.view.tool is tool:
            said = self.statusBar().currentMessage()
            self.view.set_tool(self.default_tool)
            if said:
                self.statusBar().showMessage(said, 6000)

    def _action_finished(self, tool: ActionTool) -> None:
        if self.view.tool is tool:
            self._tool_done(tool)  # the action's last word stays, not "Select and move"
        if self.action_palette.targeting.tool is tool:
            self.action_palette.targeting.follow(None)

    # ---- right click on a token

    def token_menu(self, token_id: str) -> QMenu:
        """What a right click on a token offers: what the acting token may do to it now
        (each entry starts the targeting mode with it as the target), why not the rest,
        then selecting, centring and removing it. Every entry goes through the engine."""
        token = self.controller.state.token(token_id)
        menu = QMenu(token.name, self)
        menu.setToolTipsVisible(True)
        actor = self.acting_token(self.controller.state)
        if actor is not None and actor != token_id:
            offers = target_offers(self.controller, actor, token_id)
            add_offer_entries(
                menu,
                offers,
                lambda offer: self.start_action(actor, offer.spec, (token_id,), offer.weapon),
            )
            menu.addSeparator()
        self._own_entries(menu, token_id)
        menu.addAction(f"Select {token.name}", lambda: self.controller.select(token_id))
        # The token editor was reached only by a double-click or Edit > Edit token.
        menu.addAction(f"Edit {token.name}… (double-click)", partial(self._edit_token, token_id))
        menu.addAction(
            "Centre the view here",
            lambda: self.view.centerOn(
                self.scene.token_items[token_id].sceneBoundingRect().center()
            ),
        )
        menu.addSeparator()
        menu.addMenu(GmMenu(self, self.controller, self._status).build(token_id))
        add_hide_entry(self, menu, token_id)
        menu.addSeparator()
        menu.addAction("Remove token", lambda: self._remove(token_id))
        return menu

    def _own_entries(self, menu: QMenu, token_id: str) -> None:
        """While another token acts, what this one may do out of turn (Act from Hold...):
        the moment a held token cuts in is a right click on it, as a tracker's Act Now. On
        the token whose turn it is, what it may do aiming at no one (Go Prone, Reload...),
        and, greyed under "Not now…", what the engine refuses it now, with why."""
        state = self.controller.state
        if state.combat.active is None:
            return
        name = state.token(token_id).name
        acting = state.combat.active == token_id
        if acting:
            offers = turn_offers(self.controller, token_id)
        else:
            offers = own_offers(self.controller, token_id)
        for spec in offers:
            menu.addAction(f"{name}: {spec.name}", partial(self._act_as, token_id, spec))
        refused = turn_refusals(self.controller, token_id) if acting else []
        add_offer_entries(menu, refused, lambda _offer: None, prefix=f"{name}: ")
        if offers or refused:
            menu.addSeparator()

    def _act_as(self, token_id: str, spec: ActionSpec) -> None:
        if needs_targeting(self.controller, token_id, spec):
            self.start_action(token_id, spec)
            return
        try:
            act(self, self.controller, Command(spec.key, token_id))
        except CommandError as error:
            self._status(str(error))

    def _edit_token(self, token_id: str) -> None:
        self.controller.select(token_id)
        self.token_editing.edit(token_id)

    def _add_new_token_entry(self, menu: QMenu, square: Square) -> None:
        """A token made by hand, where a Foundry VTT or MapTool GM looks for it: the square's
        own menu (a double-click on an empty square was the only way, and said so nowhere)."""
        if self.controller.state.battlemap.in_bounds(square):
            menu.addAction(
                "New token here… (double-click)", partial(self.token_editing.add_at, square)
            )

    def portal_menu(self, portal_id: str) -> QMenu:
        """What a right click on a door or window offers: open, close, lock (engine set_portal)."""
        from desktop.doors import portal_menu

        portal = self.controller.state.battlemap.portal(portal_id)
        return portal_menu(self, self.controller, portal, self._status)

    def _status(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    def _remove(self, token_id: str) -> None:
        try:
            self.controller.remove_token(token_id)
        except CommandError as error:
            self.statusBar().showMessage(str(error), 6000)

    def _context_menu(self, scene_pos: QPointF, global_pos: QPoint) -> None:
        tool = self.view.tool
        own = [] if tool is None else tool.context_entries(scene_pos)
        menu = self._map_menu(scene_pos)
        if own:  # the tool's work first (a placed template's targets), then the map's menu
            first = menu.actions()[0]  # every map menu has one: Ping, at least
            for text, slot in own:
                entry = QAction(text, menu)
                entry.triggered.connect(lambda _checked=False, s=slot: s())
                menu.insertAction(first, entry)
            menu.insertSeparator(first)
        menu.exec(global_pos)

    def _map_menu(self, scene_pos: QPointF) -> QMenu:
        """The door's, token's or square's menu under ``scene_pos``."""
        button = self.scene.door_button_at(scene_pos, self.view.transform())
        item = None if button else self.scene.token_item_at(scene_pos)
        if item is None or not item.isVisible():
            portal = button or self.scene.portal_item_at(scene_pos)
            if portal is not None:
                menu = self.portal_menu(portal.portal.id)
            else:
                menu = square_menu(self, square_at(scene_pos))
                self._add_new_token_entry(menu, square_at(scene_pos))
            add_ping_entry(self, menu, scene_pos)
            return menu
        menu = self.token_menu(item.token_id)  # offers of the acting token, made before
        add_ping_entry(self, menu, scene_pos)
        self.controller.select(item.token_id)  # the click selects the token it was on
        return menu

    # ---- player view

    def show_player_view(self) -> PlayerWindow:
        if self.player_window is None:
            from desktop.player_view import PlayerWindow

            self.player_window = PlayerWindow(self.controller, settings=self.settings)
            self.player_window.set_show_enemy_health(enemy_health_shown(self))
            self.player_window.destroyed.connect(lambda: setattr(self, "player_window", None))
            self.player_window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
            self.player_window.show_in_place()
        else:
            self.player_window.show()
        self.player_window.raise_()
        QTimer.singleShot(0, self.player_window.view.fit_map)
        return self.player_window

    # ---- questions (tests replace these)

    def confirm_discard(self) -> bool:
        """Before the encounter is closed or replaced: True to go on (saved or discarded)."""
        if not self.controller.dirty:
            return True
        answer = self.ask_unsaved()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def ask_unsaved(self) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel (Save the default, Escape cancels)."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Unsaved changes")
        box.setText(f"Save the changes to “{self.controller.state.name}”?")
        box.setInformativeText("If you don't save, the changes since the last save are lost.")
        buttons = QMessageBox.StandardButton
        box.setStandardButtons(buttons.Save | buttons.Discard | buttons.Cancel)
        box.setDefaultButton(buttons.Save)
        box.setEscapeButton(buttons.Cancel)
        self.unsaved_box = box
        return QMessageBox.StandardButton(box.exec())

    def show_error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 10000)
        if QApplication.platformName() != "offscreen":
            QMessageBox.warning(self, title, text)

    # ---- window events

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        names = [url.toLocalFile() for url in event.mimeData().urls()]
        if any(_openable(name) or _picture(name) for name in names):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            name = url.toLocalFile()
            if _openable(name) or _picture(name):
                event.acceptProposedAction()
                if _picture(name):  # a battle-map picture starts a new encounter from it
                    self.new_encounter(Path(name))
                else:
                    self.open_path(Path(name))
                return
        event.ignore()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.confirm_discard():
            event.ignore()
            return
        if self.player_window is not None:
            self.player_window.close()
        self.save_layout()
        self.autosaver.finish()
        event.accept()


#: The window's size on a big screen; a smaller one gets what fits (a 1366x768 laptop).
PREFERRED_SIZE = QSize(1400, 900)
#: What a window manager's title bar and borders take around the window.
FRAME_MARGIN = QSize(16, 48)


def default_size(available: QSize) -> QSize:
    """The first window's size: the preferred one, shrunk to fit the screen's free area."""
    return PREFERRED_SIZE.boundedTo(available - FRAME_MARGIN)


def _openable(name: str) -> bool:
    return bool(name) and Path(name).suffix.lower() in OPENABLE_SUFFIXES


def _picture(name: str) -> bool:
    from desktop.dialogs.new_encounter import is_picture

    return bool(name) and is_picture(Path(name))


REOPEN_LAST = "reopen_last"


def reopens_last(settings: QSettings) -> bool:
    """Whether a start without a file reopens the last fight (on unless the GM said no)."""
    value = settings.value(REOPEN_LAST, True)
    return value not in (False, "false", "0", 0)


def recent_names(settings: QSettings) -> list[str]:
    """The recent files as saved (QSettings gives one name as a string, several as a list)."""
    value = settings.value("recent_files", [])
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [str(name) for name in value]
    return []  # nothing saved yet


def last_fight(settings: QSettings) -> Path | None:
    """The newest recent .killbox file, when the GM wants it reopened and it is there."""
    if not reopens_last(settings):
        return None
    for name in recent_names(settings)[:1]:
        path = Path(name)
        if path.suffix.lower() == ".killbox" and path.is_file():
            return path
    return None


def remove_stale_saves(settings: QSettings) -> None:
    """Temporary files that saves killed half-way left beside the recent files go."""
    for folder in {Path(name).parent for name in recent_names(settings) if name}:
        remove_stale_temporaries(folder)


def first_document(path: Path | None) -> Document:
    """The file asked for, else the bundled default encounter, else a blank map."""
    candidate = path or default_map_path()
    if path is None and not candidate.exists():
        return Document(blank_state(), {}, None)
    return load_document(candidate)


def ask_restore(parent: QWidget | None, document: Document) -> bool:
    answer = QMessageBox.question(
        parent,
        "Restore the last fight?",
        f"Killbox did not close properly last time. Restore “{document.state.name}” "
        "as it was after the last action, with its undo history?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes


def already_saved(document: Document) -> bool:
    """Whether ``document`` is exactly what its file on disk holds (a fight killed after
    its last save, e.g. at logout): then a restore would offer nothing the file lacks."""
    if document.path is None:
        return False
    try:
        on_disk = load_document(document.path)
    except (DocumentError, OSError):
        return False
    return on_disk.state == document.state and dict(on_disk.images) == dict(document.images)


def look_for_a_crash(
    warnings: list[str], declined: list[Path] | None = None
) -> tuple[RestoredSession, CrashedSession] | None:
    """The newest crashed session the GM wants back, if any. A session that cannot be read
    is moved aside and a warning added; nothing here stops the app from starting. One the
    GM declines is kept as a file, added to ``declined``."""
    declined = [] if declined is None else declined
    legacy = keep_legacy_autosave_aside()
    if legacy is not None:
        warnings.append(f"An autosave of an earlier Killbox version was kept in {legacy}.")
    found = crashed_sessions()
    for later in found[1:]:
        later.release()  # offered at a later start
    if not found:
        return None
    crashed = found[0]
    try:
        restored = crashed.restore()
    except SessionDamaged as error:
        kept = crashed.keep_aside()
        warnings.append(
            "The autosave of the last session is damaged and cannot be restored; Killbox "
            f"starts without it. It is kept, unchanged, in {kept}\n\nWhat is wrong: {error}"
        )
        return None
    except Exception as error:  # an autosave never stops the app from starting
        kept = crashed.keep_aside()
        warnings.append(f"The autosave of the last session could not be restored "
                        f"({type(error).__name__}: {error}). It was kept in {kept}.")
        return None
    if restored.encounter is not None and already_saved(restored.document):
        crashed.discard()  # killed after a save: the file holds it all, nothing to offer
        return None
    if not ask_restore(None, restored.document):
        declined.append(crashed.decline(restored.document))
        return None
    if restored.encounter is None:
        kept = crashed.keep_aside()
        warnings.append(f"The fight was restored without its undo history ({restored.problem}). "
                        f"The autosave was kept in {kept}.")
    return restored, crashed


def launch(app: QApplication, path: Path | None) -> int:
    # A Universal VTT map is imported once the window shows, so its progress bar can show;
    # a battle-map picture starts the New encounter flow there, as when it is dropped.
    picture = path if path is not None and _picture(str(path)) else None
    if picture is not None:
        path = None
    warnings: list[str] = []
    remove_stale_saves(QSettings())
    declined: list[Path] = []
    found = look_for_a_crash(warnings, declined)
    reopened = None
    if path is None and picture is None and found is None:
        reopened = path = last_fight(QSettings())
    deferred = path if path is not None and is_uvtt(path) and path.is_file() else None
    try:
        if found is not None:
            document = found[0].document
        elif deferred is None:
            document = first_document(path)
        else:
            document = Document(blank_state(), {}, None)
    except DocumentError as error:
        # Started from a file manager, the GM sees no console: the window opens on the
        # default encounter and says what is wrong with the file (a damaged picture...).
        print(f"killbox: {error}", file=sys.stderr)
        what = ("The last fight could not be reopened" if reopened
                else "The file could not be opened")
        warnings.append(f"{what}: {error}")
        document = first_document(None)
    window = MainWindow(
        document,
        defer_tools=True,
        restored=found[0] if found else None,
        crashed=found[1] if found else None,
    )
    window.show()
    if window.autosaver.last_error:
        warnings.append(
            f"Killbox could not start its autosave ({window.autosaver.last_error}). "
            "The fight is not autosaved: save it with Ctrl+S."
        )
    for text in warnings:
        window.show_error("Killbox", text)
    for kept in declined:  # one click away in File > Open recent, should the No be regretted
        window.add_recent(kept)
        window.statusBar().showMessage(
            f"The fight not restored is kept in {kept} (File > Open recent).", 30000
        )
    if deferred is not None and found is None:
        window.open_path(deferred)  # the defaults, as when the file is dropped on the window
    if picture is not None:
        QTimer.singleShot(0, lambda: window.new_encounter(picture))
    return app.exec()
