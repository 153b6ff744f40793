"""Every catalogue action of every registered system has a handler, and every handler is the
contract's one ActionHandler protocol (Spycraft's classes and the other systems' functions
alike)."""

from __future__ import annotations

import inspect

import pytest

from engine.rules import get_system
from engine.rules.base import ActionHandler, Preview
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import every_action, legal_setup

CASES = every_action()
IDS = [f"{s}-{a}" for s, a in CASES]


@pytest.mark.parametrize(("system", "action"), CASES, ids=IDS)
def test_the_action_has_a_handler_of_the_one_protocol(system: str, action: str) -> None:
    handler = get_system(system).handler(action)
    assert isinstance(handler, ActionHandler)
    assert handler.key == action
    assert isinstance(handler.out_of_turn, bool)
    for method, arity in (("check", 2), ("describe", 2), ("resolve", 3), ("cost", 2)):
        parameters = inspect.signature(getattr(handler, method)).parameters
        assert len(parameters) == arity, (method, tuple(parameters))


@pytest.mark.parametrize(("system", "action"), CASES, ids=IDS)
def test_the_handler_describes_and_costs_its_legal_command(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    handler = get_system(system).handler(action)
    cost = handler.cost(setup.state, setup.command)
    assert cost is None or isinstance(cost, int | str)
    described = handler.describe(setup.state, setup.command)
    assert isinstance(described, Preview) and described.command == setup.command
    assert Encounter(setup.state).preview(setup.command).cost  # the system says it in words
