"""The stat block as a form, built from the rule system's declared stat schema (StatSpec).

Each stat gets a box for its kind (a tick box for yes/no, a line for numbers and words, a
box of lines for a stat holding names: one name per line, each kept whole). A yes/no stat
the rules derive when it is missing (default None) gets a list of three, "rules' default",
yes and no, so that opening and closing the form never turns the derived answer into a
written "no".
A value the schema refuses (not a number, below the minimum, above the maximum, missing
when required) is shown in red with the reason, and the form is not valid until it is
fixed. Points at their maximum (hit points full) follow the maximum as the GM types it, so a
new token is not left at 10 of 7 hit points; points the GM set lower stay where they are.
A die stat (``StatSpec.notation``) is a list of dice, d4 to d12, kept as the die's sides.
The form knows no rule system: it reads only the schema.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.wheel_safe import WheelSafeComboBox
from engine.rules.base import ListOf, Notation, StatSpec
from engine.rules.gauges import maximum_pairs
from engine.rules.stat_notation import die_choices, die_number, die_words
from engine.tokens import StatNames, StatValue

Box = QLineEdit | QCheckBox | QComboBox | QPlainTextEdit

#: The choices of a yes/no stat the rules derive when it is missing: (text, data).
UNSET_FLAG = ("rules' default", "")
FLAG_CHOICES = (UNSET_FLAG, ("yes", "yes"), ("no", "no"))


def kind_name(spec: StatSpec) -> str:
    """ "int", "float", "str", "bool" or "names"."""
    return "names" if isinstance(spec.kind, ListOf) else spec.kind.__name__


def derived_flag(spec: StatSpec) -> bool:
    """A yes/no stat that may stay unset, the rules then deciding (e.g. from the side)."""
    return kind_name(spec) == "bool" and spec.default is None and not spec.required


def _flag_data(value: object) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        return "yes" if value.strip().lower() in {"1", "true", "yes"} else "no"
    return "yes" if value else "no"


def parse_stat(spec: StatSpec, text: str) -> tuple[StatValue | StatNames | None, str]:
    """(value, "") for text the schema accepts, else (None, the reason); "" is no value.

    The text only becomes a value of the stat's kind here; whether the value is allowed is
    the schema's own word (``StatSpec.problem``).
    """
    label = spec.label or spec.name
    text = text.strip()
    if not text:
        return None, (f"{label} is required" if spec.required else "")
    kind = kind_name(spec)
    value: StatValue | StatNames = text
    if kind == "names":  # one name per line: the box's lines, never text split on commas
        value = tuple(line.strip() for line in text.splitlines() if line.strip())
    try:
        if kind == "int":
            value = int(text)
        elif kind == "float":
            value = float(text)
    except ValueError:
        whole = "a whole number" if kind == "int" else "a number"
        # The schema's own words say how the number is written (a die as its sides...).
        how = f" ({spec.help})" if spec.help else ""
        return None, f"{label} must be {whole}, not {text!r}{how}"
    problem = spec.problem(value)
    return (None, f"{label} {problem}") if problem else (value, "")


class StatForm(QWidget):
    """One row per declared stat; ``values()`` gives the stat block, ``problems()`` the reasons."""

    #: A value changed (argument: the list of problems now, empty when all are good).
    validity_changed = Signal(list)

    def __init__(
        self,
        specs: Iterable[StatSpec],
        stats: Mapping[str, StatValue | StatNames],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.specs = tuple(specs)
        #: Stats the token carries that the schema does not declare: kept as they are.
        declared = {spec.name for spec in self.specs}
        self.extra = {k: v for k, v in stats.items() if k not in declared}
        self.boxes: dict[str, Box] = {}
        self.reasons: dict[str, QLabel] = {}
        #: Each schema group's fold button and rows ("Skills"), after the main block.
        self.sections: dict[str, StatSection] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        main = QFormLayout()
        layout.addLayout(main)
        for spec in self.specs:
            value = stats.get(spec.name, spec.default)
            box: Box
            if kind_name(spec) == "names":
                box = QPlainTextEdit("\n".join(value) if isinstance(value, tuple) else "")
                box.setPlaceholderText("one per line")
                box.setMaximumHeight(80)
                box.textChanged.connect(self._changed)
            elif derived_flag(spec):
                box = WheelSafeComboBox()
                for text, data in FLAG_CHOICES:
                    box.addItem(text, data)
                box.setCurrentIndex(box.findData(_flag_data(value)))
                box.currentIndexChanged.connect(self._changed)
            elif kind_name(spec) == "bool":
                box = QCheckBox()
                box.setChecked(bool(value))
                box.toggled.connect(self._changed)
            elif spec.notation is Notation.DIE:
                box = _die_box(spec, value)
                box.currentIndexChanged.connect(self._changed)
            elif spec.choices:
                box = WheelSafeComboBox()
                if not spec.required:
                    box.addItem("", "")
                for choice in spec.choices:
                    box.addItem(choice, choice)
                box.setCurrentIndex(max(0, box.findData("" if value is None else str(value))))
                box.currentIndexChanged.connect(self._changed)
            else:
                box = QLineEdit("" if value is None or isinstance(value, tuple)
                                else _text(value))
                box.textChanged.connect(self._changed)
            if getattr(spec, "help", ""):
                box.setToolTip(spec.help)
            box.setObjectName(f"stat-{spec.name}")
            reason = QLabel()
            reason.setStyleSheet("color: #e5484d")
            reason.setVisible(False)
            row = QVBoxLayout()
            row.setSpacing(0)
            row.addWidget(box)
            row.addWidget(reason)
            self._form_for(spec, layout, main).addRow(spec.label or spec.name, row)
            self.boxes[spec.name] = box
            self.reasons[spec.name] = reason
        layout.addStretch(1)
        for points, maximum in maximum_pairs(self.boxes):
            self._keep_full(points, maximum)
        self._sum_up()

    def _form_for(self, spec: StatSpec, layout: QVBoxLayout, main: QFormLayout) -> QFormLayout:
        """The main block's rows, or the rows of the stat's group (made on first use)."""
        if not spec.group:
            return main
        section = self.sections.get(spec.group)
        if section is None:
            section = self.sections[spec.group] = StatSection(spec.group, self)
            layout.addWidget(section.button)
            layout.addWidget(section.body)
        section.names.append(spec.name)
        return section.rows

    def _sum_up(self) -> None:
        """Each folded group's heading names the values that differ from the defaults."""
        for section in self.sections.values():
            given = []
            for spec in self.specs:
                box = self.boxes[spec.name]
                if spec.name in section.names and not isinstance(box, QCheckBox):
                    text = _box_text(box).strip()
                    if text and text != _default_text(spec):
                        shown = box.currentText() if isinstance(box, QComboBox) else text
                        given.append(f"{spec.label or spec.name} {shown}")
            section.summarise(given)

    def _keep_full(self, points: str, maximum: str) -> None:
        """While ``points`` reads what ``maximum`` read, it follows ``maximum``'s edits."""
        points_box, maximum_box = self.boxes[points], self.boxes[maximum]
        if not (isinstance(points_box, QLineEdit) and isinstance(maximum_box, QLineEdit)):
            return
        was = [maximum_box.text()]

        def follow(text: str) -> None:
            if points_box.text() == was[0]:
                points_box.setText(text)
            was[0] = text

        maximum_box.textChanged.connect(follow)

    def set_text(self, name: str, text: str) -> None:
        """Type into a stat's box (what a GM does; tests use it too)."""
        box = self.boxes[name]
        if isinstance(box, QCheckBox):
            box.setChecked(text.strip().lower() in {"1", "true", "yes"})
        elif isinstance(box, QComboBox):
            spec = next(s for s in self.specs if s.name == name)
            if spec.notation is Notation.DIE:
                text = str(die_number(text))  # "d8" as the GM reads it: 8 kept
            box.setCurrentIndex(box.findData(_flag_data(text) if derived_flag(spec) else text))
        elif isinstance(box, QPlainTextEdit):
            box.setPlainText(text)
        else:
            box.setText(text)

    def _changed(self) -> None:
        self._sum_up()
        self.validity_changed.emit(self.problems())

    def problems(self) -> list[str]:
        """Every refused value's reason (also shown under its box)."""
        found = []
        for spec in self.specs:
            box = self.boxes[spec.name]
            if isinstance(box, QCheckBox) or derived_flag(spec):
                reason = ""
            else:
                reason = parse_stat(spec, _box_text(box))[1]
            self.reasons[spec.name].setText(reason)
            self.reasons[spec.name].setVisible(bool(reason))
            if reason:
                found.append(reason)
                for section in self.sections.values():
                    if spec.name in section.names:
                        section.unfold()  # a refused value is never folded out of sight
        return found

    def values(self) -> dict[str, StatValue | StatNames]:
        """The stat block: the form's good values, plus undeclared stats the token had."""
        result: dict[str, StatValue | StatNames] = dict(self.extra)
        for spec in self.specs:
            box = self.boxes[spec.name]
            if isinstance(box, QCheckBox):
                result[spec.name] = box.isChecked()
                continue
            if derived_flag(spec):
                answer = _box_text(box)
                if answer:
                    result[spec.name] = answer == "yes"
                continue
            value, _reason = parse_stat(spec, _box_text(box))
            if value is not None:
                result[spec.name] = value
        return result


