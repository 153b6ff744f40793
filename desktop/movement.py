"""Which engine command a token drag stands for, and the route the engine proposes.

The desktop neither plans nor judges routes. In combat, dragging the acting token becomes
the rule system's move action along the cheapest route from ``engine.routes``; the rule
system's preview says whether it is allowed and what it costs. Otherwise (set-up, or any
other token) the drag is the GM placing the token, an engine command checked like any other.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, Need, RuleSystem
from engine.turns.combat import Phase

MOVE_KEYS = ("move", "move_action", "movement")


@dataclass(frozen=True)
class DragPlan:
    command: Command
    route: tuple[Square, ...]  # the start square first; what the overlay draws
    cost: str = ""  # the route's cost as the engine words it ("15 ft")
    budget: str = ""  # the token's speed, for "15 ft of 30 ft"
    found: bool = True  # False when the engine found no route at all


def _module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def move_action_key(system: RuleSystem) -> str | None:
    """The catalogue key of the system's ordinary move (an action that takes a path)."""
    for spec in system.catalogue:
        if spec.key in MOVE_KEYS and Need.PATH in spec.needs:
            return spec.key
    return None


class RoutePlanner:
    """Keeps one movement graph per map and asks it for routes (engine.routes does the work)."""

    def __init__(self) -> None:
        self._graph: Any = None
        self._battlemap: BattleMap | None = None
        self._state: EncounterState | None = None

    @staticmethod
    def available() -> bool:
        return _module("engine.routes.graph") is not None

    def graph(self, state: EncounterState) -> Any:
        graphs = _module("engine.routes.graph")
        if graphs is None:
            return None
        if self._graph is None or state.battlemap is not self._battlemap:
            self._graph = graphs.MovementGraph(state)
            self._battlemap = state.battlemap
        elif state is not self._state:
            self._graph.sync(state)
        self._state = state
        return self._graph

    def route(self, state: EncounterState, token_id: str, target: Square) -> Any | None:
        """The engine's cheapest route (an ``engine.routes`` Route), or None."""
        search = _module("engine.routes.search")
        graph = self.graph(state)
        if search is None or graph is None:
            return None
        errors = _module("engine.routes.errors")
        error_type = getattr(errors, "RouteError", ValueError)
        try:
            return search.cheapest_route(graph, token_id, target)
        except error_type:
            return None


def plan_drag(
    state: EncounterState,
    system: RuleSystem,
    token_id: str,
    target: Square,
    planner: RoutePlanner | None = None,
) -> DragPlan:
    token = state.token(token_id)
    in_combat = state.combat.phase in (Phase.ROUND, Phase.SURPRISE)
    move_key = move_action_key(system)
    if in_combat and state.combat.active == token_id and move_key and planner is not None:
        budget = state.scale.describe(state.scale.squares(token.speed))
        route = planner.route(state, token_id, target)
        if route is None:
            command = Command(move_key, token_id, squares=(target,))
            return DragPlan(command, (token.square, target), "", budget, found=False)
        path = tuple(route.squares)
        command = Command(move_key, token_id, squares=path[1:])
        return DragPlan(command, path, route.cost.text, budget)
    return DragPlan(Command("place", token_id, squares=(target,)), (token.square, target))
