"""A drag past the ordinary move spends what the rules allow, as a VTT's drag ruler does:
Spycraft's double move, d20's double move, Cities Without Number's second Move with the
Main action, Savage Worlds' run. While dragging, the route's squares are tinted by band
(the ordinary move's colour, then the longer band's) and the tag names the band and its
cost; the drop moves the token, spends the budget, says so in the status bar, and one undo
takes it back."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from desktop.scene import style
from desktop.scene.drag_bands import band_colour
from desktop.scene.style import SQUARE
from desktop.scene.token_item import TokenLabelItem
from engine.grid import Square
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import ACTOR, open_room

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE, *TOOL_NOISE)]

#: Per system: the budget a drag two squares past the ordinary move leaves, and its log.
SPENT = {
    "spycraft": ({"half": 0, "bonus": 0}, "double-moves to"),
    "d20-firearms": ({"actions": 1}, "(2 move actions)"),
    "cities-without-number": ({"main": 0, "move": 0}, "(the Move and the Main action)"),
    "savage-worlds": ({"actions": 3}, "runs: +"),
}


@pytest.mark.parametrize("system_name", sorted(SPENT))
def test_a_drag_past_the_move_spends_the_longer_band(qtbot, tmp_path, system_name: str) -> None:  # type: ignore[no-untyped-def]
    fight = open_room(system_name)
    win = make_window(qtbot, tmp_path, fight.state)
    controller = win.controller
    before = controller.state
    first = controller.system.drag_bands(before, ACTOR)[0]
    start = before.token(ACTOR).square
    end = Square(start.x + first.reach + 1, start.y)  # one square past the ordinary move
    viewport = win.view.viewport()

    def at(square: Square):  # type: ignore[no-untyped-def]
        return win.view.mapFromScene(QPointF((square.x + 0.5) * SQUARE,
                                             (square.y + 0.5) * SQUARE))

    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(start))
    for step in range(1, end.x - start.x + 1):
        qtbot.mouseMove(viewport, at(Square(start.x + step, start.y)))
        QApplication.processEvents()
    tool = win.default_tool
    plan = tool._drag.plan  # type: ignore[union-attr]
    assert plan is not None and plan.band == 1 and dict(plan.command.options)
    tinted = {item.pen().color().name() for item in tool.band_marks}  # type: ignore[attr-defined]
    assert tinted == {style.ROUTE_OK.name(), style.ROUTE_LONG.name()}
    assert plan.square_bands == (0,) * first.reach + (1,)
    band = controller.system.drag_bands(before, ACTOR)[1]
    scale = before.scale
    assert f"{plan.cost} of {scale.describe(band.reach)} · {band.name}" in tool.tag._text
    assert tool.tag._colour.name() == band_colour(1).name()
    # Read over a crowd: the tag stacks above every name plate (it sat under them, and a
    # neighbour's 'Dock foreman (hostage)' hid its '50 ft of 60 ft' in the window).
    plates = [item for item in win.scene.items() if isinstance(item, TokenLabelItem)]
    assert plates and tool.tag.scene() is win.scene
    assert all(tool.tag.topLevelItem().zValue() > p.topLevelItem().zValue() for p in plates)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(end))

    budget, logged = SPENT[system_name]
    after = controller.state
    assert after.token(ACTOR).square == end
    spent = after.combat.combatant(ACTOR).budget
    assert {k: spent[k] for k in budget} == budget
    assert logged in win.statusBar().currentMessage()
    assert controller.undo()
    assert controller.state == before
    win.close()


def test_d20_a_triple_move_shows_where_the_double_ends(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Three bands, three tints: the GM sees the ordinary move, the double move and the
    triple move along one route, and the tag counts of the triple's 90 ft."""
    fight = open_room("d20-firearms")
    win = make_window(qtbot, tmp_path, fight.state)
    state = win.controller.state
    move, double, _ = win.controller.system.drag_bands(state, ACTOR)
    start = state.token(ACTOR).square
    viewport = win.view.viewport()

    def at(square: Square):  # type: ignore[no-untyped-def]
        return win.view.mapFromScene(QPointF((square.x + 0.5) * SQUARE,
                                             (square.y + 0.5) * SQUARE))

    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(start))
    for step in range(1, double.reach + 2):
        qtbot.mouseMove(viewport, at(Square(start.x + step, start.y)))
    plan = win.default_tool._drag.plan  # type: ignore[union-attr]
    assert plan.square_bands == (0,) * move.reach + (1,) * move.reach + (2,)
    tinted = {item.pen().color().name() for item in win.default_tool.band_marks}
    assert tinted == {style.ROUTE_OK.name(), style.ROUTE_LONG.name(), style.ROUTE_LONGEST.name()}
    assert "65 ft of 90 ft · triple move · 3 of 3 actions" in win.default_tool.tag._text
    qtbot.keyClick(win.view, Qt.Key.Key_Escape)
    win.close()
