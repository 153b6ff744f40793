"""Route benchmarks (a script, not a test): run ``python tests/benchmarks/bench_routes.py``.

On the generated 200x200 map with 2,000 wall and door segments and 100 tokens
(``tests/benchmarks/synthetic_map.py``), each figure is printed as
``<figure>: <median> ms (target <target> ms)``:

- building the movement graph from the encounter;
- toggling one door (the graph is updated in place);
- reach within 12 squares for one token;
- Charge legality (d20 clear path, line of sight from ``engine.geometry``) of one token
  against the 50 opponents on the map;
- the cheapest route from one corner of the map to the other (the compiled A* of
  ``engine/routes/_astar.c``; where it is not built, SciPy over the state arrays of
  ``engine.routes.state_graph``, which the first long route builds: about 20-25 ms once
  per map, not part of the figure). Which squares the mover can reach at all is found
  once per mover and map state (a drag asks from one square many times) and kept.

The graph is built once and then reused, as the app does: the query figures are medians
of repeated queries on a graph whose adjacency the first query has already touched.

Peers, side by side in this process when installed (``pip install tcod``, the ``bench``
extra): python-tcod's C pathfinder on the same graph and costs (each open step of the
movement graph an edge, 2 for a straight step and 3 for a diagonal, in half squares), as
ratios: the route, and reach (within 12 and 24 squares and over the whole map) against its
flood of the whole map from the same square; a missing peer is skipped with a line saying so.
Reach is flooded in C and answers with an array of costs per square (a mapping view over
it); the last line times the whole-map reach read into a dict of every square, as a caller
that walks all of it would.

The machine may be shared, so each figure is printed twice: the wall-clock median, and
the median CPU time of this process (``time.process_time``) as ``<figure> (CPU)``, which
other processes' load disturbs far less.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.battlemap import PortalState  # noqa: E402
from engine.grid import Square  # noqa: E402
from engine.routes import MovementGraph, cheapest_route, reach  # noqa: E402
from engine.routes.charge import charge_options  # noqa: E402
from engine.rules.d20_firearms.combat_rules import CHARGE  # noqa: E402
from engine.tokens import Side  # noqa: E402
from tests.benchmarks.synthetic_map import make_big_encounter  # noqa: E402

TARGETS_MS = {
    "build graph": 300.0,
    "door toggle": 5.0,
    "reach within 12 squares": 2.0,
    "Charge legality vs 50 opponents": 5.0,
    "route across the whole map": 20.0,
}


def median_ms(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall-clock and median CPU milliseconds of ``runs`` calls."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def report(figure: str, value: tuple[float, float]) -> None:
    wall, cpu = value
    target = TARGETS_MS[figure]
    print(f"{figure}: {wall:.2f} ms (target {target:g} ms)")
    print(f"{figure} (CPU): {cpu:.2f} ms (target {target:g} ms)")


def main() -> None:
    state = make_big_encounter(seed=0)
    report("build graph", median_ms(lambda: MovementGraph(state, difficult_cost=2), 7))

    movement = MovementGraph(state, difficult_cost=2)
    door = state.battlemap.portals[0].id

    def toggle() -> None:
        closed = movement.portal_state(door) is not PortalState.OPEN
        movement.set_portal_state(door, PortalState.OPEN if closed else PortalState.CLOSED)

    report("door toggle", median_ms(toggle, 51))

    party = [t for t in state.tokens if t.side is Side.PARTY]
    runner = min(party, key=lambda t: abs(t.square.x - 100) + abs(t.square.y - 100))
    reach(movement, runner.id, 12)
    report("reach within 12 squares", median_ms(lambda: reach(movement, runner.id, 12), 51))

    opponents = [t for t in state.tokens if t.side is Side.ENEMY]
    assert len(opponents) == 50, len(opponents)
    # The party token with the most opponents within Charge range, so that lines and line
    # of sight are exercised, not only the quick "too far" answer.
    charger = max(
        party,
        key=lambda p: sum(
            max(abs(o.square.x - p.square.x), abs(o.square.y - p.square.y)) <= 13 for o in opponents
        ),
    )
    charge_options(movement, charger.id, rule=CHARGE, reach=1)
    report(
        "Charge legality vs 50 opponents",
        median_ms(lambda: charge_options(movement, charger.id, rule=CHARGE, reach=1), 21),
    )

    corner = min(party, key=lambda t: t.square.x + t.square.y)
    occupied = movement.occupant
    goal = next(
        Square(x, y)
        for x, y in ((199 - i, 199 - j) for i in range(20) for j in range(20))
        if Square(x, y) not in occupied and Square(x, y) not in movement.impassable
    )
    first = cheapest_route(movement, corner.id, goal)
    assert first is not None, "no route across the benchmark map"
    ours = median_ms(lambda: cheapest_route(movement, corner.id, goal), 11)
    report("route across the whole map", ours)
    versus_tcod(movement, corner.id, goal, first.cost.squares, ours)
    reach_versus_tcod(movement, runner.id)


def versus_tcod(movement: MovementGraph, mover_id: str, goal: Square, cost: int, ours) -> None:  # type: ignore[no-untyped-def]
    """python-tcod's Pathfinder (A*, C) on the same steps and costs, and the ratio."""
    try:
        import numpy as np
        import tcod.path
    except ImportError:
        print("python-tcod: not installed (pip install tcod, or the 'bench' extra): skipped")
        return
    from engine.grid import NEIGHBOUR_STEPS

    mover = movement.token(mover_id)
    width, height = movement.width, movement.height
    blocked, _, _ = movement.obstacle_arrays(mover)
    enterable = (1 - np.frombuffer(blocked, dtype=np.uint8)).reshape(height, width)
    mask = np.asarray(movement.open_mask, dtype=np.int64).reshape(height, width)

    def build() -> object:
        graph = tcod.path.CustomGraph((height, width))
        for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
            graph.add_edge(
                (dy, dx), 3 if dx and dy else 2, cost=enterable, condition=(mask >> k) & 1
            )
        graph.set_heuristic(cardinal=2, diagonal=3)
        return graph

    def route() -> object:
        finder = tcod.path.Pathfinder(build())
        finder.add_root((mover.square.y, mover.square.x))
        return finder.path_to((goal.y, goal.x))

    path = route()
    finder = tcod.path.Pathfinder(build())
    finder.add_root((mover.square.y, mover.square.x))
    finder.resolve((goal.y, goal.x))
    peer_cost = int(finder.distance[goal.y, goal.x]) // 2
    wall, cpu = median_ms(route, 11)
    print(
        f"python-tcod route across the whole map: {wall:.2f} ms (CPU {cpu:.2f} ms), "
        f"{len(path)} squares, cost {peer_cost} (Killbox: {cost}, same: {peer_cost == cost})"
    )
    print(
        f"route across the whole map, Killbox / python-tcod (CPU): {ours[1] / cpu:.2f}x "
        "(below 1: Killbox faster)"
    )


