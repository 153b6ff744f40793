"""Initiative tracker: the order, whose turn it is, what they have left, and turn buttons."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QEvent, QObject, QPoint, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.controller import EncounterController
from desktop.docks.health_cell import GAUGES_ROLE, HealthCellDelegate, needed_width
from desktop.fight import act, start_combat
from desktop.gm_menu import GmMenu
from desktop.scene import style
from desktop.scene.fit_text import wrap_to
from engine.encounter import EncounterState
from engine.rules.base import Command, CommandError, TurnStanding
from engine.rules.tracker_entry import INITIATIVE_HEADINGS
from engine.turns.combat import Phase

#: The tracker's preferred width: a side and count, a name, the bars and "1 main, 1 move"
#: on one line each (the docks beside it take the same width).
PREFERRED_WIDTH = 340

#: The letters of a name the tracker keeps in view before the Health and Left cells take
#: more room ("Razor crew gunman" cut to "Razor c..." left the GM guessing who was who).
NAME_LETTERS = 16

#: The most of the width after the count that the longest name may claim first.
NAME_SHARE = 0.5

#: The most of what is left over the name's letters that the bars may take.
HEALTH_SHARE = 0.6

#: The command behind the End turn button (its legality enables the button).
END_TURN = Command("end_turn")


def budget_text(budget: Mapping[str, int], joiner: str = ", ") -> str:
    return joiner.join(f"{count} {pool}" for pool, count in budget.items() if count) or "—"


#: A cell's own margins round its text (the style's), kept clear when a name is measured.
CELL_MARGINS = 8

#: The name as the engine gives it, before the acting row wraps it onto two lines.
FULL_NAME_ROLE = Qt.ItemDataRole.UserRole + 1


def two_lines(text: str, width: float, metrics: QFontMetricsF) -> str:
    """``text`` whole on one line if it fits ``width``, else broken between words onto two
    (the second elided by the view should it still be too long)."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    lines = wrap_to(text, width, metrics)
    return lines[0] if len(lines) == 1 else f"{lines[0]}\n{' '.join(lines[1:])}"


#: How the name cell marks where a turn stands (the engine says which: ``tracker_entry``).
STANDING_MARKS = {
    TurnStanding.ACTING: "▶ ",
    TurnStanding.DONE: "✓ ",
    TurnStanding.HOLDING: "‖ ",  # a pause sign every font has
    TurnStanding.WAITING: "",
}

#: The mark of a token out of the fight (``TrackerEntry.out``), as a VTT's defeated skull.
OUT_MARK = "☠ "
#: How an out token's row is written: dimmed, so the living stand out.
OUT_COLOUR = QColor(150, 150, 150)


#: How each column (Init, Token, Health, Left) shares the tracker's width: the count takes
#: what it needs; a name keeps NAME_LETTERS letters; the bars then take what their numbers
#: need, and what is left what its words need, from what remains
#: (``InitiativePanel.share_width``); the name the rest. A row shows what is left only when
#: it is news (the token acting, or a turn no longer whole); the heading says it whole for
#: the acting token ("1 main, 1 move" elided to "1 mai..." hid whether a Move was left).
COLUMN_MODES = (
    QHeaderView.ResizeMode.ResizeToContents,
    QHeaderView.ResizeMode.Stretch,
    QHeaderView.ResizeMode.Fixed,
    QHeaderView.ResizeMode.Fixed,
)


