"""The one cover setting each system's table tests read: a shooter, a target four squares
east, and a wall hiding the lower half of the target's square (half cover)."""

from engine.battlemap import BattleMap, Wall
from engine.grid import Square
from engine.tokens import Side, Token

SHOOTER = Token("s", "Shooter", Side.PARTY, Square(0, 0))
TARGET = Token("t", "Target", Side.ENEMY, Square(4, 0))
# A wall along x = 3 from y = 0.5 down: it hides the lower half of the target's square.
HALF_WALL = BattleMap(10, 10, walls=(Wall((3, 0.5), (3, 2)),))
