"""Walking a path square by square: each step to a neighbour, on the map, not into a wall,
impassable ground or another token, costed with the map's diagonal rule.

Used by every system's Move until the shared routes package offers the same check; the
cost is in squares, the caller turns it into inches, feet or metres.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.battlemap import TerrainKind
from engine.encounter import EncounterState
from engine.grid import Point, Square, path_cost_squares, squares_of_footprint


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 < 0 and d3 * d4 < 0


def step_blocked(state: EncounterState, a: Square, b: Square) -> bool:
    """Does a wall, closed door or window cut the step between two neighbouring squares?"""
    start, end = a.centre, b.centre
    battlemap = state.battlemap
    for wall in battlemap.walls:
        if wall.blocks_movement and _segments_cross(start, end, wall.start, wall.end):
            return True
    return any(
        portal.blocks_movement and _segments_cross(start, end, portal.start, portal.end)
        for portal in battlemap.portals
    )


def path_problems(
    state: EncounterState, token_id: str, path: Sequence[Square]
) -> tuple[list[str], int]:
    """(reasons the path cannot be walked, its cost in squares). ``path`` excludes the start;
    difficult terrain costs double."""
    token = state.token(token_id)
    reasons: list[str] = []
    if not path:
        return ["a move needs at least one square to move to"], 0
    previous = token.square
    occupied = {sq: t for sq, t in state.occupancy().items() if t.id != token_id}
    cost = 0
    walked = [token.square]
    for square in path:
        if max(abs(square.x - previous.x), abs(square.y - previous.y)) != 1:
            reasons.append(f"{square} is not next to {previous}")
            break
        for covered in squares_of_footprint(square, token.size):
            if not state.battlemap.in_bounds(covered):
                reasons.append(f"{covered} is off the map")
            elif state.battlemap.terrain_at(covered) is TerrainKind.IMPASSABLE:
                reasons.append(f"{covered} cannot be crossed")
            elif covered in occupied:
                reasons.append(f"{occupied[covered].name} stands on {covered}")
        if step_blocked(state, previous, square):
            reasons.append(f"a wall or closed door blocks the step from {previous} to {square}")
        if reasons:
            break
        walked.append(square)
        if state.battlemap.terrain_at(square) is TerrainKind.DIFFICULT:
            cost += 1  # the extra square for difficult ground; the step itself is below
        previous = square
    cost += path_cost_squares(walked, state.scale.diagonal)
    return reasons, cost


def straight_line(start: Square, path: Sequence[Square]) -> bool:
    """Every step of the path in the same direction (a Charge or Run line)."""
    if not path:
        return False
    dx, dy = path[0].x - start.x, path[0].y - start.y
    previous = start
    for square in path:
        if (square.x - previous.x, square.y - previous.y) != (dx, dy):
            return False
        previous = square
    return True