def reach_versus_tcod(movement: MovementGraph, mover_id: str) -> None:
    """Reach within a Speed-like budget and over the whole map against python-tcod's
    Pathfinder resolving every square from the same start (it cannot stop at a budget)."""
    try:
        import numpy as np
        import tcod.path
    except ImportError:
        return  # versus_tcod already said so
    from engine.grid import NEIGHBOUR_STEPS

    mover = movement.token(mover_id)
    width, height = movement.width, movement.height
    blocked, _, _ = movement.obstacle_arrays(mover)
    enterable = (1 - np.frombuffer(blocked, dtype=np.uint8)).reshape(height, width)
    mask = np.asarray(movement.open_mask, dtype=np.int64).reshape(height, width)

    def flood() -> object:
        graph = tcod.path.CustomGraph((height, width))
        for k, (dx, dy) in enumerate(NEIGHBOUR_STEPS):
            graph.add_edge(
                (dy, dx), 3 if dx and dy else 2, cost=enterable, condition=(mask >> k) & 1
            )
        finder = tcod.path.Pathfinder(graph)
        finder.add_root((mover.square.y, mover.square.x))
        finder.resolve()
        return finder.distance

    peer = median_ms(flood, 7)
    print(f"python-tcod flood of the whole map: {peer[0]:.2f} ms (CPU {peer[1]:.2f} ms)")
    # 1,000 squares reaches every square this map's walls leave open to the mover.
    for budget in (12, 24, 1000):
        ours = median_ms(lambda budget=budget: reach(movement, mover_id, budget), 7)
        what = f"{budget:,} squares" + (" (the whole map)" if budget == 1000 else "")
        print(
            f"reach within {what}, Killbox / python-tcod's flood (CPU): {ours[1] / peer[1]:.2f}x "
            f"(Killbox {ours[1]:.2f} ms; below 1: Killbox faster)"
        )
    # The answer stays an array; a caller that reads every square pays for the dict.
    read = median_ms(lambda: dict(reach(movement, mover_id, 1000).costs), 7)
    print(
        f"reach within 1,000 squares read into a dict, Killbox / python-tcod's flood (CPU): "
        f"{read[1] / peer[1]:.2f}x (Killbox {read[1]:.2f} ms; below 1: Killbox faster)"
    )


if __name__ == "__main__":
    main()
