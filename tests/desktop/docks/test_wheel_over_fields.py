"""A wheel turn over the targeting panel's weapon box scrolls the panel and never changes
the weapon unless the GM has clicked into the box (it once turned a submachine gun into a
stun baton while the GM scrolled the card to read the preview)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QWidget

from desktop.docks.option_fields import option_field
from engine.rules import get_system
from engine.tokens import Weapon
from tests.desktop.sample import sample_state
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def _turn_wheel(widget: QWidget, notches: int = -1) -> None:
    """``notches`` (down when negative) over the middle of ``widget``, as a mouse wheel
    sends them."""
    inside = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(inside, QPointF(widget.mapToGlobal(inside)), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_the_weapon_box_leaves_the_weapon_until_the_box_is_clicked(
    qtbot, tmp_path  # type: ignore[no-untyped-def]
) -> None:
    setup = legal_setup("cities-without-number", "ranged_attack")
    actor = setup.state.token(str(setup.command.actor))
    gun: Weapon = actor.weapon(str(setup.command.weapon))
    # A second gun: a melee weapon is greyed for a ranged attack, and the wheel skips it.
    baton = replace(gun, name="Backup pistol")
    tokens = tuple(replace(t, weapons=(gun, baton)) if t.id == actor.id else t
                   for t in setup.state.tokens)
    win = make_window(qtbot, tmp_path, replace(setup.state, tokens=tokens))
    win.token_menu(str(setup.command.target))
    win.action_palette.buttons["ranged_attack"].click()
    panel = win.action_palette.targeting
    tool = panel.tool
    assert tool is not None
    tool.set_weapon(gun.name)
    box = panel.fields["weapon"]
    assert isinstance(box, QComboBox) and box.currentData() == gun.name

    _turn_wheel(box)
    assert box.currentData() == gun.name
    assert tool.weapon == gun.name

    box.setFocus()  # clicked or tabbed into: now the wheel is the GM's choice
    qtbot.waitUntil(box.hasFocus)
    _turn_wheel(box)
    assert box.currentData() == baton.name
    assert tool.weapon == baton.name


def test_number_and_list_option_fields_ignore_a_passing_wheel(qtbot) -> None:  # type: ignore[no-untyped-def]
    system = get_system("d20-firearms")
    state = replace(sample_state(), system=system.name, scale=system.scale)
    seen: list[object] = []
    fields = [
        option_field(option, None, seen.append, state)
        for spec in system.catalogue for option in system.options_of(spec.key)
        if option.kind in (int, float) or option.choices
    ]
    assert fields, "d20 declares number and list options"
    for field in fields:
        qtbot.addWidget(field)
        field.show()
        _turn_wheel(field, -1)  # a list moves down from "—" ...
        _turn_wheel(field, 1)  # ... a number box up from its lowest value, "—"
    assert seen == []
