"""The targeting panel fits its dock: starting an action never widens the dock and so
never shifts the map under the GM's cursor."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtWidgets import QApplication

from engine.tokens import Weapon
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]

LONG_NAME = "Razor crew gunman with the very long night-shift name"


def test_aiming_an_attack_with_long_names_keeps_the_map_where_it_was(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("savage-worlds", "shooting")
    actor = setup.state.token(str(setup.command.actor))
    weapon: Weapon = actor.weapon(str(setup.command.weapon))
    long_weapon = replace(weapon, name="Kalashnikov AK-47 with a folding stock and a drum")
    tokens = tuple(
        replace(t, name=LONG_NAME, weapons=(long_weapon,)) if t.id == actor.id else t
        for t in setup.state.tokens
    )
    win = make_window(qtbot, tmp_path, replace(setup.state, tokens=tokens))
    win.resize(1366, 740)
    QApplication.processEvents()
    before = win.view.width()
    win.token_menu(str(setup.command.target))  # the menu is built, as a right-click does
    win.action_palette.buttons["shooting"].click()
    QApplication.processEvents()
    assert win.action_palette.targeting.isVisible()
    assert LONG_NAME in win.action_palette.targeting.title.text()
    assert win.view.width() == before


def test_each_option_shows_its_label_above_its_field(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Long option names wrap above their fields, and every one stays readable."""
    from PySide6.QtWidgets import QLabel

    setup = legal_setup("spycraft", "bull_rush")
    win = make_window(qtbot, tmp_path, setup.state)
    win.resize(1366, 740)
    QApplication.processEvents()
    before = win.view.width()
    win.action_palette.buttons["bull_rush"].click()
    QApplication.processEvents()
    panel = win.action_palette.targeting
    labels = [
        panel.form.itemAt(row, panel.form.ItemRole.LabelRole).widget()
        for row in range(panel.form.rowCount())
        if panel.form.itemAt(row, panel.form.ItemRole.LabelRole) is not None
    ]
    texts = [label.text() for label in labels if isinstance(label, QLabel)]
    assert any("GM's ruling" in text for text in texts), texts  # the capital stays
    for label in labels:
        assert label.isVisible() and label.width() > 40 and label.height() > 10, label.text()
    assert win.view.width() == before
