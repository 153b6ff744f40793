"""Movement rates in Cities Without Number: metres, halved while prone.

Paths themselves are walked by ``engine.routes.walk`` on the shared movement graph.
"""

from __future__ import annotations

from engine.rules.cities_without_number import board
from engine.rules.cities_without_number.combat_rules import prone_speed
from engine.tokens import Token


def speed(token: Token) -> float:
    """The token's movement rate now, halved while prone."""
    return prone_speed(token.speed) if token.has_condition(board.PRONE) else token.speed
