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
    labels = list(panel.labels.values())
    texts = [label.text() for label in labels if isinstance(label, QLabel)]
    assert any("GM's ruling" in text for text in texts), texts  # the capital stays
    for label in labels:
        assert label.isVisible() and label.width() > 40 and label.height() > 10, label.text()
    assert win.view.width() == before


def test_an_action_with_many_options_keeps_the_window_on_a_laptop_screen(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Savage Worlds' Suppressive Fire on the night street (a weapon, a flag, a list of
    twelve tokens, a long preview): the fields scroll, nothing forces the window taller
    than a laptop screen, Confirm stays in reach."""
    from PySide6.QtCore import QSize

    from desktop.main_window import default_size
    from engine.rules.base import Command
    from tests.desktop.test_fight import open_map

    win = open_map(qtbot, tmp_path, "night_street")
    win.resize(default_size(QSize(1366, 768)))
    win.controller.apply(Command("start_combat"))
    QApplication.processEvents()
    height, view = win.height(), win.view.size()
    win.action_palette.buttons["suppressive_fire"].click()
    QApplication.processEvents()
    panel = win.action_palette.targeting
    assert panel.isVisible() and panel.body.height() > 100
    assert win.height() == height and win.view.size() == view
    # It was 700 before the fields scrolled: 768 with the title and task bars.
    assert win.minimumSizeHint().height() <= 600, win.minimumSizeHint()
    confirm = panel.confirm_button
    corner = confirm.mapTo(win, confirm.rect().bottomRight())
    assert confirm.isVisible() and win.rect().contains(corner)


def test_snap_attack_offers_the_tokens_weapons_as_the_other_attacks_do(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Cities Without Number's Snap Attack is a melee or ranged attack: its weapon box
    showed "—" (the action did not say it takes a weapon) while the rules used one."""
    from desktop.docks.option_fields import UNSET

    setup = legal_setup("cities-without-number", "snap_attack")
    win = make_window(qtbot, tmp_path, setup.state)
    actor = str(setup.command.actor)
    names = [w.name for w in setup.state.token(actor).weapons]
    tool = win.start_action(actor, win.controller.system.action("snap_attack"),
                            setup.command.targets)
    box = win.action_palette.targeting.fields["weapon"]
    assert box.currentText() != UNSET and box.currentData() in names
    assert tool.weapon == box.currentData()
    assert tool.preview is not None and tool.weapon in tool.preview.summary


def test_the_options_card_is_readable_on_a_1366_by_768_screen(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Strafe on the warehouse at 1366x768: each option's label takes the card's width (it
    wrapped at a third of it), the list's header gives the card its room while aiming, and
    the fields keep a readable height."""
    from PySide6.QtCore import QSize

    from desktop.docks.targeting import MIN_BODY_HEIGHT
    from desktop.main_window import default_size
    from tests.desktop.test_fight import open_map

    win = open_map(qtbot, tmp_path, "warehouse")
    win.resize(default_size(QSize(1366, 768)))
    palette = win.action_palette
    win.start_action("merc-2", win.controller.system.action("strafe"))
    QApplication.processEvents()
    panel = palette.targeting
    assert not palette.title.isVisible() and not palette.acting.isVisible()
    assert palette.filter.isVisible()
    assert panel.body.height() >= MIN_BODY_HEIGHT
    room = panel.body.viewport().width()
    for name, label in panel.labels.items():
        metrics = label.fontMetrics()
        assert label.width() >= room * 0.9, (name, label.width(), room)
        if metrics.horizontalAdvance(label.text()) < room - 10:  # fits one line: one line
            assert label.height() < 2 * metrics.lineSpacing(), (name, label.height())
    win.cancel_tool()
    QApplication.processEvents()
    assert palette.title.isVisible() and palette.acting.isVisible()
