"""Run: Spycraft's straight-line Run, and where a Run may end.

Spycraft: up to 4x Speed (3x in full armour) in a straight line; the runner ends
flat-footed. The line is an ordinary move that may not turn (see ``engine.routes.lines``):
walls, impassable squares and opponents stop it, allies may be crossed but not ended on,
difficult terrain costs double. Full armour is the token's stat ``full_armor`` (or
``full_armour``) unless the caller says otherwise.

Cities Without Number's Run is a normal move (see ``engine.routes.withdraw.cwn_run``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.grid import Square
from engine.routes.graph import MovementGraph
from engine.routes.lines import line_is_clear, walk_line
from engine.routes.results import Cost, Route
from engine.routes.search import Walker, reach
from engine.tokens import Token

RUN_MULTIPLIER = 4
RUN_MULTIPLIER_FULL_ARMOUR = 3


@dataclass(frozen=True, slots=True)
class RunAnswer:
    """A Spycraft Run to one square: the route when allowed, else the reasons."""

    allowed: bool
    route: Route | None
    limit: Cost
    reasons: tuple[str, ...] = ()
    ends_flat_footed: bool = True


def wears_full_armour(token: Token) -> bool:
    return bool(token.stat("full_armor", False) or token.stat("full_armour", False))


def run_limit(movement: MovementGraph, runner: Token, full_armour: bool | None = None) -> int:
    armoured = wears_full_armour(runner) if full_armour is None else full_armour
    multiplier = RUN_MULTIPLIER_FULL_ARMOUR if armoured else RUN_MULTIPLIER
    return movement.scale.squares(multiplier * runner.speed)


def run_line(
    movement: MovementGraph, runner_id: str, end: Square, *, full_armour: bool | None = None
) -> RunAnswer:
    """Whether the runner can Run straight to ``end``, with the route or the reasons."""
    runner = movement.token(runner_id)
    end = movement.check_square(end, "Run destination")
    limit = run_limit(movement, runner, full_armour)
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
    movement: MovementGraph, runner_id: str, *, full_armour: bool | None = None
) -> dict[Square, Route]:
    """Every square a Spycraft Run can end on, with its straight route."""
    runner = movement.token(runner_id)
    limit = run_limit(movement, runner, full_armour)
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
