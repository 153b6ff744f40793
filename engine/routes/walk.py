"""Walking a path the GM drew, square by square, on the shared movement graph.

Each step must be open to this mover (walls, closed doors, windows, impassable ground and
opponents block; allies may be crossed but not ended on); the cost uses the map's diagonal
rule (alternating or every diagonal 1), times the system's difficult cost on difficult
ground. Rule systems turn the cost in squares into their unit and compare it with their budgets.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.encounter import EncounterState
from engine.grid import Square, step_cost
from engine.routes.graph import graph_for
from engine.routes.search import Walker


def path_problems(
    state: EncounterState, token_id: str, path: Sequence[Square], *, difficult_cost: int
) -> tuple[list[str], int]:
    """(reasons the path cannot be walked, its cost in squares). ``path`` excludes the start."""
    if not path:
        return ["a move needs at least one square to move to"], 0
    token = state.token(token_id)
    walker = Walker(graph_for(state, difficult_cost=difficult_cost), token)
    costs = _running_costs(state, walker, token.square, path, difficult_cost)
    cost = costs[-1] if costs else 0
    if len(costs) < len(path):
        previous = path[len(costs) - 1] if costs else token.square
        square = path[len(costs)]
        near = max(abs(square.x - previous.x), abs(square.y - previous.y)) == 1
        why = "a wall, obstacle or foe is in the way" if near else "the squares do not touch"
        return [f"{token.name} cannot step from {previous} to {square}: {why}"], cost
    if not walker.can_end(path[-1]):
        return [f"{token.name} cannot stop on {path[-1]}: someone stands there"], cost
    return [], cost


def running_costs(
    state: EncounterState, token_id: str, path: Sequence[Square], *, difficult_cost: int
) -> tuple[int, ...]:
    """What the path has cost in squares on reaching each of its squares (start excluded),
    as far as it can be walked: a drag colours each square by the band its cost falls in."""
    token = state.token(token_id)
    walker = Walker(graph_for(state, difficult_cost=difficult_cost), token)
    return _running_costs(state, walker, token.square, path, difficult_cost)


def _running_costs(
    state: EncounterState, walker: Walker, start: Square, path: Sequence[Square],
    difficult_cost: int,
) -> tuple[int, ...]:
    costs: list[int] = []
    previous = start
    cost = diagonals = 0
    for square in path:
        if not walker.step_between(previous, square):
            break
        diagonal = square.x != previous.x and square.y != previous.y
        step = step_cost(diagonals, diagonal, state.scale.diagonal)
        cost += step * difficult_cost if walker.lands_difficult(square) else step
        costs.append(cost)
        diagonals += diagonal
        previous = square
    return tuple(costs)
