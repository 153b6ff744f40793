"""The roster dock: the GM's own library of characters, kept between encounters.

It lists the characters of the open encounter's rule system, kept in the user's data folder
(QStandardPaths AppDataLocation, under ``roster/``: desktop/roster_store.py). The GM saves a
token from the map into it, puts a character on the map (drag it onto a square, or "Add to
map" and click a square), and exports or imports one as a file. Characters come onto the
map through the engine's add_token, so a square in a wall or off the map is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import (
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QImage,
    QMouseEvent,
    QPixmap,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.controller import EncounterController
from desktop.editing import commands
from desktop.editing.snapping import square_at
from desktop.editing.token_actions import unique_id
from desktop.roster_store import Roster, RosterEntry, RosterError
from desktop.tools.base import Tool, ToolHost
from engine.grid import Square
from engine.rules.base import CommandError, IllegalCommand

#: The drag payload: a roster entry's key.
ROSTER_MIME = "application/x-killbox-roster-entry"
ROSTER_FILTER = "Killbox characters (*.killbox-character)"


class RosterList(QListWidget):
    """The entries; a drag carries the entry's key to the map."""

    def __init__(self) -> None:
        super().__init__()
        self.setDragEnabled(True)
        self.setSelectionMode(QListWidget.SelectionMode.SingleSelection)

    def mimeData(self, items: Sequence[QListWidgetItem], /) -> QMimeData:
        data = QMimeData()
        if items:
            data.setData(ROSTER_MIME, str(items[0].data(Qt.ItemDataRole.UserRole)).encode())
        return data

    def mimeTypes(self) -> list[str]:
        return [ROSTER_MIME]


