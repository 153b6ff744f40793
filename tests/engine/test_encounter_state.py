"""EncounterState.with_token: a token keeping its squares skips the whole-map check, and
one that moves or grows is checked as any new state is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Condition, Side, Token


def _state() -> EncounterState:
    tokens = (Token("a", "A", Side.PARTY, Square(1, 1)),
              Token("b", "B", Side.ENEMY, Square(3, 1), size=2))
    return EncounterState("Yard", "spycraft", FIVE_FOOT, BattleMap(6, 6), tokens)


def test_a_token_keeping_its_squares_gives_the_state_a_full_check_would() -> None:
    state = _state()
    marked = replace(state.token("a"), conditions=(Condition("aiming"),), facing=90.0)
    quick = state.with_token(marked)
    checked = replace(state, tokens=(marked, state.token("b")))
    assert quick == checked and hash(quick) == hash(checked)
    assert quick.token("a").conditions == (Condition("aiming"),)
    assert state.token("a").conditions == ()  # the first state is untouched


@pytest.mark.parametrize("change, problem", [
    ({"square": Square(3, 2)}, "both stand on"),
    ({"size": 3}, "both stand on"),
    ({"square": Square(5, 5), "size": 2}, "outside the 6x6 map"),
])
def test_a_token_that_moves_or_grows_is_checked(change: dict[str, object], problem: str) -> None:
    state = _state()
    with pytest.raises(ValueError, match=problem):
        state.with_token(replace(state.token("a"), **change))  # type: ignore[arg-type]


def test_a_new_token_is_added_and_checked() -> None:
    state = _state()
    added = state.with_token(Token("c", "C", Side.ALLY, Square(0, 4)))
    assert [t.id for t in added.tokens] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="both stand on"):
        state.with_token(Token("d", "D", Side.ALLY, Square(4, 2)))
