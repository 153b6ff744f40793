"""A right click on the token whose turn it is offers what it may do aiming at no one (Go
Prone, Total Defense, Reload...), as a VTT's token HUD does: it once offered none of its own
actions, only selecting and the GM's menu, so the GM had to find them in the palette."""

from __future__ import annotations

from desktop.documents import load_document
from engine.rules.base import Command
from tests.desktop.test_gm_overrides_ui import entry
from tests.desktop.tools.conftest import make_window
from tests.desktop.window_helpers import MAPS


def test_the_acting_tokens_right_click_offers_its_own_untargeted_actions(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    document = load_document(MAPS / "office_floor.killbox")
    win = make_window(qtbot, tmp_path, document.state, document.images)
    win.controller.apply(Command("start_combat"))
    acting = win.controller.state.combat.active
    assert acting is not None
    name = win.controller.state.token(acting).name
    menu = win.token_menu(acting)
    assert entry(menu, f"{name}: Total Defense") is not None
    assert entry(menu, f"{name}: Make a Ranged Attack") is None  # aimed at another token
    entry(menu, f"{name}: Go Prone").trigger()
    assert win.controller.state.token(acting).has_condition("Prone")
