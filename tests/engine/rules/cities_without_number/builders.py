"""Small Cities Without Number fights for the rule tests."""

from __future__ import annotations

from dataclasses import replace

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system
from engine.rules.cities_without_number.tables import SCALE as METRIC
from engine.tokens import Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, Phase
from engine.turns.session import Encounter

PISTOL = Weapon("Pistol", "1d6+1", 10, ammo=15, capacity=15)
RIFLE = Weapon("Rifle", "1d10+2", 100, ammo=30, capacity=30, two_handed=True)
KNIFE = Weapon("Knife", "1d4", melee=True, traits=("shock:1/15",))


def person(tid: str, side: Side, square: tuple[int, int], *weapons: Weapon,
           **stats: int | bool) -> Token:
    base: dict[str, int | float | str | bool] = {"hp": 10, "shoot": 1, "stab": 1}
    base.update(stats)
    return Token(tid, tid.title(), side, Square(*square), speed=10,
                 weapons=weapons or (PISTOL, KNIFE), stats=base)


def fight(*tokens: Token, width: int = 16, height: int = 12) -> Encounter:
    """Round 1 of a side-initiative fight: the party's side first, the first token active."""
    state = EncounterState("Test", "cities-without-number", METRIC, BattleMap(width, height),
                           tokens)
    system = get_system("cities-without-number")
    order = tuple(
        Combatant(t.id, 8 if t.side is Side.PARTY else 4, (1 if t.side is Side.PARTY else 0, 0),
                  system.fresh_budget(state, t.id))
        for t in tokens
    )
    combat = CombatState(Phase.ROUND, 1, order, tokens[0].id, seed=5,
                         data={"individual": False})
    return Encounter(replace(state, combat=combat))
