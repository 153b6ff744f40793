"""Small Savage Worlds fights for the rule tests: tokens, a map and a running round."""

from __future__ import annotations

from dataclasses import replace

from engine.battlemap import BattleMap
from engine.dice import SeededDice
from engine.encounter import EncounterState
from engine.grid import GridScale, Square
from engine.rules import get_system
from engine.rules.savage_worlds.combat_state import SavageWorldsCombat
from engine.rules.savage_worlds.deck import ActionDeck
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.tokens import Side, Token, Weapon
from engine.turns.combat import Combatant, CombatState, Phase
from engine.turns.session import Encounter

PISTOL = Weapon("Pistol", "2d6", 12, ammo=17, capacity=17, rate_of_fire=1)
SMG = Weapon("SMG", "2d6", 12, ammo=32, capacity=32, rate_of_fire=3)
KNIFE = Weapon("Knife", "1d4", melee=True)


def fighter(tid: str, side: Side, square: tuple[int, int], *weapons: Weapon,
            **stats: int | bool) -> Token:
    base: dict[str, int | float | str | bool] = {
        "wild_card": False, "fighting": 6, "shooting": 6, "athletics": 6, "parry": 5,
        "toughness": 5,
    }
    base.update(stats)
    return Token(tid, tid.title(), side, Square(*square), speed=6,
                 weapons=weapons or (PISTOL, KNIFE), stats=base)


def fight(*tokens: Token, width: int = 12, height: int = 10,
          scale: GridScale = SAVAGE_INCH) -> Encounter:
    """An encounter already in round 1, tokens acting in the order given (first active)."""
    state = EncounterState("Test", "savage-worlds", scale, BattleMap(width, height), tokens)
    system = get_system("savage-worlds")
    order = tuple(
        Combatant(t.id, 14 - i, (4,), system.fresh_budget(state, t.id), {"card": ""})
        for i, t in enumerate(tokens)
    )
    deck = ActionDeck.fresh().shuffled(SeededDice(seed=1))
    combat = CombatState(Phase.ROUND, 1, order, tokens[0].id if tokens else None, seed=3,
                         system_state=SavageWorldsCombat(deck))
    return Encounter(replace(state, combat=combat))
