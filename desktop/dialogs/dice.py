"""Roll or type dice: one row per roll a command will make, prefilled with the seeded faces.

The rows come from the engine: a dry run of the command on a throw-away copy of the state
(states are immutable) gives each roll's purpose, expression and the face the encounter's
seeded dice would show (the preview's ``rolls`` stand in only when the dry run fails).
"Roll for me" applies with the seeded dice; "Apply my faces" sends the typed faces, which
the engine reads as GivenDice. Below the rows, the same dry run with the faces shown says
what they would do, in the combat log's words ("hits", "misses", "takes 7 damage"), so a GM
rolling physical dice sees the result before committing to it.

Enter does what the GM means. A GM who rolls physical dice (``physical``) applies the faces
shown: that is the default button. Otherwise "Roll for me" is, but once a face has been
typed Enter applies the typed faces, so Enter in a box never throws what was typed away.

A random draw that is no die (an Action Deck shuffle's, ``engine.dice.draw``) is never a
row: nobody types a shuffle.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.scrolling import vertical_scroll
from engine.dice import (
    Dice,
    GivenDice,
    Roll,
    SeededDice,
    aces,
    dice_words,
    draw,
    modifier_of,
)
from engine.encounter import EncounterState
from engine.events import EventKind
from engine.rules.base import Command, RuleSystem

#: What the GM chose: None = seeded dice, a list = the typed faces, False = cancelled.
DiceAnswer = list[int] | None | bool

#: The rolls that follow typed faces (the faces of the first rows, in order).
Replan = Callable[[Sequence[int]], Sequence["PlannedRoll"]]
#: What the command does with these faces: the log lines of the dry run.
Outcome = Callable[[Sequence[int]], Sequence[str]]


@dataclass(frozen=True)
class PlannedRoll:
    label: str
    expression: str
    face: int  # what the seeded dice would show (the dice's sum, no modifier)
    modifier: int = 0  # what the engine adds to the face
    dice: int = 1  # how many dice the face sums (the smallest face it can be)


class _Recording:
    """Seeded dice that remember every roll made through them (a card draw is no roll)."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.made: list[Roll] = []

    @property
    def rolls(self) -> int:
        return self.inner.rolls

    def roll(self, expression: str, purpose: str) -> Roll:
        made = self.inner.roll(expression, purpose)
        self.made.append(made)
        return made

    def draw(self, expression: str, purpose: str) -> Roll:
        return draw(self.inner, expression, purpose)


@dataclass(frozen=True)
class DryRun:
    """The rolls a command makes, in order, and what it does (the log lines, rolls left
    out: the rows show those)."""

    rolls: list[PlannedRoll]
    outcome: list[str]


def dry_run(
    system: RuleSystem,
    state: EncounterState,
    command: Command,
    announced: Sequence[str] = (),
    typed: Sequence[int] = (),
) -> DryRun:
    """Apply ``command`` to a throw-away copy of the state (states are immutable).

    ``typed`` are faces the GM has typed for the first rolls: what follows depends on them
    (a typed hit rolls damage where the seeded miss did not), so the rest is planned from
    them, with the seeded dice the engine would fall back to (as ``Encounter.dice_for``)."""
    combat = state.combat
    seeded = SeededDice(combat.seed, combat.rolls + len(typed))
    recorder = _Recording(GivenDice(typed, seeded) if typed else seeded)
    try:
        _after, events = system.apply(state, command, recorder)
    except Exception:  # a dry run that fails shows the announced rolls unfilled
        return DryRun([PlannedRoll(text, "", 1) for text in announced], [])
    # Each row is named by the roll's own purpose, not by position in ``announced``: a
    # Wild Die, an acing die or one die per target makes more rolls than the preview names.
    planned = []
    for made in recorder.made:
        modifier, count = modifier_of(made.expression)
        label = f"{made.purpose} ({dice_words(made.expression)})"
        planned.append(
            PlannedRoll(label, made.expression, made.total - modifier, modifier, max(1, count))
        )
    outcome = [event.text for event in events if event.kind is not EventKind.ROLL]
    return DryRun(planned, outcome)


def planned_rolls(
    system: RuleSystem,
    state: EncounterState,
    command: Command,
    announced: Sequence[str] = (),
    typed: Sequence[int] = (),
) -> list[PlannedRoll]:
    """The rolls ``command`` would make now, in order (empty if it rolls nothing)."""
    return dry_run(system, state, command, announced, typed).rolls