class InitiativePanel(QWidget):
    COLUMNS = ("Init", "Token", "Health", "Left")

    def __init__(self, controller: EncounterController) -> None:
        super().__init__()
        self.controller = controller
        self.heading = QLabel()
        self.heading.setObjectName("initiativeHeading")
        self.heading.setWordWrap(True)  # a long name's budget never widens the dock
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        # Every column inside the dock's width, never a sideways scroll: the count and what is
        # left take what they need, name and health share the rest, one line a combatant and
        # elided (the full text is each cell's tooltip), so a long name never widens the dock
        # and a dozen combatants stay in view, as in any initiative tracker.
        header = self.table.horizontalHeader()
        for column, mode in enumerate(COLUMN_MODES):
            header.setSectionResizeMode(column, mode)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setWordWrap(False)
        rows = self.table.verticalHeader()
        rows.setDefaultSectionSize(self.table.fontMetrics().lineSpacing() + 6)
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.health_delegate = HealthCellDelegate(self.table)
        self.table.setItemDelegateForColumn(self.COLUMNS.index("Health"), self.health_delegate)
        self.health_needs = 0
        #: The acting token's row, which takes the lines it needs (``fit_acting_row``).
        self.acting_row: int | None = None
        self.table.viewport().installEventFilter(self)
        self.start_button = QPushButton("Start combat")
        self.next_button = QPushButton("End turn")
        self.end_button = QPushButton("End combat")
        buttons = QHBoxLayout()
        for button in (self.start_button, self.next_button, self.end_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.start_button.clicked.connect(self._start)
        self.next_button.clicked.connect(self._end_turn)
        self.end_button.clicked.connect(lambda: self._apply("end_combat"))
        self.table.itemSelectionChanged.connect(self._row_selected)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.gm = GmMenu(self, controller, self.heading.setText)
        self._menu: QMenu | None = None  # kept while shown: it owns its actions
        controller.state_changed.connect(self.refresh)
        controller.selection_changed.connect(self._show_selection)
        self.refresh(controller.state)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), PREFERRED_WIDTH), hint.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.share_width()
        return super().eventFilter(watched, event)

    def share_width(self) -> None:
        """The Health and Left columns: what their bars and words need, from what the count
        and the names leave (the longest name, up to NAME_SHARE and at least NAME_LETTERS
        letters); the bars first, up to HEALTH_SHARE of that."""
        header = self.table.horizontalHeader()
        init = self.COLUMNS.index("Init")
        rest = self.table.viewport().width() - max(
            self.table.sizeHintForColumn(init), header.sectionSizeHint(init))
        token = self.COLUMNS.index("Token")
        name_room = max(self.table.fontMetrics().averageCharWidth() * NAME_LETTERS,
                        min(self.table.sizeHintForColumn(token), int(rest * NAME_SHARE)))
        spare = max(rest - name_room, rest // 3)
        health, left = self.COLUMNS.index("Health"), self.COLUMNS.index("Left")
        health_needs = max(self.health_needs, header.sectionSizeHint(health))  # its heading too
        # The bars leave the acting row's Left cell its widest line ("1 main", "3 actions").
        health_width = min(health_needs, int(spare * HEALTH_SHARE),
                           max(spare - self._acting_left_needs(), header.sectionSizeHint(health)))
        header.resizeSection(health, health_width)
        left_needs = max(self.table.sizeHintForColumn(left), header.sectionSizeHint(left))
        header.resizeSection(left, max(min(left_needs, spare - health_width),
                                       header.sectionSizeHint(left)))
        self.fit_acting_row()

    def _acting_left_needs(self) -> int:
        """The width of the acting row's widest Left line, in its bold font, or 0."""
        if self.acting_row is None or self.acting_row >= self.table.rowCount():
            return 0
        item = self.table.item(self.acting_row, self.COLUMNS.index("Left"))
        if item is None or not item.text():
            return 0
        metrics = QFontMetricsF(item.font())
        widest = max(metrics.horizontalAdvance(line) for line in item.text().split("\n"))
        return int(widest) + 2 * CELL_MARGINS

    def fit_acting_row(self) -> None:
        """The acting row is read whole (a bold "Razor crew lookout" and "3 actions, 6
        pace" were both elided at 1366x768): what it has left takes a line a
        pool, its name a second line where the column is too narrow, and the row grows to
        hold them; every other row stays one line."""
        rows = self.table.verticalHeader()
        line = rows.defaultSectionSize()
        for row in range(self.table.rowCount()):
            if row != self.acting_row and rows.sectionSize(row) != line:
                self.table.setRowHeight(row, line)
        if self.acting_row is None or self.acting_row >= self.table.rowCount():
            return
        name = self.table.item(self.acting_row, self.COLUMNS.index("Token"))
        left = self.table.item(self.acting_row, self.COLUMNS.index("Left"))
        if name is None or left is None:
            return
        room = self.table.columnWidth(self.COLUMNS.index("Token")) - CELL_MARGINS
        name.setText(two_lines(str(name.data(FULL_NAME_ROLE)), room, QFontMetricsF(name.font())))
        name.setToolTip(name.text())
        lines = 1 + max(name.text().count("\n"), left.text().count("\n"))
        spacing = self.table.fontMetrics().lineSpacing()
        self.table.setRowHeight(self.acting_row, line + spacing * (lines - 1))

    def _start(self) -> None:
        try:
            start_combat(self, self.controller)
        except (CommandError, ValueError) as error:
            self.heading.setText(str(error))

    def _end_turn(self) -> None:
        """End the turn: the rolls the next turn starts with (a recovery, a dying roll...) are
        asked for like an action's when the GM rolls physical dice."""
        try:
            act(self, self.controller, END_TURN)
        except CommandError as error:
            self.heading.setText(str(error))

    def _apply(self, action: str) -> None:
        try:
            self.controller.apply(Command(action))
        except CommandError as error:
            self.heading.setText(str(error))

    def refresh(self, state: EncounterState) -> None:
        combat = state.combat
        phase = {
            Phase.SETUP: "Set-up: place tokens, then start combat",
            Phase.SURPRISE: f"Surprise round {combat.round}",
            Phase.ROUND: f"Round {combat.round}",
            Phase.OVER: "The fight is over",
        }[combat.phase]
        self.heading.setText(phase + self._acting_left(state))
        kind = self.controller.system.initiative_scheme.kind
        header = self.table.horizontalHeaderItem(0)
        if header is not None:  # set with the table's columns
            header.setText(INITIATIVE_HEADINGS.get(kind, "Init"))
        self.table.blockSignals(True)  # no echo back into the selection while rebuilding
        self.table.setRowCount(len(combat.order))
        names = {t.id: t for t in state.tokens}
        bold = QFont()
        bold.setBold(True)
        line = self.table.verticalHeader().defaultSectionSize()
        needs: list[int] = []
        self.acting_row = None
        for row, combatant in enumerate(combat.order):
            token = names.get(combatant.token_id)
            name = token.name if token else combatant.token_id
            entry = self.controller.system.tracker_entry(state, combatant)
            gauges = self.controller.system.gauges(state, token) if token else ()
            health = " · ".join(gauge.text for gauge in gauges)
            needs.append(needed_width(tuple(gauges), line))
            left = budget_text(combatant.budget)
            # The system's word for the standing ("On Hold") says more than the budget; a
            # whole turn's budget waiting its turn says nothing new and gives the name room.
            whole = combatant.budget == self.controller.system.fresh_budget(
                state, combatant.token_id)
            acting = combatant.token_id == combat.active
            news = acting or not whole
            shown_left = budget_text(combatant.budget, "\n") if acting else left
            mark = OUT_MARK if entry.out and not acting else STANDING_MARKS[entry.standing]
            cells = (entry.initiative, mark + name, health,
                     entry.out or entry.note or (shown_left if news else ""))
            if acting:
                self.acting_row = row
            tips = (*cells[:3], f"{entry.out}: out of the fight" if entry.out
                    else f"{entry.note}: {left}" if entry.note
                    else shown_left if news else f"{left} (a whole turn)")
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tips[column])
                item.setData(Qt.ItemDataRole.UserRole, combatant.token_id)
                item.setData(FULL_NAME_ROLE, text)
                if column == self.COLUMNS.index("Health"):
                    item.setData(GAUGES_ROLE, tuple(gauges))
                if entry.out:
                    item.setForeground(QBrush(OUT_COLOUR))
                elif token is not None and column == 1:
                    item.setForeground(QBrush(style.SIDE_COLOURS[token.side].lighter(120)))
                if acting:
                    item.setFont(bold)
                    item.setBackground(QBrush(QColor(255, 255, 255, 30)))
                self.table.setItem(row, column, item)
        self.table.blockSignals(False)
        self.health_needs = max(needs, default=0)
        self.share_width()
        self.start_button.setEnabled(combat.phase is Phase.SETUP and bool(state.tokens))
        # The engine says when End turn may go; with nobody able to act it opens the next round.
        self.next_button.setEnabled(self.controller.system.preview(state, END_TURN).legal)
        stalled = combat.active is None and combat.phase in (Phase.ROUND, Phase.SURPRISE)
        self.next_button.setText("Next round" if stalled else "End turn")
        self.end_button.setEnabled(combat.phase in (Phase.ROUND, Phase.SURPRISE))
        self._show_selection(self.controller.selected)

    def _acting_left(self, state: EncounterState) -> str:
        """What the acting token has left, whole, for the heading (its row may elide it)."""
        active = state.combat.active
        if active is None:
            return ""
        combatant = state.combat.combatant(active)
        token = next((t for t in state.tokens if t.id == active), None)
        name = token.name if token else active
        return f" · {name}: {budget_text(combatant.budget)} left"

    def row_menu(self, token_id: str) -> QMenu:
        """A combatant's menu: take it out of the order (a defeated token the GM is done
        with), bring a downed one back (Revive), and the GM's overrides."""
        menu = QMenu(self)
        token = self.controller.state.token(token_id)
        leave = menu.addAction(f"Take {token.name} out of the order",
                               lambda: self.gm.send("gm_leave_order", token_id))
        leave.setEnabled(self.controller.preview(
            Command.build("gm_leave_order", targets=[token_id])).legal)
        mark = self.controller.system.down_mark(token)
        if mark:
            menu.addAction(f"Revive (no longer {mark})",
                           lambda: self.gm.send("gm_revive", token_id))
        menu.addSeparator()
        menu.addMenu(self.gm.build(token_id, "GM overrides"))
        return menu

    def _context_menu(self, where: QPoint) -> None:
        item = self.table.itemAt(where)
        if item is None:
            return
        self._menu = self.row_menu(str(item.data(Qt.ItemDataRole.UserRole)))
        self._menu.popup(self.table.viewport().mapToGlobal(where))

    def _row_selected(self) -> None:
        items = self.table.selectedItems()
        if items:
            self.controller.select(items[0].data(Qt.ItemDataRole.UserRole))

    def _show_selection(self, token_id: object) -> None:
        self.table.blockSignals(True)
        self.table.clearSelection()
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == token_id:
                self.table.selectRow(row)
        self.table.blockSignals(False)
