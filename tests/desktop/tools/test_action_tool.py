"""The one targeting mode: area actions draw exactly the preview, hovers preview, Escape
cancels, labels stay readable; the palette and the token menu start it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from desktop.scene.labels import visible_scene_rect
from desktop.scene.preview_overlay import draw_preview
from desktop.scene.rule_overlays import GOOD, TokenRingItem
from desktop.scene.style import SQUARE
from desktop.tools.action_tool import ActionTool
from engine.overlay import Overlay, Role, Tone
from engine.rules import get_system, system_names
from engine.rules.base import Command, Need
from tests.desktop.tools.conftest import TOOL_NOISE, make_window, move_to, render_png, view_point
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]

AREA_ACTIONS = [
    (name, spec.key)
    for name in system_names()
    for spec in get_system(name).catalogue
    if {Need.SQUARE, Need.AREA} & set(spec.needs)
]


def hover(view, square_point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    """A mouse move over the viewport, sent as the window system would."""
    point = QPointF(view_point(view, square_point))
    event = QMouseEvent(
        QEvent.Type.MouseMove,
        point,
        QPointF(view.viewport().mapToGlobal(point.toPoint())),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view.viewport(), event)


def window_at(qtbot, tmp_path, system: str, action: str):  # type: ignore[no-untyped-def]
    setup = legal_setup(system, action)
    return make_window(qtbot, tmp_path, setup.state), setup


def preview_squares(preview) -> tuple[set, set]:  # type: ignore[no-untyped-def]
    """(legal, refused) squares the preview's overlay asks to draw."""
    areas = preview.overlay.areas
    legal = {s for a in areas if a.tone is not Tone.REFUSED for s in a.squares}
    refused = {s for a in areas if a.tone is Tone.REFUSED for s in a.squares}
    return legal, refused


@pytest.mark.parametrize(
    ("system", "action"), AREA_ACTIONS, ids=[f"{s}-{a}" for s, a in AREA_ACTIONS]
)
def test_an_area_action_draws_exactly_the_squares_of_its_preview(
    qtbot, tmp_path, system: str, action: str
) -> None:  # type: ignore[no-untyped-def]
    win, setup = window_at(qtbot, tmp_path, system, action)
    actor = str(setup.command.actor)
    tool = win.start_action(actor, win.controller.system.action(action), setup.command.targets)
    tool.set_weapon(setup.command.weapon)
    for name, value in setup.command.options:
        tool.set_option(name, value)
    for square in setup.command.squares:
        tool.pick(square)
    preview = tool.preview
    assert preview is not None and tool.command == setup.command
    assert preview == win.controller.preview(setup.command)
    legal, refused = preview_squares(preview)
    assert tool.drawn.squares == legal
    assert tool.drawn.refused_squares == refused
    render_png(win, f"area-{system}-{action}")
    # Area attacks are placed, then confirmed: picking fired nothing.
    assert win.controller.state == setup.state