#: The two buttons: words that cannot be taken one for the other.
ROLL_WORDS = "Roll for me"
APPLY_WORDS = "Apply my faces"

#: What the dialog asks for, said once above the rows.
FACE_HELP = (
    "Type the die face your dice show (for several dice, their faces added up), "
    "not the total: the engine adds the modifier and shows the total it will make."
)
#: Said too when a row's die aces: the engine takes a typed face as the whole die's result.
ACING_HELP = (
    " An acing die that shows its highest face is rolled again and added: type all its "
    "faces added up (a 6, then a 4 on the d6: type 10)."
)


def total_text(planned: PlannedRoll, face: int) -> str:
    """ "= 22 (face 17 +5)": the total a typed face makes."""
    if not planned.modifier:
        return f"= {face}"
    return f"= {face + planned.modifier} (face {face} {planned.modifier:+d})"


class DiceDialog(QDialog):
    """A compact list of rolls with a die-face box and the total it makes; Killbox rolls them
    or the typed faces apply."""

    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        rolls: Sequence[PlannedRoll],
        note: str = "",
        replan: Replan | None = None,
        outcome: Outcome | None = None,
        physical: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        #: The GM rolls physical dice: "Apply my faces" is the default, Enter applies them.
        self.physical = physical
        self.answer: DiceAnswer = False
        #: Asked again when a face changes: the rows after it follow from the typed faces.
        self.replan = replan
        #: Asked after every change: what the faces shown would do.
        self.outcome = outcome
        self.planned: list[PlannedRoll] = []
        self.rolls_layout = QFormLayout()
        self.face_boxes: list[QSpinBox] = []
        self.total_labels: list[QLabel] = []
        # Everything above the buttons scrolls: with many options or tokens it can be taller
        # than a laptop screen, and the buttons must stay in reach.
        self.body = QWidget()
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(0, 0, 0, 0)
        if note:
            self.note = QLabel(note)
            self.note.setWordWrap(True)
            layout.addWidget(self.note)
        self.extra = QVBoxLayout()
        layout.addLayout(self.extra)
        self.face_help = QLabel(FACE_HELP)
        self.face_help.setWordWrap(True)
        layout.addWidget(self.face_help)
        layout.addLayout(self.rolls_layout)
        self.outcome_label = QLabel()
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setTextFormat(Qt.TextFormat.PlainText)
        self.outcome_label.setVisible(False)
        layout.addWidget(self.outcome_label)
        layout.addStretch(1)
        self.scroller = vertical_scroll(self.body)
        layout = self.outer = QVBoxLayout(self)
        layout.addWidget(self.scroller, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.roll_button = QPushButton(ROLL_WORDS)
        self.roll_button.setToolTip("Killbox rolls these dice (the faces above are not used)")
        self.typed_button = QPushButton(APPLY_WORDS)
        self.typed_button.setToolTip("Apply the faces typed above (what your physical dice show)")
        buttons.addButton(self.roll_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.typed_button, QDialogButtonBox.ButtonRole.AcceptRole)
        for button in (self.roll_button, self.typed_button):
            button.setAutoDefault(False)
            button.setDefault(False)
        #: True once the GM has changed a face: Enter then applies the typed faces.
        self.typed = False
        self.roll_button.clicked.connect(self.choose_roll)
        self.typed_button.clicked.connect(self.choose_typed)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.set_rolls(rolls)

    def set_rolls(self, rolls: Sequence[PlannedRoll]) -> None:
        self.typed = False
        self._set_rows_from(0, rolls)

    def _set_rows_from(self, first: int, rolls: Sequence[PlannedRoll]) -> None:
        """Rows ``first`` on become ``rolls[first:]``; the rows before stay as typed."""
        while self.rolls_layout.rowCount() > first:
            self.rolls_layout.removeRow(first)
        del self.face_boxes[first:], self.total_labels[first:], self.planned[first:]
        for index, planned in enumerate(rolls[first:], start=first):
            box = QSpinBox()
            box.setRange(planned.dice, 999)
            box.setPrefix("die face ")
            box.setValue(planned.face)
            box.setToolTip(
                f"The die face of {planned.expression or 'the dice'}; the engine adds the modifier"
            )
            total = QLabel(total_text(planned, planned.face))
            box.valueChanged.connect(
                lambda face, p=planned, t=total: t.setText(total_text(p, face))
            )
            # textEdited: only the GM's own typing (a spin box re-emits valueChanged on Enter).
            box.lineEdit().textEdited.connect(self._face_typed)
            box.valueChanged.connect(
                lambda value, face=planned.face: self._face_changed(value, face)
            )
            box.valueChanged.connect(lambda _value, row=index: self._follow_typed(row))
            box.valueChanged.connect(self._show_outcome)
            row = QHBoxLayout()
            row.addWidget(box)
            row.addWidget(total)
            self.rolls_layout.addRow(planned.label, row)
            self.face_boxes.append(box)
            self.total_labels.append(total)
            self.planned.append(planned)
        self.typed_button.setEnabled(bool(self.face_boxes))
        self._mark_default()
        self.face_help.setVisible(bool(self.face_boxes))  # no dice (a deal): nothing to type
        acing = any(aces(planned.expression) for planned in self.planned)
        self.face_help.setText(FACE_HELP + (ACING_HELP if acing else ""))
        self._show_outcome()

    def _refit(self) -> None:
        """A row or an outcome line more or less: grow or shrink rather than squash or
        scroll, once the layout has taken the change in (on the next turn of the event
        loop)."""
        if self.isVisible():
            QTimer.singleShot(0, self.fit_to_screen)

    def fit_to_screen(self) -> None:
        """As big as the content wants, within 90% of the screen (the rest scrolls)."""
        wanted = self.body.sizeHint()
        bar = self.scroller.verticalScrollBar().sizeHint().width()
        margins = self.outer.contentsMargins()
        chrome = self.sizeHint().height() - self.scroller.sizeHint().height()
        room = self.screen().availableGeometry()
        width = min(max(wanted.width() + bar, self.minimumSizeHint().width()) + margins.left()
                    + margins.right(), int(room.width() * 0.9))
        # Wrapped words (the note, the outcome) are as tall as the width they get makes them,
        # which the size hint does not know.
        inner = width - margins.left() - margins.right() - bar
        body = self.body.heightForWidth(inner) if self.body.hasHeightForWidth() else -1
        height = min(max(wanted.height(), body) + chrome, int(room.height() * 0.9))
        self.resize(width, height)

    def _follow_typed(self, row: int) -> None:
        """Re-plan the rows after ``row`` from the faces typed so far: a typed hit adds the
        damage row the seeded miss had no need of, a typed miss takes it away. A later row
        that is still the same roll keeps its face."""
        if self.replan is None:
            return
        faces = self.faces()
        rolls = list(self.replan(faces[: row + 1]))
        same = [
            index
            for index in range(row + 1, min(len(rolls), len(self.planned)))
            if rolls[index].label == self.planned[index].label
        ]
        kept = {index: faces[index] for index in same}
        if len(rolls) == len(self.planned) and len(same) == len(rolls) - row - 1:
            return  # the same rolls follow: nothing to redraw
        self._set_rows_from(row + 1, rolls)
        for index, face in kept.items():
            self.face_boxes[index].setValue(face)

    def _show_outcome(self) -> None:
        lines = list(self.outcome(self.faces())) if self.outcome is not None else []
        self.outcome_label.setText("With these faces:\n" + "\n".join(lines) if lines else "")
        self.outcome_label.setVisible(bool(lines))
        self._refit()

    def _face_typed(self) -> None:
        self.typed = True
        self._mark_default()

    def _mark_default(self) -> None:
        default = self.default_button()
        for button in (self.roll_button, self.typed_button):
            button.setDefault(button is default)

    def _face_changed(self, value: int, planned: int) -> None:
        """A face other than the planned one counts as typed (arrows or the wheel)."""
        if value != planned:
            self._face_typed()

    def showEvent(self, event: QShowEvent) -> None:
        self.fit_to_screen()
        super().showEvent(event)
        self.default_button().setDefault(True)  # the button box may have set another

    def default_button(self) -> QPushButton:
        """What Enter does untouched: apply the faces for a GM rolling physical dice (and
        for any GM once a face is typed), else let Killbox roll."""
        typed = self.typed_button.isEnabled() and (self.physical or self.typed)
        return self.typed_button if typed else self.roll_button

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.press_enter()
            return
        super().keyPressEvent(event)

    def press_enter(self) -> None:
        """The default button's choice (:meth:`default_button`), if it may be chosen."""
        button = self.default_button()
        if button.isEnabled():
            button.click()

    def faces(self) -> list[int]:
        return [box.value() for box in self.face_boxes]

    def choose_roll(self) -> None:
        self.answer = None
        self.accept()

    def choose_typed(self) -> None:
        self.answer = self.faces()
        self.accept()
