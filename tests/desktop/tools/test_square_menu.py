"""A right click on an empty square offers what the acting token may do aimed there.

Playtest: a Savage Worlds GM right-clicked the square a grenade should land on and got only
"Ping this square"; the throw, Suppressive Fire and Run were in the Actions dock alone.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu

from desktop.movement import plan_drag
from desktop.scene.style import SQUARE
from desktop.tools.action_tool import ActionTool
from engine.grid import Square
from engine.rules.base import Command
from tests.desktop.editing.test_token_editor import fill_and_ok
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import ACTOR, legal_setup

#: A popped-up menu asks the offscreen plugin for the keyboard it cannot grab.
POPUP_NOISE = "This plugin does not support grabbing the keyboard"
pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE, POPUP_NOISE)]


def right_click_menu(win, square: Square) -> QMenu:  # type: ignore[no-untyped-def]
    """The menu the window pops up for a right click on ``square``, closed once caught."""
    caught: list[QMenu] = []
    tries = [300]

    def catch() -> None:
        popup = QApplication.activePopupWidget()
        if isinstance(popup, QMenu):
            caught.append(popup)
            popup.close()
        elif tries[0] > 0:
            tries[0] -= 1
            QTimer.singleShot(10, catch)

    QTimer.singleShot(0, catch)
    centre = QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE)
    win._context_menu(centre, win.view.viewport().mapToGlobal(QPoint(5, 5)))
    assert len(caught) == 1
    return caught[0]


def empty_square_for(win, command: Command) -> Square:  # type: ignore[no-untyped-def]
    """The empty square nearest the actor where the engine allows ``command`` and a move."""
    controller = win.controller
    state = controller.state
    actor = state.token(command.actor)
    squares = sorted(
        (Square(x, y) for x in range(state.battlemap.width) for y in range(state.battlemap.height)
         if state.token_at(Square(x, y)) is None and Square(x, y) != actor.square),
        key=lambda s: max(abs(s.x - actor.square.x), abs(s.y - actor.square.y)),
    )
    return next(
        s for s in squares
        if controller.preview(replace(command, squares=(s,))).legal
        and controller.preview(plan_drag(state, controller.system, actor.id, s).command).legal
    )


def entries(menu: QMenu) -> dict[str, bool]:
    return {a.text(): a.isEnabled() for a in menu.actions() if a.text() and not a.menu()}


def test_a_square_offers_the_area_attack_and_the_move_aimed_there(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("savage-worlds", "area_attack")
    win = make_window(qtbot, tmp_path, setup.state)
    aimed = empty_square_for(win, setup.command)
    throw = f"Area Effect Attack with the {setup.command.weapon} here"
    menu = right_click_menu(win, aimed)
    offered = entries(menu)
    assert offered.get(throw) is True, offered
    assert offered.get("Move here") is True, offered
    assert any(text.startswith("Ping this square") for text in offered)
    why_not = next(a.menu() for a in menu.actions() if a.menu())
    assert all(": " in a.text() and not a.isEnabled() for a in why_not.actions())

    next(a for a in menu.actions() if a.text() == throw).trigger()
    tool = win.view.tool
    assert isinstance(tool, ActionTool) and tool.spec.key == "area_attack"
    assert tool.squares == [aimed] and tool.ready  # the preview card's Confirm applies it
    tool.cancel()

    mover = win.controller.state.token(ACTOR)
    menu = right_click_menu(win, aimed)
    next(a for a in menu.actions() if a.text() == "Move here").trigger()
    assert win.controller.state.token(ACTOR).square == aimed  # at once, as a drag's drop
    assert win.view.tool is win.default_tool
    win.menu_actions["undo"].trigger()
    assert win.controller.state.token(ACTOR).square == mover.square
    win.close()


def test_a_square_out_of_reach_says_why_not_and_a_token_keeps_its_own_menu(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("spycraft", "suppressive_fire")
    win = make_window(qtbot, tmp_path, setup.state)
    state = win.controller.state
    actor = state.token(ACTOR)
    far = max(
        (Square(x, y) for x in range(state.battlemap.width) for y in range(state.battlemap.height)
         if state.token_at(Square(x, y)) is None),
        key=lambda s: abs(s.x - actor.square.x) + abs(s.y - actor.square.y),
    )
    menu = right_click_menu(win, far)
    why_not = next(a.menu() for a in menu.actions() if a.menu())
    refused = [a.text() for a in why_not.actions()]
    assert any(text.startswith("Standard Move here: ") for text in refused), refused
    other = next(t for t in state.tokens if t.id != ACTOR)
    own = entries(right_click_menu(win, other.square))
    assert f"Select {other.name}" in own and "Standard Move here" not in own
    win.close()


def test_a_drag_past_the_move_names_the_longer_move_that_reaches(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Spycraft: a drag past the double move (60 ft) was refused with 'no route within
    60 ft' alone; Run reaches it, and the right-click menu of the square offers it."""
    setup = legal_setup("spycraft", "run")
    # Room for a Run past the double move's 60 ft.
    wide = replace(setup.state, battlemap=replace(setup.state.battlemap, width=30, height=30))
    win = make_window(qtbot, tmp_path, wide)
    win.view.resetTransform()
    win.view.scale(0.3, 0.3)  # the whole map in view, where the drag ends
    controller = win.controller
    state = controller.state
    actor = state.token(ACTOR)
    run = controller.system.action("run")

    def only_run_reaches(square: Square) -> bool:
        plan = plan_drag(state, controller.system, ACTOR, square)
        moves = plan.found and controller.preview(plan.command).legal
        return not moves and ActionTool(win.host, ACTOR, run).preview_at(square).legal

    far = next(
        Square(x, y) for y in range(state.battlemap.height) for x in range(state.battlemap.width)
        if state.token_at(Square(x, y)) is None and only_run_reaches(Square(x, y))
    )
    viewport = win.view.viewport()

    def at(square: Square) -> QPoint:
        return win.view.mapFromScene(QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE))

    start, end = at(actor.square), at(far)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for i in range(1, 7):
        qtbot.mouseMove(viewport, start + (end - start) * i / 6)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    said = win.statusBar().currentMessage()
    assert state.token(ACTOR).square == controller.state.token(ACTOR).square
    assert said.startswith("Not moved: ") and "; right-click the square for Run" in said
    assert entries(right_click_menu(win, far)).get("Run here") is True
    win.close()


def test_the_right_click_menus_make_and_edit_tokens_as_a_double_click_does(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Playtest: a GM from Foundry VTT right-clicked an empty square to add a token made by
    hand and got only 'Ping this square'; the token editor was behind a double-click that
    nothing mentioned, and a token's own menu had no way to its editor either."""
    setup = legal_setup("cities-without-number", "ranged_attack")
    win = make_window(qtbot, tmp_path, setup.state)
    win.token_editing.run_editor, edited = fill_and_ok(lambda editor: None)  # OK as it is
    state = win.controller.state
    empty = empty_square_for(win, setup.command)
    menu = right_click_menu(win, empty)
    new = next(a for a in menu.actions() if a.text() == "New token here… (double-click)")
    new.trigger()
    made = win.controller.state.token_at(empty)
    assert made is not None and made.id not in {t.id for t in state.tokens}
    target = state.token(str(setup.command.target))
    own = right_click_menu(win, target.square)
    edit = next(a for a in own.actions() if a.text() == f"Edit {target.name}… (double-click)")
    edit.trigger()
    assert len(edited) == 2 and win.controller.selected == target.id
    win.close()
