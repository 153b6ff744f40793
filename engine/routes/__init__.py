"""Movement on the battle map with NetworkX: reach, Charge, Withdraw, Bull Rush, Push, Run.

``MovementGraph`` is the one graph per map (squares as nodes, steps as edges, updated in
place); the other modules answer rule questions on it and return frozen results that
carry the route (squares in order), its cost (``Cost``: squares and the system's unit)
and, when something is not allowed, the reasons in plain words.
"""

from engine.routes.errors import RouteError
from engine.routes.graph import MovementGraph
from engine.routes.results import Cost, FinalAttack, Route, RouteAnswer
from engine.routes.search import Reach, Start, cheapest_route, reach, speed_budget

__all__ = [
    "Cost",
    "FinalAttack",
    "MovementGraph",
    "Reach",
    "Route",
    "RouteAnswer",
    "RouteError",
    "Start",
    "cheapest_route",
    "reach",
    "speed_budget",
]
