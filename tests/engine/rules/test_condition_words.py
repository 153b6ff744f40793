"""Log lines for a condition named after the action that gives it read as sentences:
"Vale takes Total Defense.", never "Vale is Total Defense."."""

from __future__ import annotations

import pytest

from engine.rules import get_system
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import every_action, legal_setup

CASES = every_action()


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_no_log_line_says_a_token_is_an_action(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    names = [spec.name for spec in get_system(system).catalogue]
    events = Encounter(setup.state).apply(setup.command)
    for event in events:
        for name in names:
            assert f" is {name.casefold()}." not in event.text.casefold(), event.text


def test_total_defense_is_taken() -> None:
    setup = legal_setup("cities-without-number", "total_defense")
    actor = setup.state.token(str(setup.command.actor)).name
    texts = [e.text for e in Encounter(setup.state).apply(setup.command)]
    assert f"{actor} takes Total Defense." in texts, texts
