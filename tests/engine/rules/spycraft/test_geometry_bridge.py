"""Spycraft's geometry questions: the Brace cone."""

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.rules.spycraft.geometry_bridge import brace_area
from engine.tokens import Side, Token


def scene() -> EncounterState:
    tokens = (
        Token("me", "Shooter", Side.PARTY, Square(10, 10)),
        Token("east", "Thug east", Side.ENEMY, Square(15, 10)),
        Token("west", "Thug west", Side.ENEMY, Square(5, 10)),
        Token("pal", "Friend east", Side.ALLY, Square(14, 11)),
        Token("far", "Sniper", Side.ENEMY, Square(79, 10)),
    )
    return EncounterState("t", "spycraft", FIVE_FOOT, BattleMap(80, 40), tokens)


def test_brace_gives_plus_one_against_opponents_in_the_90_degree_cone() -> None:
    result = brace_area(scene(), "me", 0)  # facing east
    assert set(result.token_ids()) == {"east", "far"}
    modifier = result.affected("east").modifiers[0]
    assert (modifier.rule, modifier.value) == ("Brace", 1)
    assert Square(10, 10) not in result.squares  # the shooter's own square
    assert Square(12, 8) in result.squares and Square(12, 6) not in result.squares
