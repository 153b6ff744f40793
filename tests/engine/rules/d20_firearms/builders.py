"""Small d20 firearms fights for the rule tests."""

from __future__ import annotations

from dataclasses import replace

from engine.battlemap import BattleMap, CoverObject
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules import get_system
from engine.tokens import Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, Phase
from engine.turns.session import Encounter

RIFLE = Weapon("Assault rifle", "2d8", 80, ammo=30, capacity=30,
               modes=("single", "semi-auto", "automatic"), traits=("rifle", "recoil:2"))
PISTOL = Weapon("Pistol", "2d6", 30, ammo=15, capacity=15, modes=("single", "semi-auto"),
                traits=("pistol", "recoil:1", "str:10"))
SMG = Weapon("SMG", "2d6", 40, ammo=30, capacity=30, modes=("semi-auto", "automatic"),
             traits=("smg", "recoil:2", "str:10"))
SNIPER = Weapon("Sniper rifle", "2d10", 100, ammo=5, capacity=5, modes=("single",),
                traits=("sniper rifle", "recoil:3"))
KNIFE = Weapon("Knife", "1d4", melee=True)


def soldier(tid: str, side: Side, square: tuple[int, int], *weapons: Weapon,
            **stats: int | bool | str) -> Token:
    base: dict[str, int | float | str | bool] = {"hp": 20, "defense": 12}
    base.update(stats)
    return Token(tid, tid.title(), side, Square(*square), speed=30,
                 weapons=weapons or (RIFLE, KNIFE), stats=base)


def crate(x: float, y: float, grade: str = "half") -> CoverObject:
    from engine.battlemap import CoverGrade

    return CoverObject(f"crate-{x}-{y}", "Crate",
                       ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)), CoverGrade(grade))


def fight(*tokens: Token, cover: tuple[CoverObject, ...] = (), actions: int = 3,
          width: int = 20, height: int = 12) -> Encounter:
    """Round 1, tokens acting in the order given (the first is active)."""
    state = EncounterState("Test", "d20-firearms", FIVE_FOOT,
                           BattleMap(width, height, cover=cover), tokens)
    state = replace(state, combat=CombatState(data={"actions_per_round": actions}))
    system = get_system("d20-firearms")
    order = tuple(
        Combatant(t.id, 20 - i, (0,), system.fresh_budget(state, t.id))
        for i, t in enumerate(tokens)
    )
    combat = replace(state.combat, phase=Phase.ROUND, round=1, order=order,
                     active=tokens[0].id, seed=9)
    return Encounter(replace(state, combat=combat))
