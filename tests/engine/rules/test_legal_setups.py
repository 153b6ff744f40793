"""The shared legal set-ups: each catalogue action of each system is legal there, and applies."""

from __future__ import annotations

import pytest

from engine.rules import get_system, system_names
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import every_action, legal_setup

CASES = every_action()


def test_every_catalogue_action_of_every_system_has_a_case() -> None:
    wanted = {(n, s.key) for n in system_names() for s in get_system(n).catalogue}
    assert set(CASES) == wanted and len(CASES) == len(wanted)


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_the_set_up_command_is_legal_and_changes_the_state(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    assert setup.command.action == action
    fight = Encounter(setup.state)
    assert fight.preview(setup.command).legal
    before = fight.state
    fight.apply(setup.command)
    assert fight.state != before