def test_a_single_target_attack_rings_its_target_from_the_overlay(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The target ring, coloured for a target and carrying the modifiers as its tooltip, is
    drawn from the preview's overlay: the same preview with an empty overlay rings nobody,
    though its legacy ``targets`` still name the target."""
    win, setup = window_at(qtbot, tmp_path, "cities-without-number", "melee_attack")
    tool = win.start_action("a1", win.controller.system.action("melee_attack"), ["e1"])
    preview = tool.preview
    assert preview is not None and preview.legal and preview.modifiers
    assert preview.overlay.token_ids(Role.TARGET) == ("e1",)
    cal = setup.state.token("e1")
    rings = {
        (item.pos().x(), item.pos().y()): item
        for item in tool.drawn.items
        if isinstance(item, TokenRingItem)
    }
    ring = rings[(cal.square.x * SQUARE, cal.square.y * SQUARE)]
    assert ring.colour == GOOD
    assert all(str(m) in ring.toolTip() for m in preview.modifiers)
    assert tool.drawn.tokens == {"a1", "e1"}
    centre = QPointF((cal.square.x + 0.5) * SQUARE, (cal.square.y + 0.5) * SQUARE)
    tips = [item.toolTip() for item in win.scene.items(centre) if item.toolTip()]
    assert tips and tips[0] == ring.toolTip(), "hovering the target shows its modifiers"
    render_png(win, "single-target-ring")
    bare = draw_preview(replace(preview, overlay=Overlay()), setup.state)
    assert preview.targets == ("e1",) and not bare.items and not bare.tokens


def test_hovering_a_refused_target_shows_the_engines_reason_on_the_map(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win, _setup = window_at(qtbot, tmp_path, "spycraft", "kick")
    tool = win.start_action("a1", win.controller.system.action("kick"))
    dee = win.controller.state.token("e2").square  # across the room: out of reach
    move_to(qtbot, win.view, (dee.x + 0.5, dee.y + 0.5))
    assert tool.preview is not None and not tool.preview.legal
    assert tool.preview.command.targets == ("e2",)
    shown = tool.tag.text.replace("\n", " ")
    first_words = tool.preview.reasons[0].split()[:3]
    assert " ".join(first_words) in shown
    assert not win.action_palette.targeting.confirm_button.isEnabled()
    cal = win.controller.state.token("e1").square
    move_to(qtbot, win.view, (cal.x + 0.5, cal.y + 0.5))
    assert tool.preview.legal and tool.preview.command.targets == ("e1",)
    render_png(win, "hover-kick-legal")


def test_escape_cancels_at_any_step(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win, _setup = window_at(qtbot, tmp_path, "spycraft", "bull_rush")
    before = win.controller.state
    for picks in (0, 1):
        tool = win.start_action("a1", win.controller.system.action("bull_rush"))
        assert win.action_palette.targeting.isVisible()
        if picks:
            tool.pick(win.controller.state.token("e1").square)
            assert tool.targets == ["e1"]
        qtbot.keyClick(win.view, Qt.Key.Key_Escape)
        assert win.view.tool is win.default_tool
        assert not win.action_palette.targeting.isVisible()
        assert tool.tag.scene() is None and not tool.overlay.childItems()
    assert win.controller.state is before


def test_labels_stay_inside_the_view_and_off_the_tokens(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win, _setup = window_at(qtbot, tmp_path, "spycraft", "kick")
    win.view.resetTransform()
    win.view.scale(2.0, 2.0)
    tool = win.start_action("a1", win.controller.system.action("kick"))
    for target in ("e2", "e1", "a2"):
        square = win.controller.state.token(target).square
        win.view.centerOn((square.x + 0.9) * 64, (square.y + 0.5) * 64)
        hover(win.view, (square.x + 0.5, square.y + 0.5))
        scale = win.view.transform().m11()
        box = tool.tag.boundingRect()
        placed = QRectF(tool.tag.pos(), box.size() / scale)
        visible = visible_scene_rect(win.view)
        assert visible.contains(placed), (target, placed, visible)
        hovered = win.scene.token_items[target].sceneBoundingRect()
        assert not placed.intersects(hovered)
        assert max(len(line) for line in tool.tag.text.split("\n")) <= 46
    render_png(win, "labels-zoomed")


def test_the_token_menu_offers_what_the_acting_token_may_do_and_why_not(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win, _setup = window_at(qtbot, tmp_path, "spycraft", "kick")
    menu = win.token_menu("e1")
    allowed = [a.text() for a in menu.actions() if a.isEnabled() and not a.menu()]
    assert "Standard Attack with the rifle" in allowed and "Kick" in allowed
    why_not = next(a.menu() for a in menu.actions() if a.menu())
    refused = [a.text() for a in why_not.actions()]
    assert refused and all(
        ": " in text and not a.isEnabled()
        for text, a in zip(refused, why_not.actions(), strict=True)
    )
    far = win.token_menu("e2")
    far_refused = next(a.menu() for a in far.actions() if a.menu())
    assert any(a.text().startswith("Kick:") for a in far_refused.actions())
    entry = next(a for a in menu.actions() if a.text() == "Kick")
    entry.trigger()
    tool = win.view.tool
    assert isinstance(tool, ActionTool) and tool.targets == ["e1"] and tool.ready


def test_the_palette_groups_by_category_filters_and_follows_the_turn(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win, _setup = window_at(qtbot, tmp_path, "savage-worlds", "shooting")
    palette = win.action_palette
    categories = {spec.category for spec in win.controller.system.catalogue}
    assert {g.lower() for g in palette.groups} == categories
    win.controller.select("e2")  # selecting another token does not take the palette away
    assert palette.actor(win.controller.state) == win.controller.state.combat.active == "a1"
    palette.filter.setText("shooting attack")
    shown = [k for k, b in palette.buttons.items() if not b.isHidden()]
    assert shown and all("shooting" in palette.buttons[k].toolTip().lower() for k in shown)
    assert "shooting" in shown and "fighting" not in shown
    hidden_groups = [g for g in palette.groups.values() if g.isHidden()]
    assert hidden_groups  # a category with nothing matching folds away
    assert palette.no_match.isHidden()
    palette.filter.setText("orbital laser")  # no action says so: the list says why empty
    assert all(b.isHidden() for b in palette.buttons.values())
    assert not palette.no_match.isHidden() and "orbital laser" in palette.no_match.text()
    palette.filter.clear()
    assert palette.no_match.isHidden()

    def only_greyed_shown(key: str) -> bool:
        palette.filter.setText(win.controller.system.action(key).name)
        return all(not b.isEnabled() for b in palette.buttons.values() if not b.isHidden())

    greyed_keys = [k for k, b in palette.buttons.items() if not b.isEnabled()]
    assert any(only_greyed_shown(k) for k in greyed_keys)  # leaves the filter on that one
    palette.filter.returnPressed.emit()  # Enter on a greyed action says why, starts nothing
    first = next(k for k, b in palette.buttons.items() if not b.isHidden())
    assert palette.no_match.text().startswith(
        f"{win.controller.system.action(first).name}: not now, "
    )
    assert win.view.tool is win.default_tool
    palette.filter.clear()
    greyed = next(b for b in palette.buttons.values() if not b.isEnabled())
    assert "Not now:" in greyed.toolTip()
    win.controller.apply(Command("end_turn"))
    assert palette.actor(win.controller.state) == win.controller.state.combat.active != "a1"
    win.find_action()
    assert palette.filter.hasFocus() or not win.isActiveWindow()


def test_enter_in_the_palette_filter_starts_the_action_named_by_the_words(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """'hold' matched Crush and Break Free by their summaries too; Enter started Crush, the
    first in the catalogue's order, instead of Go on Hold."""
    win, _setup = window_at(qtbot, tmp_path, "savage-worlds", "shooting")
    palette = win.action_palette
    palette.filter.setText("hold")
    hold = palette.buttons["hold"]
    others = [b for k, b in palette.buttons.items() if k != "hold" and not b.isHidden()]
    assert others  # other actions mention holding in their summaries
    clicked: list[str] = []
    for key, button in palette.buttons.items():
        button.clicked.connect(lambda _checked=False, k=key: clicked.append(k))
    assert hold.isDefault()  # marked: the GM sees what Enter will start
    palette.filter.returnPressed.emit()
    assert clicked == ["hold"]


def test_an_action_starts_with_a_weapon_that_can_do_it(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Suppressive Fire started with the first weapon carried, a pump shotgun the engine
    refuses (not semi-automatic), though the weapon beside it could lay the fire down."""
    from dataclasses import replace

    from engine.tokens import Weapon

    setup = legal_setup("d20-firearms", "suppressive_fire")
    actor = setup.state.token(str(setup.command.actor))
    shotgun = Weapon("Pump shotgun", "2d8", 30.0, ammo=6, capacity=6, modes=("single",))
    state = setup.state.with_token(replace(actor, weapons=(shotgun, *actor.weapons)))
    win = make_window(qtbot, tmp_path, state)
    spec = win.controller.system.action("suppressive_fire")
    tool = win.start_action(actor.id, spec)
    assert tool.weapon == setup.command.weapon != "Pump shotgun"
    tool.squares = list(setup.command.squares)
    assert tool.ready


def strafe_picked(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    """A Spycraft Strafe aimed with the squares of a legal set-up picked."""
    win, setup = window_at(qtbot, tmp_path, "spycraft", "strafe")
    tool = win.start_action(str(setup.command.actor), win.controller.system.action("strafe"))
    tool.set_weapon(setup.command.weapon)
    picks = list(setup.command.squares)
    for square in picks:
        tool.pick(square)
    return win, tool, picks


def test_the_hovered_square_goes_when_the_mouse_leaves_the_map(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An area action previews the hovered square with the picks; once the mouse is off
    the map (on the targeting panel, say) the preview and the map are the picks alone."""
    win, tool, picks = strafe_picked(qtbot, tmp_path)
    spare = next(s.offset(0, 2) for s in picks if s.offset(0, 2) not in picks)
    hover(win.view, (spare.x + 0.5, spare.y + 0.5))
    assert tool.hover == spare and tool.command is not None
    assert spare in tool.command.squares
    drawn_with_hover = {m.square for m in tool.preview.overlay.marks}
    QApplication.sendEvent(win.view.viewport(), QEvent(QEvent.Type.Leave))
    assert tool.hover is None
    assert tool.command is not None and list(tool.command.squares) == picks
    marks = {m.square for m in tool.preview.overlay.marks}
    assert spare in drawn_with_hover and spare not in marks
    assert not any(
        getattr(item, "square", None) == spare for item in tool.overlay.childItems()
    )


def test_a_square_past_the_maps_edge_is_not_tried(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The view shows a margin round the map: hovering there previewed the picks plus the
    off-map square, and the card said "square (29,22) is off the map" over legal picks."""
    win, tool, picks = strafe_picked(qtbot, tmp_path)
    battlemap = win.controller.state.battlemap
    past = (battlemap.width + 0.5, battlemap.height - 0.5)
    win.view.centerOn(past[0] * SQUARE, past[1] * SQUARE)
    hover(win.view, past)
    assert tool.hover is None
    assert tool.command is not None and list(tool.command.squares) == picks
    assert tool.preview is not None and tool.preview.legal, tool.preview.reasons


def test_the_sight_tools_cover_lines_go_when_the_mouse_leaves_the_map(qtbot, spy_window) -> None:  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    win.menu_actions["tool_sight"].trigger()
    tool = win.view.tool
    hover(win.view, (13.5, 6.5))  # the Boss
    assert tool.hovered is not None
    QApplication.sendEvent(win.view.viewport(), QEvent(QEvent.Type.Leave))
    assert tool.hover is None and tool.hovered is None