class RosterDock(QWidget):
    def __init__(
        self,
        controller: EncounterController,
        roster: Roster,
        status: Callable[[str], None],
        arm_placement: Callable[[Tool], None],
        host: ToolHost,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.roster = roster
        self.status = status
        self.arm_placement = arm_placement
        self.host = host
        self.list = RosterList()
        self.list.itemDoubleClicked.connect(lambda _item: self.start_placing())
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        buttons = {}
        for key, text, slot in (
            ("save", "Save token", self.save_selected),
            ("place", "Add to map", self.start_placing),
            ("export", "Export…", self.export_dialog),
            ("import", "Import…", self.import_dialog),
            ("remove", "Remove", self.remove_current),
        ):
            button = QPushButton(text)
            button.clicked.connect(lambda _c=False, s=slot: s())
            buttons[key] = button
        self.buttons = buttons
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        for key in ("save", "place", "remove"):
            row1.addWidget(buttons[key])
        for key in ("export", "import"):
            row2.addWidget(buttons[key])
        layout = QVBoxLayout(self)
        layout.addWidget(self.caption)
        layout.addWidget(self.list, 1)
        layout.addLayout(row1)
        layout.addLayout(row2)
        #: The rule system whose characters the list shows (None: not listed yet). The
        #: list is filled when the dock is on screen and listing is allowed, which the
        #: window may hold back until its first frame is painted: reading the roster (on a
        #: first start, making it from the bundled encounters) does not delay that frame.
        self.listed_system: str | None = None
        self.listing_allowed = True
        controller.state_changed.connect(lambda _s: self._follow_system())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._follow_system()

    def allow_listing(self) -> None:
        self.listing_allowed = True
        self._follow_system()

    def _follow_system(self) -> None:
        """List the open encounter's system's characters, if not listed yet (a new
        encounter may be of another system), once the dock is on screen."""
        if self.listing_allowed and self.isVisible() and self.listed_system != self.system:
            self.refresh()

    # ---- listing

    @property
    def system(self) -> str:
        return self.controller.state.system

    def entries(self) -> list[RosterEntry]:
        return list(self.roster.entries(self.system))

    def refresh(self) -> None:
        self.listed_system = self.system
        current = self.current_key()
        self.list.clear()
        try:
            entries = self.entries()
        except OSError as error:  # a full disk or a folder it may not write: play goes on
            self.caption.setText(f"The roster could not be read or made: {error}")
            return
        for entry in entries:
            token = entry.token
            item = QListWidgetItem(f"{token.name} · {token.side.value}")
            item.setData(Qt.ItemDataRole.UserRole, entry.key)
            item.setToolTip(entry.token.notes or token.name)
            picture = entry.picture
            if picture:
                item.setIcon(QIcon(QPixmap.fromImage(QImage.fromData(picture))))
            self.list.addItem(item)
            if entry.key == current:
                self.list.setCurrentItem(item)
        self.caption.setText(
            f"{self.list.count()} characters for {self.controller.system.title}. "
            "Drag one onto the map, or Add to map and click a square."
        )

    def current_key(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def entry(self, key: str) -> RosterEntry:
        for entry in self.entries():
            if entry.key == key:
                return entry
        raise KeyError(f"no roster entry {key!r}")

    # ---- onto the map

    def place(self, key: str, square: Square) -> bool:
        """Put a copy of a roster character on ``square`` (engine add_token); False if refused."""
        entry = self.entry(key)
        state = self.controller.state
        token = entry.token
        names = {t.name for t in state.tokens}
        name, number = token.name, 2
        while name in names:
            name, number = f"{token.name} {number}", number + 1
        portrait = None
        try:
            if entry.picture:
                portrait = self.controller.add_image(entry.picture, "token")
            placed = replace(
                token,
                id=unique_id(name, {t.id for t in state.tokens}),
                name=name,
                square=square,
                portrait=portrait,
            )
            self.controller.apply(commands.add_token(placed))
        except IllegalCommand as error:
            self.status(f"{name} not placed: " + "; ".join(error.reasons))
            return False
        except CommandError as error:
            self.status(str(error))
            return False
        self.status(f"{name} joins the encounter at {square}")
        return True

    def start_placing(self) -> None:
        key = self.current_key()
        if key is None:
            self.status("Choose a character in the roster first")
            return
        self.arm_placement(PlaceFromRosterTool(self.host, self, key))

    # ---- into the roster

    def save_selected(self) -> bool:
        token_id = self.controller.selected
        if token_id is None:
            self.status("Select a token on the map to save it to the roster")
            return False
        token = self.controller.state.token(token_id)
        picture = self.controller.images.get(token.portrait) if token.portrait else None
        try:
            self.roster.save(self.system, token, picture)
        except RosterError as error:
            self.status(str(error))
            return False
        self.refresh()
        self.status(f"{token.name} is in the roster")
        return True

    def remove_current(self) -> None:
        key = self.current_key()
        if key is not None:
            self.roster.remove(self.system, key)
            self.refresh()

    def export_dialog(self) -> None:
        key = self.current_key()
        if key is None:
            self.status("Choose a character to export")
            return
        name, _ = QFileDialog.getSaveFileName(self, "Export character", "", ROSTER_FILTER)
        if name:
            self.export_to(key, Path(name))

    def export_to(self, key: str, path: Path) -> bool:
        try:
            self.roster.export(self.system, key, path)
        except (RosterError, OSError) as error:
            self.status(str(error))
            return False
        self.status(f"Exported {path.name}")
        return True

    def import_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Import character", "", ROSTER_FILTER)
        if name:
            self.import_from(Path(name))

    def import_from(self, path: Path) -> bool:
        try:
            entry = self.roster.import_file(path)
        except (RosterError, OSError) as error:
            self.status(str(error))
            return False
        self.refresh()
        self.status(f"{entry.token.name} imported")
        return True


class PlaceFromRosterTool(Tool):
    """One click on a square puts the chosen roster character there."""

    one_shot = True

    def __init__(self, host: ToolHost, dock: RosterDock, key: str) -> None:
        super().__init__(host)
        self.dock = dock
        self.key = key
        self.name = f"Click a square to place {dock.entry(key).token.name}"

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        # Placed: back to selecting, so the next click on a token selects it instead of
        # placing another copy there. Refused: stay, the status says why; click elsewhere.
        if self.dock.place(self.key, square_at(scene_pos)):
            self.hand_back()
        return True


class RosterDrop:
    """Lets the map take roster drags (files still go to the window)."""

    def __init__(self, dock: RosterDock) -> None:
        self.dock = dock

    def accepts(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> bool:
        return event.mimeData().hasFormat(ROSTER_MIME)

    def drop(self, event: QDropEvent, scene_pos: QPointF) -> bool:
        key = bytes(event.mimeData().data(ROSTER_MIME).data()).decode()
        return self.dock.place(key, square_at(scene_pos))