def _die_box(spec: StatSpec, value: object) -> QComboBox:
    """A die stat as its dice: d4 .. d12 (and untrained where 0 is allowed); a size the
    list lacks (a d5 from a file) is listed too, so opening the form never changes it."""
    box = WheelSafeComboBox()
    if not spec.required and spec.default is None:
        box.addItem("", "")
    choices = list(die_choices(spec.minimum))
    if isinstance(value, int) and value not in {number for _w, number in choices}:
        choices.append((die_words(value), value))
    for words, number in choices:
        box.addItem(words, str(number))
    box.setCurrentIndex(max(0, box.findData("" if value is None else str(value))))
    return box


class StatSection:
    """A group of the stat block under its own heading, folded until the GM opens it."""

    def __init__(self, title: str, parent: QWidget) -> None:
        self.title = title
        self.names: list[str] = []
        self.button = QToolButton(parent)
        self.button.setObjectName(f"stat-group-{title}")
        self.button.setCheckable(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.RightArrow)
        self.button.setAutoRaise(True)
        self.button.toggled.connect(self._show)
        self.body = QWidget(parent)
        self.rows = QFormLayout(self.body)
        self.rows.setContentsMargins(12, 0, 0, 0)
        self.body.setVisible(False)
        self.summarise([])

    def summarise(self, given: list[str]) -> None:
        words = ", ".join(given) if given else "all as the rules assume"
        self.button.setText(f"{self.title} ({len(self.names)}): {words}")

    def unfold(self) -> None:
        self.button.setChecked(True)

    def _show(self, shown: bool) -> None:
        self.body.setVisible(shown)
        self.button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)


def _default_text(spec: StatSpec) -> str:
    return "" if spec.default is None or isinstance(spec.default, tuple) else _text(spec.default)


def _box_text(box: QLineEdit | QComboBox | QPlainTextEdit) -> str:
    if isinstance(box, QPlainTextEdit):
        return box.toPlainText()
    return str(box.currentData() or "") if isinstance(box, QComboBox) else box.text()


def _text(value: StatValue) -> str:
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    return str(value)
