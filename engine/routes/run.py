"""A straight-line Run, and where such a Run may end.

Up to a multiple of Speed (the rule system says which: its numbers, its armour rule) in a
straight line. The line is an ordinary move that may not turn (see ``engine.routes.lines``):
walls, impassable squares and opponents stop it, allies may be crossed but not ended on,
difficult terrain costs the system's multiple. A Run that is an ordinary move of normal
length needs none of this: it is a ``reach`` with the mover's Speed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.grid import Square
from engine.routes.graph import MovementGraph
from engine.routes.lines import line_is_clear, walk_line
from engine.routes.results import Cost, Route
from engine.routes.search import Walker, reach
from engine.tokens import Token


@dataclass(frozen=True, slots=True)
class RunAnswer:
    """A straight Run to one square: the route when allowed, else the reasons."""

    allowed: bool
    route: Route | None
    limit: Cost
    reasons: tuple[str, ...] = ()


def run_limit(movement: MovementGraph, runner: Token, multiple: float) -> int:
    """Whole squares in ``multiple`` x the runner's Speed."""
    if multiple <= 0:
        raise ValueError(f"a Run covers a positive multiple of Speed, not {multiple}")
    return movement.scale.squares(multiple * runner.speed)


def run_line(
    movement: MovementGraph, runner_id: str, end: Square, *, multiple: float
) -> RunAnswer:
    """Whether the runner can Run straight to ``end`` within ``multiple`` x Speed, with the
    route or the reasons."""
    runner = movement.token(runner_id)
    end = movement.check_square(end, "Run destination")
    limit = run_limit(movement, runner, multiple)
    limit_cost = Cost.of(limit, movement.scale)
    if end == runner.square:
        return RunAnswer(False, None, limit_cost, ("a Run has to go somewhere",))
    walk = walk_line(Walker(movement, runner), end, strict=False)
    reasons = list(walk.problems)
    if walk.route.cost.squares > limit:
        reasons.append(f"the line costs {walk.route.cost}, more than the Run allows ({limit_cost})")
    if reasons:
        return RunAnswer(False, None, limit_cost, tuple(reasons))
    return RunAnswer(True, walk.route, limit_cost)


def run_destinations(
    movement: MovementGraph, runner_id: str, *, multiple: float
) -> dict[Square, Route]:
    """Every square a straight Run of ``multiple`` x Speed can end on, with its route."""
    runner = movement.token(runner_id)
    limit = run_limit(movement, runner, multiple)
    walker = Walker(movement, runner)
    # A straight run is also an ordinary move, so only squares within reach can qualify.
    candidates = sorted(reach(movement, runner_id, limit).costs)
    found: dict[Square, Route] = {}
    for end in candidates:
        if not line_is_clear(walker, end):
            continue
        walk = walk_line(walker, end, strict=False)
        if walk.clear and walk.route.cost.squares <= limit:
            found[end] = walk.route
    return found
