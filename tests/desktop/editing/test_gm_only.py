"""GM-only tokens never reach the player view; the briefing and a token's notes show to the GM."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.editing import commands
from desktop.scene.map_scene import HIDDEN_OPACITY
from engine.grid import Square
from engine.tokens import Side, Token
from tests.desktop.editing.conftest import NOISE

pytestmark = pytest.mark.qt_log_ignore(*NOISE)


def test_a_hidden_token_is_never_in_the_player_view(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    scout = Token("scout", "Scout", Side.PARTY, Square(1, 1))
    sniper = Token("sniper", "Sniper", Side.ENEMY, Square(3, 1))
    for token in (scout, sniper):
        win.controller.apply(commands.add_token(token))
    player = win.show_player_view()
    qtbot.addWidget(player)
    assert set(player.scene.token_items) == {"scout", "sniper"}
    win.controller.apply(commands.edit_token(sniper, replace(sniper, hidden=True)))
    assert set(player.scene.token_items) == {"scout"}  # gone, not merely invisible
    assert win.scene.token_items["sniper"].opacity() == HIDDEN_OPACITY  # the GM still sees it
    player.reload()
    assert set(player.scene.token_items) == {"scout"}
    win.controller.undo()
    assert set(player.scene.token_items) == {"scout", "sniper"}


def test_the_briefing_is_written_kept_and_undone(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    notes = win.gm_notes
    notes.briefing.setPlainText("The courier arrives in round 3.")
    assert notes.save_button.isEnabled()
    assert notes.keep_briefing()
    assert win.controller.state.briefing == "The courier arrives in round 3."
    assert not notes.save_button.isEnabled()
    win.controller.undo()
    assert notes.briefing.toPlainText() == ""


def test_the_selected_tokens_notes_show_to_the_gm(qtbot, blank_window) -> None:  # type: ignore[no-untyped-def]
    win = blank_window
    mole = Token("mole", "Mole", Side.NEUTRAL, Square(2, 2), hidden=True, notes="Works for Dutch.")
    win.controller.apply(commands.add_token(mole))
    win.controller.select("mole")
    assert win.gm_notes.token_notes.text() == "Works for Dutch."
    assert "GM only" in win.gm_notes.token_title.text()
