"""A Disabled (0 hp) or dying (below 0) d20 soldier can still be attacked; a dying one is a
helpless defender (its Dexterity counts as 0, and melee attacks find its Defense 4 lower)."""

from __future__ import annotations

from dataclasses import replace

from engine.grid import Square
from engine.rules.d20_firearms import attack_math, blind_fire_actions, board
from engine.tokens import Condition, Side, Token
from tests.engine.rules.d20_firearms.builders import KNIFE, RIFLE, fight, soldier


def _downed(tid: str, hp: int, square: tuple[int, int], **stats: int) -> Token:
    mark = board.DOWN if hp == 0 else board.DYING
    return replace(soldier(tid, Side.ENEMY, square, hp=hp, **stats),
                   conditions=(Condition(mark),))


def test_a_disabled_target_is_attacked_at_its_full_defense() -> None:
    state = fight(soldier("a", Side.PARTY, (1, 1)), _downed("b", 0, (4, 1))).state
    plan = attack_math.plan_attack(state, state.token("a"), state.token("b"), RIFLE)
    assert plan.defense == 12


def test_a_dying_target_is_helpless_its_dexterity_counting_as_0() -> None:
    state = fight(soldier("a", Side.PARTY, (1, 1)),
                  _downed("b", -3, (4, 1), dex_mod=2)).state
    plan = attack_math.plan_attack(state, state.token("a"), state.token("b"), RIFLE)
    assert plan.defense == 12 - 2 - 5  # its +2 gone, -5 in its place; no melee penalty
    assert [m.value for m in plan.modifiers if m.applies_to == "Defense"] == [-7]


def test_a_melee_attack_finds_a_helpless_defense_4_lower_still() -> None:
    state = fight(soldier("a", Side.PARTY, (3, 1)), _downed("b", -3, (4, 1))).state
    plan = attack_math.plan_attack(state, state.token("a"), state.token("b"), KNIFE)
    assert plan.defense == 12 - 5 - 4


def test_blind_fire_finds_a_downed_occupant_but_not_a_dead_one() -> None:
    state = fight(soldier("a", Side.PARTY, (1, 1)), _downed("b", 0, (4, 1))).state
    found = blind_fire_actions.occupant(state, Square(4, 1), "a")
    assert found is not None and found.id == "b"
    dead = state.with_token(replace(state.token("b"), conditions=(Condition(board.DEAD),)))
    assert blind_fire_actions.occupant(dead, Square(4, 1), "a") is None
