"""Movement on the battle map with NetworkX: reach, Charge, breaking away, Bull Rush, Run.

``MovementGraph`` is the one graph per map (squares as nodes, steps as edges, updated in
place when a door changes or a token moves); the other modules answer rule questions on
it and return frozen results that carry the route (squares in order), its cost (``Cost``:
squares and the system's unit) and, when something is not allowed, the reasons in words.

Modules: ``graph`` (the graph), ``cuts`` (walls cutting steps), ``search`` (reach and
cheapest routes, alternating diagonals by a (square, parity) state search; the Python
reference), ``reach_compiled`` (reach flooded in C, answered as an array), ``lines``
(straight lines), ``charge``, ``withdraw`` (adjacent opponents, flanking, free attacks on
leaving), ``run`` (a straight Run), ``push`` (a Bull Rush), ``deviation`` (the Deviation
Diagram). No rule system is named here: each hands over its rule (a Charge rule value, a
Run's multiple, a push distance) as parameters.
"""

from engine.routes.charge import ChargeOption, ChargeReport, charge, charge_options
from engine.routes.deviation import (
    DEVIATION_DIAGRAM,
    Deviation,
    DeviationRule,
    WeaponFlight,
    deviate,
    weapon_flight,
)
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph, graph_for
from engine.routes.push import BullRushCheck, BullRushResult, bull_rush, bull_rush_approach
from engine.routes.results import Cost, Reach, Route, Start
from engine.routes.run import RunAnswer, run_destinations, run_line
from engine.routes.search import cheapest_route, reach, speed_budget
from engine.routes.withdraw import FreeAttack, adjacent_opponents, flanking_pair, run_free_attacks

__all__ = [
    "DEVIATION_DIAGRAM",
    "BullRushCheck",
    "BullRushResult",
    "ChargeOption",
    "ChargeReport",
    "Cost",
    "Deviation",
    "DeviationRule",
    "FreeAttack",
    "MovementGraph",
    "Reach",
    "Route",
    "RouteError",
    "RunAnswer",
    "Start",
    "WeaponFlight",
    "adjacent_opponents",
    "bull_rush",
    "bull_rush_approach",
    "charge",
    "charge_options",
    "cheapest_route",
    "deviate",
    "flanking_pair",
    "graph_for",
    "reach",
    "run_destinations",
    "run_free_attacks",
    "run_line",
    "speed_budget",
    "weapon_flight",
]
