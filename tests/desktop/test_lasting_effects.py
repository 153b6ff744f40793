"""Lasting effects stay on the map while they last, drawn from the rule system's state:
Suppressive Fire zones, Covering Fire and Overwatch cones, tokens waiting (Ready, Hold);
a drag through a zone names the final attack before the drop."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from desktop.documents import Document
from desktop.movement import plan_drag
from desktop.scene.style import SQUARE
from engine.grid import Square
from engine.rules.base import Command
from tests.desktop.tools.conftest import TOOL_NOISE, make_window, render_png
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def centre(win, square):  # type: ignore[no-untyped-def]
    QApplication.processEvents()
    return win.view.mapFromScene(QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE))


#: Ann suppresses the square just north of Cal, who then runs north through it.
ZONE, RUN_TO = Square(7, 5), Square(7, 3)


def suppressed_window(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    setup = legal_setup("spycraft", "suppressive_fire")
    win = make_window(qtbot, tmp_path, setup.state)
    win.controller.apply(replace(setup.command, squares=(ZONE,)))
    return win


def test_a_suppressive_fire_zone_stays_and_a_drag_through_it_names_the_final_attack(
    qtbot, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    win = suppressed_window(qtbot, tmp_path)
    zone = ZONE
    lasting = win.controller.system.lasting_overlay(win.controller.state)
    assert zone in lasting.squares(lasting.areas[0].tone)
    assert zone in win.lasting.squares
    # Still there after other commands, until the shooter's next turn.
    win.controller.apply(Command("end_turn"))
    assert zone in win.lasting.squares
    while win.controller.state.combat.active != "e1":
        win.controller.apply(Command("end_turn"))
    cal = win.controller.state.token("e1")
    # Drag Cal across the zone: the tag says what the route draws before the drop.
    viewport = win.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=centre(win, cal.square))
    qtbot.mouseMove(viewport, centre(win, zone))
    qtbot.mouseMove(viewport, centre(win, RUN_TO))
    tool = win.default_tool
    tool.drag_to(QPointF((RUN_TO.x + 0.5) * SQUARE, (RUN_TO.y + 0.5) * SQUARE))
    assert zone in tool._drag.plan.route  # type: ignore[attr-defined]
    shown = tool.tag.text.replace("\n", " ")
    assert "final attack" in shown and "Ann" in shown
    render_png(win, "lasting-suppression-drag")
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=centre(win, RUN_TO))


def test_the_preview_of_a_move_through_a_zone_names_the_final_attack(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = suppressed_window(qtbot, tmp_path)
    while win.controller.state.combat.active != "e1":
        win.controller.apply(Command("end_turn"))
    plan = plan_drag(win.controller.state, win.controller.system, "e1", RUN_TO)
    assert ZONE in plan.route
    preview = win.controller.preview(plan.command)
    assert any("final attack" in note for note in preview.notes)
    assert "a1" in preview.overlay.token_ids()
    # A route around the zone draws nothing.
    aside = plan_drag(win.controller.state, win.controller.system, "e1", Square(8, 5))
    assert ZONE not in aside.route
    assert not win.controller.preview(aside.command).notes


def test_a_covering_fire_cone_stays_until_the_shooters_next_turn(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("d20-firearms", "covering_fire")
    win = make_window(qtbot, tmp_path, setup.state)
    win.controller.apply(setup.command)
    assert win.lasting.squares, "the covered cone is drawn"
    assert any("Covering Fire" in item.toolTip() for item in win.lasting.items)
    render_png(win, "lasting-covering-fire")
    win.controller.apply(Command("end_turn"))
    assert win.lasting.squares, "still covered in the others' turns"
    while win.controller.state.combat.active != "a1":
        win.controller.apply(Command("end_turn"))
    assert not win.lasting.squares, "the cone lapses at the shooter's next turn"


def test_overwatch_draws_its_cone_and_ready_marks_the_token(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("d20-firearms", "overwatch")
    win = make_window(qtbot, tmp_path, setup.state)
    win.controller.apply(setup.command)
    assert win.lasting.squares
    assert any("Overwatch" in item.toolTip() for item in win.lasting.items)
    render_png(win, "lasting-overwatch")
    ready = legal_setup("spycraft", "ready")
    win.load(Document(ready.state, {}, None))
    win.controller.apply(ready.command)
    assert "a1" in win.lasting.tokens
    assert any(item.toolTip().startswith("ready") for item in win.lasting.items)


def test_a_brace_cone_stays_until_the_braced_token_moves(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    setup = legal_setup("spycraft", "brace")
    win = make_window(qtbot, tmp_path, setup.state)
    preview = win.controller.preview(setup.command)
    win.controller.apply(setup.command)
    lasting = win.controller.system.lasting_overlay(win.controller.state)
    braced = [a for a in lasting.areas if a.label.startswith("Braced")]
    assert len(braced) == 1
    assert braced[0].squares, "the cone covers squares"
    assert set(braced[0].squares) <= set(win.lasting.squares), "and the map draws them"
    assert any("Braced" in item.toolTip() for item in win.lasting.items)
    render_png(win, "lasting-brace")
    actor = win.controller.state.token(str(preview.command.actor))
    step = Command("five_foot_step", actor.id,
                   squares=(Square(actor.square.x, actor.square.y + 1),))
    assert win.controller.preview(step).legal, win.controller.preview(step).reasons
    win.controller.apply(step)
    lasting = win.controller.system.lasting_overlay(win.controller.state)
    assert not [a for a in lasting.areas if a.label.startswith("Braced")], "moving ends Brace"


def test_a_missed_blast_is_marked_where_it_landed_until_the_throwers_next_turn(
    qtbot, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from desktop.scene.rule_overlays import SquareMarkItem

    setup = legal_setup("savage-worlds", "area_attack")
    win = make_window(qtbot, tmp_path, setup.state)
    events = win.controller.apply(setup.command, [1, 1, 3, 2])  # a miss; d8 3, 1d6 2
    said = " ".join(event.text for event in events)
    landed = Square(*(int(n) for n in said.split("lands at (")[1].split(")")[0].split(",")))
    assert landed != setup.command.squares[0]
    marks = {item.label: item.square for item in win.lasting.items
             if isinstance(item, SquareMarkItem)}
    assert marks == {"aim": setup.command.squares[0], "fell": landed}
    assert any("came down here" in item.toolTip() for item in win.lasting.items)
    render_png(win, "lasting-blast-landing")
    thrower = setup.command.actor
    win.controller.apply(Command("end_turn"))
    while win.controller.state.combat.active != thrower:
        win.controller.apply(Command("end_turn"))
    assert not [item for item in win.lasting.items if isinstance(item, SquareMarkItem)]
