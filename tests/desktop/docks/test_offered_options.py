"""An action's form offers the options the engine says bear on it now: a leave to act that
only a surrendered token needs is not on every form, and an action with nothing else to
set is applied at once from the palette."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


def test_crouch_applies_at_once_and_forms_lack_the_captors_leave(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Spycraft's "With his captors' leave (surrendered)" tick box sat on every form, so
    even Crouch opened a form and waited for Confirm."""
    setup = legal_setup("spycraft", "crouch")
    actor = str(setup.command.actor)
    win = make_window(qtbot, tmp_path, setup.state)
    assert win.action_palette.actor(win.controller.state) == actor
    system = win.controller.system
    win.start_action(actor, system.action("standard_attack"))
    fields = win.action_palette.targeting.fields
    assert "permitted" not in fields and "trick" in fields
    win.cancel_tool()
    button = win.action_palette.buttons["crouch"]
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert win.view.tool is win.default_tool  # no form to confirm
    assert win.controller.state.token(actor).has_condition("crouched")
