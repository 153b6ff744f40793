"""Movement rates in Cities Without Number: metres, halved while prone.

Paths themselves are walked by ``engine.routes.walk`` on the shared movement graph.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.rules.base import DragBand
from engine.rules.cities_without_number import board
from engine.rules.cities_without_number.combat_rules import prone_speed
from engine.rules.cities_without_number.economy import MAIN, MOVE
from engine.tokens import Token

#: The Run's option that spends the Main action as a second Move in the same go: twice the
#: movement rate, one command and one undo (a drag past the Move's reach sends it). The free
#: attacks are those of the start square (our choice: where the first Move ends is the
#: mover's to pick, and one drag does not stop there).
SECOND_MOVE = "second_move"
SECOND_MOVE_TIMES = 2


def speed(token: Token) -> float:
    """The token's movement rate now, halved while prone."""
    return prone_speed(token.speed) if token.has_condition(board.PRONE) else token.speed


def drag_bands(rate_squares: int, budget: Mapping[str, int]) -> tuple[DragBand, ...]:
    """A drag's reach: a Move, then a Move and the Main action spent as a second, while
    both are unspent this round."""
    bands: tuple[DragBand, ...] = (DragBand("move", rate_squares, "a Move action"),)
    if budget.get(MAIN, 0) >= 1 and budget.get(MOVE, 0) >= 1:
        bands += (DragBand("double move", rate_squares * SECOND_MOVE_TIMES,
                           "the Move and the Main action", ((SECOND_MOVE, True),)),)
    return bands
