"""A token the GM makes from nothing starts with the system's stats for a new token: within
its stat block, and able to take a first hit without going down (Spycraft's schema defaults,
0 vitality and 0 wounds, left it unconscious at the first point of damage)."""

from __future__ import annotations

import pytest

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system, system_names
from engine.tokens import Side, Token


def new_token(system_name: str) -> tuple[EncounterState, Token]:
    system = get_system(system_name)
    token = Token("new", "Token 1", Side.ENEMY, Square(1, 1), speed=system.default_speed,
                  stats=system.new_token_stats())
    state = EncounterState("New", system_name, system.scale, BattleMap(8, 8), (token,))
    return state, token


@pytest.mark.parametrize("system_name", system_names())
def test_a_new_token_fits_its_stat_block_and_survives_a_first_point_of_damage(
    system_name: str,
) -> None:
    system = get_system(system_name)
    state, token = new_token(system_name)
    assert system.stat_problems(token) == []
    hurt, _ = system.take_damage(state, token.id, 1)
    assert not hurt.token(token.id).has_condition(system.down_condition)


def test_a_new_spycraft_token_has_full_first_level_vitality_and_its_con_in_wounds() -> None:
    _, token = new_token("spycraft")
    stats = token.stats
    assert stats["wounds"] == stats["max_wounds"] == 10  # the Constitution score at +0
    assert stats["vitality"] == stats["max_vitality"] == 9
    assert stats["con"] == 0


def test_other_systems_start_a_new_token_with_their_schema_defaults() -> None:
    for name in system_names():
        if name == "spycraft":
            continue
        system = get_system(name)
        defaults = {s.name: s.default for s in system.stats if s.default is not None}
        assert system.new_token_stats() == defaults
