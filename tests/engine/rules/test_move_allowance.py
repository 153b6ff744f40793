"""RuleSystem.move_allowance: the bound a token drag searches routes within.

It must never be below what the move's own check allows (a drag would then refuse a legal
move), and for the bundled systems it is exact: a straight walk of the allowance is
allowed, one square more is refused for its length. One test per bundled system.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battlemap import BattleMap
from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.base import RuleSystem as BaseSystem
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import ACTOR, SEED, close_quarters, turn_to

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
    state = close_quarters(system_name)
    # Room to walk east in a straight line, away from everyone.
    state = replace(state, battlemap=BattleMap(60, 14))
    state = state.with_token(state.token(ACTOR).moved_to(Square(30, 12)))
    fight = Encounter(state, seed=SEED)
    fight.apply(Command("start_combat"))
    turn_to(fight, ACTOR)
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
