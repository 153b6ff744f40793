"""A refused Charge names the space each refusal is for, and its preview draws each line
it tried, refused, with that line's reason (d20's closest-space Charge and Cities Without
Number's run-up Charge alike)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.grid import Square
from engine.overlay import Tone
from engine.rules import get_system
from engine.tokens import Side
from tests.engine.rules.legal_setups import legal_setup


@pytest.mark.parametrize("system", ["d20-firearms", "cities-without-number"])
def test_a_blocked_charge_draws_the_lines_it_tried(system: str) -> None:
    rules = get_system(system)
    setup = legal_setup(system, "charge")
    allowed = rules.preview(setup.state, setup.command)
    assert allowed.legal, allowed.reasons
    line = allowed.squares
    assert len(line) >= 3
    actor = setup.state.token(str(setup.command.actor))
    # Opponents of the charger in a column across the map: no Charge line crosses them.
    foe = Side.ENEMY if actor.side is not Side.ENEMY else Side.PARTY
    state = setup.state
    for y in range(state.battlemap.height):
        blocker = replace(actor, id=f"blocker{y}", name="Blocker", side=foe)
        state = state.with_token(blocker.moved_to(Square(line[2].x, y)))
    refused = rules.preview(state, setup.command)
    assert not refused.legal
    lines = [r for r in refused.overlay.routes if r.tone is Tone.REFUSED and r.reason]
    assert lines, refused.overlay
    for route in lines:
        assert str(route.end) in route.reason  # each line's reason names its space
    assert any("Blocker" in r.reason for r in lines)
    assert any(str(lines[0].end) in reason for reason in refused.reasons)
