"""Where a token may stand: on the map, alone, clear of walls, solid cover and impassable ground.

Every command that puts a token somewhere outside the rules of movement (the GM's place,
add, duplicate and edit commands) asks :func:`footprint_problems`, so they all refuse the
same squares for the same reasons. A wall along a square's edge is fine (that is where walls
run); one through the inside of a token's footprint is not: the token would stand in it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import box

from engine.battlemap import BattleMap, TerrainKind
from engine.encounter import EncounterState
from engine.grid import Square
from engine.tokens import Token

#: How many squares a group placement looks at before it gives up on the rest.
GROUP_SEARCH_LIMIT = 2_000

#: How far inside a square a wall must pass to count as going through it (square units):
#: walls drawn on grid lines touch a footprint's edge and never its inside.
_INSIDE = 1e-6


def footprint_problems(state: EncounterState, token: Token) -> list[str]:
    """Every reason ``token`` cannot stand where it is in ``state`` (its own old self ignored)."""
    battlemap = state.battlemap
    reasons: list[str] = []
    for square in token.squares:
        if not battlemap.in_bounds(square):
            reasons.append(
                f"{square} is off the map ({battlemap.width}x{battlemap.height} squares)"
            )
            continue
        other = state.token_at(square)
        if other is not None and other.id != token.id:
            reasons.append(f"{other.name} already stands on {square}")
        if battlemap.terrain_at(square) is TerrainKind.IMPASSABLE:
            reasons.append(f"{square} is impassable ground")
    if reasons:
        return reasons
    inside = box(
        token.square.x + _INSIDE,
        token.square.y + _INSIDE,
        token.square.x + token.size - _INSIDE,
        token.square.y + token.size - _INSIDE,
    )
    lines, names = _barriers(battlemap)
    if len(lines):
        for index in np.flatnonzero(shapely.intersects(lines, inside)):
            reasons.append(f"{token.name} would stand in {names[index]}")
    return reasons


def place_together(
    state: EncounterState, tokens: Sequence[Token], start: Square
) -> tuple[Token, ...]:
    """``tokens`` (new to ``state``) moved to the free squares nearest ``start``, in order,
    each clear of the ones before it; those for which no square was found are left out.

    "Nearest" counts steps that cross no wall, door, window or solid cover, so a group the
    GM drops in a room stays in that room rather than spilling through its wall.
    """
    lines, _names = _barriers(state.battlemap)
    placed: list[Token] = []
    working = state
    seen, queue = {start}, deque([start])
    while queue and len(placed) < len(tokens) and len(seen) < GROUP_SEARCH_LIMIT:
        square = queue.popleft()
        candidate = tokens[len(placed)].moved_to(square)
        if not footprint_problems(working, candidate):
            placed.append(candidate)
            working = working.with_token(candidate)
        for neighbour in square.neighbours():
            if neighbour in seen or not state.battlemap.in_bounds(neighbour):
                continue
            seen.add(neighbour)
            if not _step_crosses(lines, square, neighbour):
                queue.append(neighbour)
    return tuple(placed)


def _step_crosses(lines: np.ndarray, a: Square, b: Square) -> bool:
    """True when the line between two squares' centres crosses a barrier."""
    if not len(lines):
        return False
    step = shapely.LineString([(a.x + 0.5, a.y + 0.5), (b.x + 0.5, b.y + 0.5)])
    return bool(shapely.intersects(lines, step).any())


@lru_cache(maxsize=16)
def _barriers(battlemap: BattleMap) -> tuple[np.ndarray, tuple[str, ...]]:
    """The map's walls, doors, windows and solid cover as Shapely geometry, with their names."""
    geometries: list[object] = []
    names: list[str] = []
    for wall in battlemap.walls:
        if wall.blocks_movement:
            geometries.append(shapely.LineString([wall.start, wall.end]))
            names.append(f"the wall from {_point(wall.start)} to {_point(wall.end)}")
    for portal in battlemap.portals:
        geometries.append(shapely.LineString([portal.start, portal.end]))
        names.append(f"the {portal.label}")
    for cover in battlemap.cover:
        if cover.blocks_movement:
            geometries.append(shapely.Polygon(cover.outline))
            names.append(f"the {cover.name}")
    return np.array(geometries, dtype=object), tuple(names)


def _point(point: tuple[float, float]) -> str:
    return f"({point[0]:g},{point[1]:g})"
