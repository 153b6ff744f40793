"""A Disabled (0 hp) or dying (below 0) d20 soldier can still be attacked."""

from __future__ import annotations

from dataclasses import replace

from engine.grid import Square
from engine.rules.d20_firearms import attack_math, blind_fire_actions, board
from engine.tokens import Condition, Side, Token
from tests.engine.rules.d20_firearms.builders import RIFLE, fight, soldier


def _downed(tid: str, hp: int, square: tuple[int, int]) -> Token:
    return replace(soldier(tid, Side.ENEMY, square, hp=hp), conditions=(Condition(board.DOWN),))


def test_disabled_and_dying_targets_can_be_attacked() -> None:
    for hp in (0, -3):
        state = fight(soldier("a", Side.PARTY, (1, 1)), _downed("b", hp, (4, 1))).state
        plan = attack_math.plan_attack(state, state.token("a"), state.token("b"), RIFLE)
        assert plan.defense == board.stat_int(state.token("b"), "defense")


def test_blind_fire_finds_a_downed_occupant() -> None:
    state = fight(soldier("a", Side.PARTY, (1, 1)), _downed("b", 0, (4, 1))).state
    found = blind_fire_actions.occupant(state, Square(4, 1), "a")
    assert found is not None and found.id == "b"
