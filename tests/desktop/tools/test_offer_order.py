"""Menus offer actions as a GM scans them: on an ally the help before the attacks, on a
foe the attacks first; the ordinary move first on a square; on the acting token's own
menu, greyed, what the engine refuses it now."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.tools.offers import square_offers, target_offers
from engine.grid import Square
from engine.tokens import are_opponents
from tests.desktop.tools.conftest import TOOL_NOISE, make_window
from tests.engine.rules.legal_setups import legal_setup

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(*TOOL_NOISE)]


@pytest.mark.parametrize(("system", "help_key"), [
    ("cities-without-number", "screen_ally"), ("savage-worlds", "support"),
])
def test_an_allys_menu_offers_help_before_attacks(qtbot, tmp_path, system, help_key) -> None:  # type: ignore[no-untyped-def]
    """A GM right-clicking an ally got 'Make a Melee Attack' first, the help far below."""
    setup = legal_setup(system, help_key)
    win = make_window(qtbot, tmp_path, setup.state)
    actor, ally = str(setup.command.actor), setup.command.targets[0]
    state = win.controller.state
    assert not are_opponents(state.token(actor).side, state.token(ally).side)
    offers = [o for o in target_offers(win.controller, actor, ally) if o.allowed]
    assert offers[0].spec.key == help_key, [o.label for o in offers]
    assert any(not o.spec.helps for o in offers)  # the attacks are still there, after
    foe = next(t.id for t in state.tokens
               if are_opponents(state.token(actor).side, t.side))
    on_foe = [o for o in target_offers(win.controller, actor, foe) if o.allowed]
    assert on_foe and not on_foe[0].spec.helps


def test_a_squares_menu_offers_the_ordinary_move_first(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Spycraft's square menu read 'Suppressive Fire with the Submachine gun here' above
    'Standard Move here'."""
    setup = legal_setup("spycraft", "suppressive_fire")
    win = make_window(qtbot, tmp_path, setup.state)
    actor = str(setup.command.actor)
    move = win.controller.system.ordinary_move_key
    token = win.controller.state.token(actor)
    square = Square(token.square.x + 1, token.square.y)
    if win.controller.state.token_at(square) is not None:
        square = Square(token.square.x, token.square.y + 1)
    offers = [o for o in square_offers(win.host, actor, square) if o.allowed]
    assert len(offers) > 1 and offers[0].spec.key == move, [o.label for o in offers]


def test_the_acting_tokens_menu_says_why_aiming_is_not_offered(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """d20: a foe's menu showed Overwatch, 'needs the shooter to be Aiming', while the
    acting token's own menu had no Aiming at all (two weapons drawn forbid it) and no word
    why: it is now greyed under "Not now…" with the engine's reason."""
    setup = legal_setup("d20-firearms", "aim")
    actor = str(setup.command.actor)
    token = setup.state.token(actor)
    sidearm = replace(token.weapons[0], name="Glock 17")
    state = setup.state.with_token(replace(token, weapons=(*token.weapons, sidearm)))
    win = make_window(qtbot, tmp_path, state)
    menu = win.token_menu(actor)
    why_not = next(a.menu() for a in menu.actions() if a.menu() and a.text() == "Not now…")
    aiming = next(a for a in why_not.actions() if a.text().startswith(f"{token.name}: Aiming:"))
    assert not aiming.isEnabled()
    assert "two weapons" in aiming.toolTip()
