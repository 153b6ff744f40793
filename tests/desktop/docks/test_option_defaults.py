"""A list or yes/no option the GM leaves shows the rules' default, not "—"."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtWidgets import QComboBox, QLineEdit

from desktop.docks.option_fields import UNSET, choice_words, option_field, set_field_value
from engine.rules import get_system, system_names
from engine.rules.base import OptionSpec, OptionValue
from tests.desktop.sample import sample_state

pytestmark = [pytest.mark.gui]


@pytest.mark.parametrize("name", system_names())
def test_every_list_with_a_default_shows_it(qtbot, name: str) -> None:  # type: ignore[no-untyped-def]
    """Spycraft's "Cheap Shot against" read "—" though the rules assume Speed."""
    system = get_system(name)
    state = replace(sample_state(), system=name, scale=system.scale)
    checked = 0
    options = [o for spec in system.catalogue for o in system.options_of(spec.key)]
    options += list(system.options_of("start_combat"))
    for option in options:
        listed = option.default in option.choices or (
            option.kind is bool and option.default is True)  # a list Yes, No
        if option.default is None or not listed:
            continue
        seen: list[OptionValue | None] = []
        box = option_field(option, None, seen.append, state)
        qtbot.addWidget(box)
        assert isinstance(box, QComboBox), option.name
        assert box.currentText() == choice_words(option, option.default), option.name
        assert UNSET not in [box.itemText(i) for i in range(box.count())], option.name
        assert seen == []  # still left to the rules
        checked += 1
    if name == "spycraft":
        assert checked


def test_a_true_by_default_option_reads_yes_and_no(qtbot) -> None:  # type: ignore[no-untyped-def]
    seen: list[OptionValue | None] = []
    box = option_field(OptionSpec("loud", bool, default=True), None, seen.append, sample_state())
    qtbot.addWidget(box)
    assert isinstance(box, QComboBox)
    assert [box.itemText(i) for i in range(box.count())] == ["Yes", "No"]
    set_field_value(box, "loud", False)
    set_field_value(box, "loud", None)  # back to the rules' default
    assert seen == [False, True] and box.currentText() == "Yes"


def test_a_text_option_shows_its_default(qtbot) -> None:  # type: ignore[no-untyped-def]
    line = option_field(OptionSpec("call", str, default="halt"), None, lambda _v: None,
                        sample_state())
    qtbot.addWidget(line)
    assert isinstance(line, QLineEdit) and line.placeholderText() == "halt"
