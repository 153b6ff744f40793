"""RuleSystem.move_allowance: the bound a token drag searches routes within.

It must never be below what the move's own check allows (a drag would then refuse a legal
move), and for the bundled systems it is exact: a straight walk of the allowance is
allowed, one square more is refused for its length. One test per bundled system.
"""

from __future__ import annotations

import pytest

from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.base import RuleSystem as BaseSystem
from tests.engine.rules.legal_setups import ACTOR, close_quarters, open_room

#: The ordinary move of each bundled system (the action a token drag sends).
MOVES = {
    "spycraft": "standard_move",
    "d20-firearms": "move",
    "savage-worlds": "move",
    "cities-without-number": "run",
}


def _walk(start: Square, squares: int) -> tuple[Square, ...]:
    return tuple(Square(start.x + step, start.y) for step in range(1, squares + 1))


@pytest.mark.parametrize("system_name", sorted(MOVES))
def test_the_allowance_is_exactly_the_longest_move_the_check_allows(system_name: str) -> None:
    fight = open_room(system_name)
    allowance = fight.system.move_allowance(fight.state, ACTOR)
    assert allowance is not None and allowance > 0
    start = fight.state.token(ACTOR).square
    action = MOVES[system_name]
    full = fight.preview(Command(action, ACTOR, squares=_walk(start, allowance)))
    assert full.legal, full.reasons
    further = fight.preview(Command(action, ACTOR, squares=_walk(start, allowance + 1)))
    assert not further.legal


def test_a_system_that_names_no_bound_gets_none() -> None:
    # The contract's default: routes of any cost (a system overrides it to speed drags up).
    system = get_system("spycraft")
    state = close_quarters("spycraft")
    assert BaseSystem.move_allowance(system, state, ACTOR) is None
