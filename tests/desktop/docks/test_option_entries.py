"""The form field of a list or mapping option: picks give typed values, ids kept whole."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox, QLineEdit

from desktop.docks.option_entries import EntriesField, key_choices
from desktop.tools.action_tool import ActionTool
from engine.grid import Square
from engine.rules.base import ListOf, MapOf, OptionValue, Ref
from engine.tokens import Side, Token
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]

AWKWARD = Token('b, "the|second"=x;y:z', "Bob, the second", Side.ENEMY, Square(1, 1))
PLAIN = Token("a", "Ann", Side.PARTY, Square(0, 0))


def field(qtbot, kind: ListOf | MapOf, choices: tuple[OptionValue, ...] = ()):  # type: ignore[no-untyped-def]
    given: list[OptionValue | None] = []
    keys = key_choices(kind, choices, (PLAIN, AWKWARD), ("enemy", "party"))
    entries = EntriesField(kind, keys, choices, given.append)
    qtbot.addWidget(entries)
    return entries, given


def pick(entries: EntriesField, label: str) -> None:
    entries.key_box.setCurrentIndex(entries.key_box.findText(label))
    entries.add_current()


def test_a_token_list_keeps_ids_whole_and_in_the_order_picked(qtbot) -> None:  # type: ignore[no-untyped-def]
    entries, given = field(qtbot, ListOf(Ref.TOKEN))
    pick(entries, "Bob, the second")
    pick(entries, "Ann")
    assert given[-1] == (AWKWARD.id, "a")
    assert entries.shown.item(0).text() == "Bob, the second"
    entries.shown.setCurrentRow(0)
    entries.remove_selected()
    assert given[-1] == ("a",)
    entries.shown.setCurrentRow(0)
    entries.remove_selected()
    assert given[-1] is None  # nothing picked: the option is left out


def test_a_side_list_offers_the_sides(qtbot) -> None:  # type: ignore[no-untyped-def]
    entries, given = field(qtbot, ListOf(Ref.SIDE))
    assert [entries.key_box.itemText(i) for i in range(entries.key_box.count())] == [
        "enemy", "party"]
    pick(entries, "party")
    assert given[-1] == ("party",)


def test_a_mapping_to_squares_and_to_choices(qtbot) -> None:  # type: ignore[no-untyped-def]
    squares, given = field(qtbot, MapOf(Square))
    squares.x_box.setValue(6)
    squares.y_box.setValue(8)
    pick(squares, "Bob, the second")
    squares.y_box.setValue(9)
    pick(squares, "Bob, the second")  # picked again: the new square replaces the old
    assert given[-1] == ((AWKWARD.id, Square(6, 9)),)
    cards, dealt = field(qtbot, MapOf(str), ("AS", "10H"))
    assert isinstance(cards.value_box, QComboBox)
    cards.value_box.setCurrentIndex(1)
    pick(cards, "Ann")
    assert dealt[-1] == (("a", "10H"),)
    words, said = field(qtbot, MapOf(str))
    assert isinstance(words.value_box, QLineEdit)
    words.value_box.setText("x=1, y|2")
    pick(words, "Bob, the second")
    assert said[-1] == ((AWKWARD.id, "x=1, y|2"),)


def test_the_targeting_panel_sends_a_list_option(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("savage-worlds", "suppressive_fire")
    window = make_window(qtbot, tmp_path, setup.state)
    window.action_palette.buttons["suppressive_fire"].click()
    tool = window.view.tool
    assert isinstance(tool, ActionTool)
    panel = window.action_palette.targeting
    assert isinstance(panel.fields["hit_first"], EntriesField)
    panel.set_field("hit_first", ("e1",))
    assert tool.options["hit_first"] == ("e1",)
    tool.squares = list(setup.command.squares)
    tool.weapon = setup.command.weapon
    command = tool.build()
    assert command.names("hit_first") == ("e1",)
    assert window.controller.system.preview(window.controller.state, command).legal


def test_the_list_shows_only_once_something_is_entered(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A form of several list options stays one row each until the GM adds to one."""
    entries, given = field(qtbot, ListOf(Ref.TOKEN))
    entries.show()
    assert entries.shown.isHidden() and entries.remove.isHidden()
    pick(entries, "Ann")
    pick(entries, "Bob, the second")
    assert not entries.shown.isHidden() and not entries.remove.isHidden()
    assert entries.shown.height() >= 2 * entries.shown.sizeHintForRow(0)
    entries.remove_selected()  # nothing selected: the last one goes
    assert given[-1] == ("a",)
    entries.remove_selected()
    assert given[-1] is None and entries.shown.isHidden()
