"""Hypothesis strategies: small maps with walls on and off the grid lines."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.grid import Square

SIZE = 10


@st.composite
def grid_walls(draw: st.DrawFn) -> Wall:
    """A wall along a grid line, one to four squares long."""
    length = draw(st.integers(1, 4))
    if draw(st.booleans()):
        x, y = draw(st.integers(0, SIZE)), draw(st.integers(0, SIZE - length))
        return Wall((x, y), (x, y + length))
    x, y = draw(st.integers(0, SIZE - length)), draw(st.integers(0, SIZE))
    return Wall((x, y), (x + length, y))


@st.composite
def free_walls(draw: st.DrawFn) -> Wall:
    """A wall at any angle, ends on a quarter-square lattice nudged off the grid.

    The odd nudges keep a wall from running exactly through a sight corner, a tie that
    floating point may break either way (and differently once the map is turned).
    """
    xs = st.integers(0, SIZE * 4 - 1).map(lambda v: v / 4 + 0.0123)
    ys = st.integers(0, SIZE * 4 - 1).map(lambda v: v / 4 + 0.0371)
    start = (draw(xs), draw(ys))
    end = draw(st.tuples(xs, ys).filter(lambda p: p != start))
    return Wall(start, end)


walls = st.one_of(grid_walls(), free_walls())
maps = st.lists(walls, max_size=12).map(lambda ws: BattleMap(SIZE, SIZE, walls=tuple(ws)))
squares = st.builds(Square, st.integers(0, SIZE - 1), st.integers(0, SIZE - 1))


def rotate_wall(wall: Wall) -> Wall:
    """The wall turned 90 degrees clockwise on screen about the map (x, y) -> (SIZE - y, x)."""
    (x1, y1), (x2, y2) = wall.start, wall.end
    return Wall((SIZE - y1, x1), (SIZE - y2, x2))


def rotate_square(square: Square) -> Square:
    """Square (x, y) after the same turn: its corner (x, y+1) lands on (SIZE-1-y, x)."""
    return Square(SIZE - 1 - square.y, square.x)


def rotate_map(battlemap: BattleMap) -> BattleMap:
    return BattleMap(SIZE, SIZE, walls=tuple(rotate_wall(w) for w in battlemap.walls))
