"""A command still being aimed is asked about at every step: before its target, before its
squares, before its weapon. The preview then says what is missing (a refusal or a
CommandError); it never raises anything else, for every action of every system."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.rules.base import Command, CommandError, Preview
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import every_action, legal_setup

CASES = every_action()


def partial_commands(command: Command) -> dict[str, Command]:
    """The command as the targeting mode builds it before each pick is made."""
    return {
        "nothing picked": replace(command, targets=(), squares=(), weapon=None, options=()),
        "no target": replace(command, targets=()),
        "no squares": replace(command, squares=()),
        "no weapon": replace(command, weapon=None),
    }


@pytest.mark.parametrize(("system", "action"), CASES, ids=[f"{s}-{a}" for s, a in CASES])
def test_a_half_built_command_is_refused_in_words(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    fight = Encounter(setup.state)
    for step, command in partial_commands(setup.command).items():
        try:
            preview = fight.preview(command)
        except CommandError:
            continue
        assert isinstance(preview, Preview), step
        if not preview.legal:
            assert preview.reasons, f"{step}: refused without a reason"
