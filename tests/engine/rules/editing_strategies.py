"""Hypothesis strategies for the GM's editing commands (and add_token): a legal set-up of
each on the editing tests' room, and values for the option kinds they declare (points,
stat blocks, records), fitting or not, with names holding any character.

``command_strategies.commands_from`` then changes up to three fields of the legal command,
and ``check_command`` holds the same property as for the rule actions: only
``CommandError`` escapes, and a command the preview calls legal applies.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.option_kinds import PointKind, PointsKind, RecordOf, ShapedKind, StatsKind
from engine.tokens import Side, Token, Weapon
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import LegalSetUp
from tests.engine.rules.test_editing import EXAMPLES, room

#: Names holding the characters a packed string used to split on.
AWKWARD = ('a, "b"', "c|d=e;f:g", "h>i/j 'k'", "Ünal, 2", " ")
WEAPONS = (Weapon("Colt, .45", "2d6", 30.0, 6, 6), Weapon('Uzi|"9mm"=;:', "2d6", 20.0, 20, 20))


@functools.cache
def editing_setup(system: str, key: str) -> LegalSetUp:
    """The room of the editing tests under ``system``, with the crate remove_cover needs,
    and a legal example of ``key`` (an editing command, or add_token)."""
    rules = get_system(system)
    state = room(system).state
    for token in state.tokens:  # the room's stats are Spycraft's
        if rules.stat_problems(token):
            state = state.with_token(replace(token, stats={}))
    fight = Encounter(state)
    fight.apply(Command.build("add_cover", rect=[(2, 5), (2, 5)], id="crate"))
    if key == "add_token":
        newcomer = Token('ann, "ace"=|', "Ann", Side.PARTY, Square(0, 7), weapons=WEAPONS)
        command = Command.build("add_token", token=newcomer)
    else:
        command = EXAMPLES[key][0]  # type: ignore[assignment]
    assert fight.preview(command).legal, (system, key)
    return LegalSetUp(system, key, fight.state, command)


def editing_keys() -> list[str]:
    return sorted({*EXAMPLES, "add_token"})


def _coordinates(whole: bool) -> st.SearchStrategy[Any]:
    near = st.integers(-2, 12)
    if whole:
        return near | st.sampled_from([10**6, -(10**9), True])
    return near | st.floats(-2, 12) | st.sampled_from([math.nan, math.inf, 1e300, -0.0])


def _points(whole: bool = False) -> st.SearchStrategy[Any]:
    coordinate = _coordinates(whole)
    return st.tuples(coordinate, coordinate) | st.tuples(coordinate, coordinate, coordinate)


def _stat_blocks(setup: LegalSetUp) -> st.SearchStrategy[Any]:
    names = [spec.name for spec in get_system(setup.system).stats]
    value = st.one_of(st.integers(-5, 40), st.booleans(), st.text(max_size=4),
                      st.lists(st.sampled_from(AWKWARD), max_size=3).map(tuple),
                      st.floats(), st.sampled_from(["full", "none", "partial"]))
    keys = st.sampled_from([*names, "defence", *AWKWARD])
    return st.dictionaries(keys, value, max_size=3)


def _tokens(setup: LegalSetUp) -> st.SearchStrategy[Token]:
    ids = [t.id for t in setup.state.tokens]
    battlemap = setup.state.battlemap
    squares = st.builds(Square, st.integers(-1, battlemap.width), st.integers(-1, battlemap.height))
    return st.builds(
        Token,
        id=st.sampled_from([*ids, *AWKWARD, "new"]),
        name=st.sampled_from(AWKWARD),
        side=st.sampled_from(list(Side)),
        square=squares,
        size=st.integers(1, 3),
        weapons=st.lists(st.sampled_from(WEAPONS), max_size=2).map(tuple),
        stats=_stat_blocks(setup).filter(lambda s: all(not isinstance(v, float) or
                                                       math.isfinite(v) for v in s.values())),
    )


def shaped_values(kind: ShapedKind, setup: LegalSetUp) -> st.SearchStrategy[Any]:
    """A value for an option of a shaped kind: mostly fitting, sometimes just off."""
    if isinstance(kind, PointKind):
        return _points()
    if isinstance(kind, PointsKind):
        return st.lists(_points(kind.whole), max_size=6)
    if isinstance(kind, StatsKind):
        return _stat_blocks(setup)
    assert isinstance(kind, RecordOf)
    if kind.record is Token:
        return _tokens(setup)
    return st.lists(st.sampled_from(WEAPONS), max_size=3) | st.lists(_tokens(setup), max_size=1)
