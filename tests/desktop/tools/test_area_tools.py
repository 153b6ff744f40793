"""Range bands on the map (the rules' areas are drawn from previews: test_action_tool.py)."""

from __future__ import annotations

import pytest

from desktop.tools.range_tool import RangeTool
from engine.geometry import range_bands
from tests.desktop.tools.conftest import TOOL_NOISE, render_png

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_range_bands_ring_every_token_by_the_engines_band(qtbot, spy_window):  # type: ignore[no-untyped-def]
    win = spy_window
    win.controller.select("marlow")
    tool = RangeTool(win.host)
    win.set_tool(tool)
    table = win.controller.system.range_table
    assert table is not None
    expected = range_bands(win.controller.state, "marlow", "SMG", table)
    assert tool.measured is not None
    assert [a.outline for a in tool.measured.overlay.areas] == [b.shape for b in expected.bands]
    for affected in expected.tokens:
        name = win.controller.state.token(affected.token_id).name
        assert f"{name}: {affected.modifiers[0].rule}" in "\n".join(tool.lines)
    render_png(win, "range_bands")
