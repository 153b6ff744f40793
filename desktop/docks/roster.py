"""The roster dock: the GM's own library of characters, kept between encounters.

A view over the engine's roster (engine/files/roster.py, which keeps the files and checks
them) for the open encounter's rule system, in the user's data folder. The GM saves a token
from the map into it, puts a character on the map (drag it onto a square, or "Add to map" and
click a square), and exports or imports one as a file. Characters come onto the map through
the engine's add_token, so a square in a wall or off the map is refused.
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
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.controller import EncounterController
from desktop.editing import commands
from desktop.editing.snapping import square_at
from desktop.tools.base import Tool, ToolHost
from engine.files.errors import EncounterFileError
from engine.files.roster import (
    CHARACTER_SUFFIX,
    Roster,
    RosterEntry,
    character_copies,
    character_copy,
)
from engine.grid import Square
from engine.rules.base import CommandError, IllegalCommand
from engine.tokens import Token

#: The drag payload: a roster entry's key.
ROSTER_MIME = "application/x-killbox-roster-entry"
EXPORT_FILTER = f"Killbox character (*{CHARACTER_SUFFIX})"
IMPORT_FILTER = f"Killbox characters (*{CHARACTER_SUFFIX} *.json)"
#: What reading or writing a roster file may raise: the engine names the file and problem.
FILE_ERRORS = (EncounterFileError, KeyError, OSError)
#: The most copies one placement puts down (a squad, not a crowd).
MOST_COPIES = 20


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
        data_folder: Path,
        status: Callable[[str], None],
        arm_placement: Callable[[Tool], None],
        host: ToolHost,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.data_folder = data_folder
        self.status = status
        self.arm_placement = arm_placement
        self.host = host
        self.list = RosterList()
        self.list.itemDoubleClicked.connect(lambda _item: self.start_placing())
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        # A long problem wraps or is cut; it never widens the dock over the map.
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
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
        #: How many copies "Add to map", a double click or a drag puts down ("Add 4").
        self.copies = QSpinBox()
        self.copies.setObjectName("roster-copies")
        self.copies.setRange(1, MOST_COPIES)
        self.copies.setPrefix("× ")
        self.copies.setToolTip(
            "How many copies to put down: numbered (Gunman 1, Gunman 2…) on the free "
            "squares nearest the one you click, one undo step"
        )
        self.copies.valueChanged.connect(self._name_place_button)
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        for key in ("save", "place"):
            row1.addWidget(buttons[key])
        row1.addWidget(self.copies)
        row1.addWidget(buttons["remove"])
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

    @property
    def roster(self) -> Roster:
        """The open encounter's system's roster."""
        return Roster(self.data_folder, self.system)

    def entries(self) -> tuple[RosterEntry, ...]:
        return self.roster.load().characters

    def refresh(self) -> None:
        self.listed_system = self.system
        current = self.current_key()
        self.list.clear()
        try:
            listing = self.roster.load()
        except (OSError, EncounterFileError) as error:  # a full disk, say: play goes on
            self.caption.setText(f"The roster could not be read or made: {error}")
            return
        for entry in listing.characters:
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
        unread = "".join(
            f"\nNot read: {Path(p.path).name}: {p.place}: {p.problem}" for p in listing.problems
        )
        self.caption.setToolTip("\n".join(str(problem) for problem in listing.problems))
        self.caption.setText(
            f"{self.list.count()} characters for {self.controller.system.title}. "
            f"Drag one onto the map, or Add to map and click a square (× 4: four numbered "
            f"copies).{unread}"
        )

    def current_key(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    # ---- onto the map

    def _name_place_button(self, count: int) -> None:
        self.buttons["place"].setText("Add to map" if count == 1 else f"Add {count} to map")

    def place(self, key: str, square: Square) -> bool:
        """Put the chosen number of copies of a roster character on ``square`` and the
        free squares nearest it (engine add_token, one undo step); False if refused."""
        try:
            entry = self.roster.entry(key)
        except FILE_ERRORS as error:
            self.status(str(error))
            return False
        count = self.copies.value()
        if count == 1:
            one = character_copy(entry.token, self.controller.state, square)
            if not self._add(entry, (one,), one.name):
                return False
            self.status(f"{one.name} joins the encounter at {square}")
            return True
        group = character_copies(entry.token, self.controller.state, square, count)
        if not group:
            self.status(f"{entry.token.name} not placed: no free square near {square}")
            return False
        if not self._add(entry, group, entry.token.name):
            return False
        names = ", ".join(token.name for token in group)
        short = "" if len(group) == count else (
            f" (only {len(group)} of {count}: no more free squares near {square})")
        self.status(f"{names} join the encounter near {square}{short}")
        return True

    def _add(self, entry: RosterEntry, tokens: tuple[Token, ...], name: str) -> bool:
        """Add ``tokens`` (with the entry's portrait) as one undo step; False, said in the
        status bar under ``name``, if the engine refuses."""
        try:
            with self.controller.session.step():
                if entry.picture:
                    portrait = self.controller.add_image(entry.picture, "token")
                    tokens = tuple(replace(token, portrait=portrait) for token in tokens)
                for token in tokens:
                    self.controller.apply(commands.add_token(token))
        except IllegalCommand as error:
            self.status(f"{name} not placed: " + "; ".join(error.reasons))
            return False
        except CommandError as error:
            self.status(str(error))
            return False
        return True

    def start_placing(self) -> None:
        key = self.current_key()
        if key is None:
            self.status("Choose a character in the roster first")
            return
        try:
            name = self.roster.entry(key).token.name
        except FILE_ERRORS as error:  # changed on disk since it was listed
            self.status(str(error))
            self.refresh()
            return
        count = self.copies.value()
        if count > 1:
            name = f"{count} × {name} (on the free squares nearest)"
        self.arm_placement(PlaceFromRosterTool(self.host, self, key, name))

    # ---- into the roster

    def save_selected(self) -> bool:
        token_id = self.controller.selected
        if token_id is None:
            self.status("Select a token on the map to save it to the roster")
            return False
        token = self.controller.state.token(token_id)
        picture = self.controller.images.get(token.portrait) if token.portrait else None
        try:
            self.roster.save(token, picture)
        except FILE_ERRORS as error:
            self.status(str(error))
            return False
        self.refresh()
        self.status(f"{token.name} is in the roster")
        return True

    def remove_current(self) -> None:
        key = self.current_key()
        if key is not None:
            try:
                self.roster.remove(key)
            except FILE_ERRORS as error:
                self.status(str(error))
            self.refresh()

    def export_dialog(self) -> None:
        key = self.current_key()
        if key is None:
            self.status("Choose a character to export")
            return
        name, _ = QFileDialog.getSaveFileName(
            self, "Export character", f"{key}{CHARACTER_SUFFIX}", EXPORT_FILTER
        )
        if name:
            self.export_to(key, Path(name))

    def export_to(self, key: str, path: Path) -> bool:
        try:
            self.roster.export(key, path)
        except FILE_ERRORS as error:
            self.status(str(error))
            return False
        self.status(f"Exported {path.name}")
        return True

    def import_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Import characters", "", IMPORT_FILTER)
        if name:
            self.import_from(Path(name))

    def import_from(self, path: Path) -> bool:
        try:
            added = self.roster.import_file(path)
        except FILE_ERRORS as error:
            self.status(str(error))
            return False
        self.refresh()
        self.status(", ".join(entry.token.name for entry in added) + " imported")
        return True


class PlaceFromRosterTool(Tool):
    """One click on a square puts the chosen roster character there."""

    one_shot = True

    def __init__(self, host: ToolHost, dock: RosterDock, key: str, name: str) -> None:
        super().__init__(host)
        self.dock = dock
        self.key = key
        self.name = f"Click a square to place {name}"

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
