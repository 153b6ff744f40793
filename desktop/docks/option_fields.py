"""One form field per declared option (``OptionSpec``): the targeting panel's options form
and the start-combat dialog's are built the same way from the system's schema.

A list for options with choices, a tick box for true/false, number boxes, an entries field
for a list or mapping option (its keys from the encounter's tokens and sides), else a text
line; each shows the rules' default while the GM leaves it (the command leaves it out). A
true/false option whose default is true gets a list (Yes, No) so the GM can also say no.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from desktop.docks.option_entries import EntriesField, key_choices
from desktop.wheel_safe import WheelSafeComboBox, WheelSafeDoubleSpinBox, WheelSafeSpinBox
from engine.encounter import EncounterState
from engine.rules.base import ListOf, MapOf, OptionSpec, OptionValue

UNSET = "—"  # the list entry of an option left to the rules, which declare no default
#: The Qt property of a list with no unset entry: the index of the rules' default.
DEFAULT_INDEX = "rulesDefaultIndex"
#: How far a number box reaches where the option declares no bound of its own.
UNBOUNDED = 99_999

Changed = Callable[[OptionValue | None], None]


def option_label(option: OptionSpec) -> str:
    """The field's label: the option's own words with a capital first letter (not
    ``str.capitalize``, which would turn "the GM's" into "The gm's")."""
    text = option.label or option.name
    return text[:1].upper() + text[1:]


def form_label(text: str) -> QLabel:
    """A form row's label that wraps: a long option name must not widen the actions dock
    (and so shrink the map). Not Ignored in width: a form gives a label its size hint."""
    label = QLabel(text)
    label.setWordWrap(True)
    return label


def narrow_combo_box() -> QComboBox:
    """A list box sized by the dock, not by its longest entry (a long weapon name would
    otherwise widen the dock and shift the map when targeting starts). The wheel scrolls the
    form past it unless the GM has clicked into it."""
    box = WheelSafeComboBox()
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(8)
    return box


def _choices_of(option: OptionSpec) -> tuple[OptionValue, ...]:
    if option.choices:
        return option.choices
    if option.kind is bool and option.default is True:
        return (True, False)
    return ()


def _bounds(option: OptionSpec) -> tuple[float, float]:
    """The range a number box offers: the option's own bounds, else a GM-sized one."""
    low = -UNBOUNDED if option.minimum is None else option.minimum
    high = UNBOUNDED if option.maximum is None else option.maximum
    return float(low), float(high)


def _shown_default(option: OptionSpec, unset: float) -> float:
    """What a number box shows for an option left unset: the rules' default where the
    option declares one ("Actions per round" read "—" though the rules count 2; the
    command still leaves it out until the GM edits it), else the unset mark."""
    default = option.default
    if isinstance(default, int | float) and not isinstance(default, bool):
        return float(default)
    return unset


def choice_words(option: OptionSpec, choice: OptionValue) -> str:
    """What a list shows for one choice: the system's words, "Yes"/"No" for true/false."""
    if isinstance(choice, bool) and not option.choice_words:
        return "Yes" if choice else "No"
    return option.words_for(choice)


def _choice_box(
    option: OptionSpec, choices: tuple[OptionValue, ...], current: OptionValue | None,
    changed: Changed,
) -> QComboBox:
    """A list of the choices. Where the rules' default is one of them, it shows selected
    with no unset entry ("Cheap Shot against —" hid that the rules assume Speed; the command
    still leaves it out until the GM picks); else the unset entry comes first."""
    box = narrow_combo_box()
    ruled = option.default is not None and option.default in choices
    if not ruled:
        box.addItem(UNSET, None)
    for choice in choices:
        box.addItem(choice_words(option, choice), choice)
    shown = current if current is not None else option.default
    if shown is not None:
        box.setCurrentIndex(max(0, box.findData(shown)))
    if ruled:
        box.setProperty(DEFAULT_INDEX, box.findData(option.default))
    box.currentIndexChanged.connect(lambda _i, b=box: changed(b.currentData()))
    return box


def option_field(
    option: OptionSpec, current: OptionValue | None, changed: Changed, state: EncounterState
) -> QWidget:
    """A field for ``option`` showing ``current``; every edit calls ``changed`` (None: unset).
    ``state`` offers its tokens and sides as the keys of a list or mapping option."""
    if isinstance(option.kind, ListOf | MapOf):
        sides = sorted({token.side.value for token in state.tokens})
        keys = key_choices(option.kind, option.choices, state.tokens, sides)
        entries = EntriesField(option.kind, keys, option.choices, changed)
        entries.set_value(current)
        return entries
    choices = _choices_of(option)
    if choices:
        return _choice_box(option, choices, current, changed)
    if option.kind is bool:
        tick = QCheckBox()
        tick.setTristate(False)
        tick.setChecked(bool(current))
        tick.toggled.connect(lambda on: changed(True if on else None))
        return tick
    if option.kind is int:
        low, high = _bounds(option)
        unset = int(low) - 1  # the box's lowest value stands for "unset"
        spin = WheelSafeSpinBox()
        spin.setRange(unset, int(high))
        spin.setSpecialValueText(UNSET)
        shown = current if isinstance(current, int) else _shown_default(option, unset)
        spin.setValue(int(shown))
        spin.valueChanged.connect(lambda value: changed(None if value == unset else value))
        return spin
    if option.kind is float:
        low, high = _bounds(option)
        number = WheelSafeDoubleSpinBox()
        number.setRange(low - 1.0, high)
        number.setSpecialValueText(UNSET)
        number.setValue(
            float(current) if isinstance(current, int | float)
            else _shown_default(option, low - 1.0)
        )
        number.valueChanged.connect(
            lambda value: changed(None if value < low else value)
        )
        return number
    line = QLineEdit(str(current) if current is not None else "")
    line.setPlaceholderText(UNSET if option.default is None else str(option.default))
    line.textChanged.connect(lambda text: changed(text or None))
    return line


def set_field_value(field: QWidget, name: str, value: OptionValue | None) -> None:
    """Set a field as the GM would (tests and the token menu use it)."""
    if isinstance(field, EntriesField):
        field.set_value(value)
    elif isinstance(field, QComboBox):
        index = field.findData(value)
        ruled = field.property(DEFAULT_INDEX)
        if value is None and index < 0 and ruled is not None:
            index = int(ruled)  # no unset entry: the rules' default stands for it
        if index < 0:
            raise ValueError(f"{value!r} is not offered for {name}")
        if index == field.currentIndex():  # the rules' default it already shows: still given
            field.currentIndexChanged.emit(index)
        else:
            field.setCurrentIndex(index)
    elif isinstance(field, QCheckBox):
        field.setChecked(bool(value))
    elif isinstance(field, QSpinBox):
        number = int(value) if isinstance(value, int | float) else field.minimum()
        _set_number(field, number)
    elif isinstance(field, QDoubleSpinBox):
        _set_number(field, float(value) if isinstance(value, int | float) else field.minimum())
    elif isinstance(field, QLineEdit):
        field.setText("" if value is None else str(value))


def _set_number(field: QSpinBox | QDoubleSpinBox, number: float) -> None:
    """Set a number box; set to the rules' default it already shows, the value is still
    given (Qt says nothing when the value does not change, and the option stayed unset)."""
    if field.value() == number:
        field.valueChanged.emit(number)
    else:
        field.setValue(number)  # type: ignore[arg-type]
