"""The sight tool: rings for who the viewer sees, cover lines, fog while V is held."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.scene import style
from desktop.scene.preview_overlay import draw_overlay
from desktop.scene.rule_overlays import AreaItem
from desktop.tools.sight_tool import SightTool
from engine.geometry import token_line_of_sight, visible_squares
from engine.overlay import Tone
from engine.rules.measuring import sight_fog
from tests.desktop.tools.conftest import TOOL_NOISE, move_to, painted, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_rings_match_the_engines_line_of_sight_and_v_shows_fog(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("kara")
    tool = SightTool(win.host)
    win.set_tool(tool)
    state = win.controller.state
    kara = state.token("kara")
    expected = {o.id for o in state.others("kara") if token_line_of_sight(state.battlemap, kara, o)}
    assert tool.seen_ids == expected
    assert tool.hidden_ids == {o.id for o in state.others("kara")} - expected
    assert tool.hidden_ids, "the sample map hides somebody from Kara"
    move_to(qtbot, win.view, (13.5, 6.5))  # over the Boss: cover lines and cover level
    assert any(line.startswith("The Boss: cover") for line in tool.lines), tool.lines
    qtbot.keyPress(win.view.viewport(), Qt.Key.Key_V)
    assert tool.fog is not None
    seen = visible_squares(state.battlemap, kara, 28.0).squares
    assert tool.fog_squares == frozenset(state.battlemap.squares()) - seen
    render_png(win, "sight_fog")
    qtbot.keyRelease(win.view.viewport(), Qt.Key.Key_V)
    assert tool.fog is None


def test_held_v_draws_exactly_the_engines_fog_under_the_rings(qtbot, spy_window):  # type: ignore[no-untyped-def]
    """The fog is the engine's unseen area drawn by the shared painter: dark, edgeless and
    under the rings; letting V go takes it away and leaves the rings."""
    win = spy_window
    win.controller.select("kara")
    tool = SightTool(win.host)
    win.set_tool(tool)
    rings = tool.overlay.childItems()
    qtbot.keyPress(win.view.viewport(), Qt.Key.Key_V)
    state = win.controller.state
    expected = sight_fog(state, "kara")
    assert tool.fog == expected
    (area,) = expected.overlay.areas
    assert area.tone is Tone.UNSEEN
    fog = [i for i in tool.overlay.childItems() if i not in rings]
    assert painted(fog) == painted(draw_overlay(expected.overlay, state).items)
    (dark,) = fog
    assert isinstance(dark, AreaItem) and dark.brush().color().rgb() == style.FOG.rgb()
    assert dark.pen().style() == Qt.PenStyle.NoPen
    assert all(dark.zValue() < ring.zValue() for ring in rings)
    qtbot.keyRelease(win.view.viewport(), Qt.Key.Key_V)
    assert tool.overlay.childItems() == rings
