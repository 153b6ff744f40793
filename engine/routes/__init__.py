"""Movement on the battle map with NetworkX: reach, Charge, Withdraw, Bull Rush, Push, Run.

``MovementGraph`` is the one graph per map (squares as nodes, steps as edges, updated in
place when a door changes or a token moves); the other modules answer rule questions on
it and return frozen results that carry the route (squares in order), its cost (``Cost``:
squares and the system's unit) and, when something is not allowed, the reasons in words.

Modules: ``graph`` (the graph), ``cuts`` (walls cutting steps), ``search`` (reach and
cheapest routes, d20 diagonals by a (square, parity) state search), ``lines`` (straight
lines), ``charge``, ``withdraw`` (Spycraft Withdraw, CWN Run), ``run`` (Spycraft Run),
``push`` (Bull Rush, Savage Worlds Push), ``deviation`` (the Deviation Diagram),
``suppression`` (Spycraft Suppressive Fire final attacks along a route).
"""

from engine.routes.charge import ChargeOption, ChargeReport, charge, charge_options
from engine.routes.deviation import (
    DEVIATION_DIAGRAM,
    Deviation,
    WeaponFlight,
    deviate,
    weapon_flight,
)
from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph, graph_for
from engine.routes.push import (
    BullRushCheck,
    BullRushResult,
    SavagePush,
    bull_rush,
    bull_rush_approach,
    savage_push,
)
from engine.routes.results import Cost, FinalAttack, Route
from engine.routes.run import RunAnswer, run_destinations, run_line
from engine.routes.search import Reach, Start, cheapest_route, reach, speed_budget
from engine.routes.suppression import SuppressedArea, final_attacks, with_suppression
from engine.routes.withdraw import (
    CwnRun,
    FreeAttack,
    Withdrawal,
    cwn_run,
    run_free_attacks,
    withdraw,
)

__all__ = [
    "DEVIATION_DIAGRAM",
    "BullRushCheck",
    "BullRushResult",
    "ChargeOption",
    "ChargeReport",
    "Cost",
    "CwnRun",
    "Deviation",
    "FinalAttack",
    "FreeAttack",
    "MovementGraph",
    "Reach",
    "Route",
    "RouteError",
    "RunAnswer",
    "SavagePush",
    "Start",
    "SuppressedArea",
    "WeaponFlight",
    "Withdrawal",
    "bull_rush",
    "bull_rush_approach",
    "charge",
    "charge_options",
    "cheapest_route",
    "cwn_run",
    "deviate",
    "final_attacks",
    "graph_for",
    "reach",
    "run_destinations",
    "run_free_attacks",
    "run_line",
    "savage_push",
    "speed_budget",
    "weapon_flight",
    "with_suppression",
    "withdraw",
]
