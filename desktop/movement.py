"""Which engine command a token drag stands for, and the route the engine proposes.

The desktop neither plans nor judges routes. In combat, dragging the acting token becomes
the rule system's ordinary move along the cheapest route from ``engine.routes``, searched no
further than the drag may spend (``RuleSystem.drag_bands``: the ordinary move, then a double
move, a run...; a square beyond the last, or shut away, is answered at once). The route's
cost picks the band, whose options the move command carries, and each of its squares is
marked with the band its running cost falls in, as a VTT's drag ruler colours them; the rule
system's preview says whether it is allowed and what it costs. Otherwise (set-up, or any
other token) the drag is the GM placing the token, an engine command checked like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, DragBand, Need, RuleSystem
from engine.rules.drag_reach import band_for
from engine.turns.combat import Phase


@dataclass(frozen=True)
class DragPlan:
    command: Command
    route: tuple[Square, ...]  # the start square first; what the overlay draws
    cost: str = ""  # the route's cost as the engine words it ("15 ft")
    budget: str = ""  # the token's speed, for "15 ft of 30 ft"
    found: bool = True  # False when the engine found no route (within ``within``)
    within: str = ""  # how far the route search went ("30 ft"), when the move has a bound
    #: What the drag may spend (``RuleSystem.drag_bands``), nearest first; and the band the
    #: route falls in (None: no bands, or out of reach).
    bands: tuple[DragBand, ...] = ()
    band: int | None = None
    #: The band of each route square after the start, by the route's cost on reaching it.
    square_bands: tuple[int | None, ...] = ()

    @property
    def no_route_text(self) -> str:
        return f"no route within {self.within}" if self.within else "no route there"

    @property
    def spent(self) -> DragBand | None:
        """The band the route falls in, when the system names bands."""
        return self.bands[self.band] if self.band is not None else None


def move_action_key(system: RuleSystem) -> str | None:
    """The catalogue key of the system's ordinary move (``RuleSystem.ordinary_move_key``),
    when its catalogue has that action and it takes a path."""
    key = system.ordinary_move_key
    takes_path = any(s.key == key and Need.PATH in s.needs for s in system.catalogue)
    return key if takes_path else None


def plan_drag(state: EncounterState, system: RuleSystem, token_id: str, target: Square) -> DragPlan:
    # Imported on the first drag: the route engine is not needed to show the map.
    from engine.routes import RouteError, cheapest_route

    token = state.token(token_id)
    in_combat = state.combat.phase in (Phase.ROUND, Phase.SURPRISE)
    move_key = move_action_key(system)
    if not (in_combat and state.combat.active == token_id and move_key):
        return DragPlan(Command("place", token_id, squares=(target,)), (token.square, target))
    within = ""
    bands: tuple[DragBand, ...] = ()
    try:
        graph, budget, bands = _drag_graph(state, system, token_id)
        allowance = max((band.reach for band in bands), default=None)
        route = cheapest_route(graph, token_id, target, budget=allowance)
        if allowance is not None:
            within = state.scale.describe(allowance)
    except RouteError:
        route, budget = None, ""
    if route is None:
        command = Command(move_key, token_id, squares=(target,))
        return DragPlan(command, (token.square, target), "", budget, found=False, within=within,
                        bands=bands)
    path = tuple(route.squares)
    band = band_for(bands, route.cost.squares)
    options = bands[band].options if band is not None else ()
    command = Command(move_key, token_id, squares=path[1:], options=options)
    return DragPlan(command, path, route.cost.text, budget, bands=bands, band=band,
                    square_bands=_square_bands(state, system, token_id, path[1:], bands))


def _square_bands(
    state: EncounterState, system: RuleSystem, token_id: str, path: tuple[Square, ...],
    bands: tuple[DragBand, ...],
) -> tuple[int | None, ...]:
    if not bands:
        return ()
    from engine.routes.walk import running_costs

    costs = running_costs(state, token_id, path, difficult_cost=system.difficult_terrain_cost)
    return tuple(band_for(bands, cost) for cost in costs)


#: The graph, the mover's speed and its move allowance for the state being dragged in: a
#: drag asks about one state on every mouse move, and any command makes a new state, which
#: refreshes this.
_last_drag: tuple[EncounterState, str, Any, str, tuple[DragBand, ...]] | None = None


def _drag_graph(
    state: EncounterState, system: RuleSystem, token_id: str
) -> tuple[Any, str, tuple[DragBand, ...]]:
    """engine.routes' graph synced to ``state``, the mover's speed budget in words, and
    what a drag may spend now (no bands: the system names no bound)."""
    global _last_drag
    from engine.routes import graph_for, speed_budget

    last = _last_drag
    if last is not None and last[0] is state and last[1] == token_id:
        return last[2], last[3], last[4]
    graph = graph_for(state, difficult_cost=system.difficult_terrain_cost)
    budget = state.scale.describe(speed_budget(graph, token_id))
    bands = system.drag_bands(state, token_id)
    _last_drag = (state, token_id, graph, budget, bands)
    return graph, budget, bands
