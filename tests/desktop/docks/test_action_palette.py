"""The action palette as a GM uses it turn after turn: the filter and Enter."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from engine.battlemap import Wall
from engine.rules.base import Command
from tests.desktop.tools.conftest import TOOL_NOISE, make_window, view_point
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_a_new_turn_shows_every_action_again(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """'supp' typed for the gunner stayed in the box: the next token's list showed one
    action, as if the others were gone."""
    setup = legal_setup("savage-worlds", "suppressive_fire")
    win = make_window(qtbot, tmp_path, setup.state)
    palette = win.action_palette
    palette.filter.setText("supp")
    assert sum(not b.isHidden() for b in palette.buttons.values()) < len(palette.buttons) / 2
    win.controller.apply(setup.command)
    assert palette.filter.text() == "supp"  # the same turn keeps what the GM typed
    win.controller.apply(Command("end_turn"))
    assert palette.filter.text() == ""
    assert all(not b.isHidden() for b in palette.buttons.values())


def test_enter_starts_the_topmost_match_as_shown(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Savage Worlds lists Support before Suppressive Fire in its catalogue, but the Attack
    group is shown above the Maneuver group: 'supp' and Enter started Support, the second
    button on screen."""
    setup = legal_setup("savage-worlds", "suppressive_fire")
    win = make_window(qtbot, tmp_path, setup.state)
    palette = win.action_palette
    palette.filter.setText("supp")
    QApplication.processEvents()  # lay the filtered list out
    shown = sorted((b for b in palette.buttons.values() if not b.isHidden()),
                   key=lambda b: b.mapTo(palette, QPoint(0, 0)).y())
    assert [b.text() for b in shown][:2] == ["Suppressive Fire", "Support"]
    assert palette.buttons["suppressive_fire"].isDefault()
    clicked: list[str] = []
    for key, button in palette.buttons.items():
        button.clicked.connect(lambda _checked=False, k=key: clicked.append(k))
    palette.filter.returnPressed.emit()
    assert clicked == ["suppressive_fire"]


def test_a_search_lists_the_actions_it_names_first(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Spycraft's 'aim' listed Suppressive Fire (its summary says aim) in the Attack group
    above Aim; the named action and its group now come first, and a cleared search shows
    the catalogue's order again."""
    setup = legal_setup("spycraft", "aim")
    win = make_window(qtbot, tmp_path, setup.state)
    palette = win.action_palette

    def shown() -> list[str]:
        QApplication.processEvents()  # lay the filtered list out
        buttons = [b for b in palette.buttons.values() if not b.isHidden()]
        return [b.text() for b in sorted(buttons, key=lambda b: b.mapTo(palette, QPoint()).y())]

    before = shown()
    palette.filter.setText("aim")
    found = shown()
    assert found[0] == "Aim" and len(found) > 1, found
    assert palette.in_view_order()[0] is palette.buttons["aim"]
    palette.filter.setText("")
    assert shown() == before


def _tooltip_at(qtbot, view, square: tuple[float, float]) -> str:  # type: ignore[no-untyped-def]
    """The tooltip text shown after the window system asks for one over ``square``."""
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible())  # it fades out, not at once
    point = view_point(view, (square[0] + 0.5, square[1] + 0.5))
    event = QHelpEvent(QEvent.Type.ToolTip, point, view.viewport().mapToGlobal(point))
    QApplication.sendEvent(view.viewport(), event)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_a_tokens_tooltip_does_not_cover_the_aimed_actions_card(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Hovering the target while aiming popped the token's tooltip (health, weapons) over
    the action's card beside the cursor, hiding the roll and the reasons."""
    setup = legal_setup("spycraft", "standard_attack")
    win = make_window(qtbot, tmp_path, setup.state)
    target = setup.state.token(setup.command.targets[0])
    square = (target.square.x, target.square.y)
    assert target.name in _tooltip_at(qtbot, win.view, square)  # selecting: the token tells itself
    attack = win.controller.system.action("standard_attack")
    tool = win.start_action(str(setup.command.actor), attack)
    assert win.view.tool is tool
    assert _tooltip_at(qtbot, win.view, square) == ""
    QToolTip.hideText()


def _walled_in(state, token_id: str):  # type: ignore[no-untyped-def]
    """The token boxed in by four walls: it sees no square but its own."""
    square = state.token(token_id).square
    x, y = square.x, square.y
    corners = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
    walls = tuple(Wall(a, b) for a, b in zip(corners, corners[1:] + corners[:1], strict=True))
    return replace(state, battlemap=replace(state.battlemap, walls=walls))


def test_strafe_starts_with_the_gun_not_the_knife_when_no_square_is_in_sight(
    qtbot, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """Strafe started with the Combat knife: it is refused once a pick ('needs full auto'),
    the submachine gun once per example square out of sight, and the fewest reasons won."""
    setup = legal_setup("spycraft", "strafe")
    actor = setup.state.token(str(setup.command.actor))
    knife = next(w for w in actor.weapons if w.melee)
    gun = next(w for w in actor.weapons if "full auto" in w.modes)
    state = setup.state.with_token(replace(actor, weapons=(knife, gun)))
    win = make_window(qtbot, tmp_path, _walled_in(state, actor.id))
    tool = win.start_action(actor.id, win.controller.system.action("strafe"))
    assert tool.weapon == gun.name


def test_the_card_never_says_enter_applies_a_refused_command(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Threaten at a foe out of reach: every pick made, Confirm greyed, and the card said
    'Enter or Confirm applies it' above the red reasons."""
    setup = legal_setup("spycraft", "standard_attack")
    actor = str(setup.command.actor)
    target = str(setup.command.targets[0])
    win = make_window(qtbot, tmp_path, _walled_in(setup.state, actor))
    tool = win.start_action(actor, win.controller.system.action("standard_attack"),
                            targets=[target])
    assert tool.complete and not tool.ready
    assert "applies it" not in tool.prompt() and "Escape cancels" in tool.prompt()
    unwalled = make_window(qtbot, tmp_path / "free", setup.state)
    ok = unwalled.start_action(actor, unwalled.controller.system.action("standard_attack"),
                               targets=[target])
    assert ok.ready and ok.prompt().startswith("Enter or Confirm applies it")
