"""Geometry benchmark on the synthetic 200x200 map (2,000 segments, 100 tokens).

Run: python tests/benchmarks/bench_geometry.py (from the repository root, in the project's venv)
Prints one line per figure, ``<figure>: <median> ms (target <target> ms)``, then the naive
references and the speed-up ratios. The per-map sight index is built once (as the app does
when a map is loaded) and reported on its own line; every other figure is computed afresh
on each repetition (no result caching). The sight tests run in the compiled kernel
(engine/geometry/_kernel.c) when it is built; set KILLBOX_NO_KERNEL=1 to time the NumPy path.

The peer: the ``visibility-polygon`` npm library (what many web tabletops use), run by node
on the same walls and closed doors, whole-map polygons from varied origins on an open map
(200x200, 500 segments) and dense ones (200x200 with 2,000, 400x400 with 8,000): medians,
the ratio and how much the areas differ. Node times a second pass over the origins, so
that its JIT has compiled the library (the first calls run interpreted, several times
slower: timing them flattered Killbox).
Install it with ``npm install --prefix tests/benchmarks visibility-polygon`` (or
point NODE_PATH at a node_modules holding it); without node or the library the line says
it was skipped.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np
import shapely

# Run as a script, Python puts tests/benchmarks/ first on the path: the repository root must
# come first so that `engine` and `tests` are this checkout's.
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.battlemap import BattleMap  # noqa: E402
from engine.encounter import EncounterState  # noqa: E402
from engine.geometry import (  # noqa: E402
    Inclusion,
    circle_template,
    cone_template,
    sight_pairs,
    squares_see_each_other,
    visibility_polygon,
    visible_squares,
)
from engine.geometry._index import sight_index  # noqa: E402
from engine.geometry._march import KERNEL_BUILT  # noqa: E402
from engine.geometry.los import sight_corners  # noqa: E402
from engine.grid import Point, Square  # noqa: E402
from engine.rules.spycraft.strafe import plan_strafe  # noqa: E402
from engine.tokens import Side, Token, Weapon  # noqa: E402
from tests.benchmarks.synthetic_map import make_big_encounter  # noqa: E402
from tests.engine.geometry.reference_sight import segments_blocked_reference  # noqa: E402

RADIUS = 60.0


#: Process-time medians of the targeted figures, printed after the wall-clock ones.
CPU_FIGURES: list[tuple[str, float, float | None]] = []


def median_ms(action: Callable[[], object], repeats: int) -> float:
    """Median wall-clock time of ``action``; its median process time goes to CPU_FIGURES."""
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    _LAST_CPU[0] = statistics.median(cpu)
    return statistics.median(times)


_LAST_CPU = [0.0]


def report(figure: str, value: float, target: float | None) -> None:
    goal = f"target {target:g} ms" if target is not None else "no target"
    print(f"{figure}: {value:.3f} ms ({goal})")
    if target is not None:
        CPU_FIGURES.append((figure, _LAST_CPU[0], target))


def naive_visibility(battlemap: BattleMap, origin: Point, radius: float) -> shapely.Geometry:
    """Disc minus the union of one shadow per wall (each wall's end rays pushed far out)."""
    index = sight_index(battlemap)
    segments = index.segments
    ox, oy = origin
    far = radius * 4

    def push(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx, dy = x - ox, y - oy
        norm = np.maximum(np.hypot(dx, dy), 1e-9)
        return ox + dx / norm * far, oy + dy / norm * far

    x1, y1, x2, y2 = segments.T
    fx1, fy1 = push(x1, y1)
    fx2, fy2 = push(x2, y2)
    rings = np.stack(
        [np.column_stack(p) for p in ((x1, y1), (x2, y2), (fx2, fy2), (fx1, fy1))], axis=1
    )
    shadows = shapely.make_valid(shapely.polygons(rings))
    near = shapely.dwithin(
        shapely.linestrings(segments.reshape(-1, 2, 2)), shapely.Point(origin), radius
    )
    disc = shapely.Point(origin).buffer(radius, quad_segs=45)
    return shapely.intersection(
        shapely.difference(disc, shapely.union_all(shadows[near])), index.bounds
    )


def naive_pairs(battlemap: BattleMap, pairs: list[tuple[Square, Square]]) -> np.ndarray:
    """All 16 corner lines of every pair through a plain R-tree query."""
    a = sight_corners([p for p, _ in pairs]).reshape(-1, 4, 2)
    b = sight_corners([q for _, q in pairs]).reshape(-1, 4, 2)
    starts = np.repeat(a, 4, axis=1).reshape(-1, 2)
    ends = np.tile(b, (1, 4, 1)).reshape(-1, 2)
    blocked = segments_blocked_reference(battlemap, starts, ends)
    result: np.ndarray = ~blocked.reshape(-1, 16).all(axis=1)
    return result


def strafe_check(encounter: EncounterState, shooter_id: str, column: list[Square]) -> object:
    """The Strafe rule's plan (chain shape, sight, squares behind, range, targets): its reasons."""
    shooter = encounter.token(shooter_id)
    return plan_strafe(encounter, shooter, shooter.weapon("SMG"), tuple(column)).reasons


def strafe_scene(encounter: EncounterState) -> tuple[EncounterState, str, list[Square]]:
    """A shooter with a full magazine and a legal 10-square chain across its line of fire."""
    gun = Weapon("SMG", range_increment=20.0, ammo=30, capacity=30, modes=("full auto",))
    for token in encounter.tokens:
        shooter = Token(token.id, token.name, Side.PARTY, token.square, weapons=(gun,))
        armed = encounter.with_token(shooter)
        for distance in (3, 4, 5, 6):
            x, y = token.square
            column = [Square(x + distance, y + dy) for dy in range(-5, 5)]
            if all(encounter.battlemap.in_bounds(s) for s in column) and not strafe_check(
                armed, token.id, column
            ):
                return armed, token.id, column
    raise RuntimeError("no room for the Strafe scene")


def door_toggle_then_sight(segments: int, repeats: int = 21) -> float:
    """A different door each time opens or closes, then one line-of-sight question: the
    map's sight index follows the door (``sight_index`` derives it in place)."""
    from engine.battlemap import PortalState
    from tests.benchmarks.synthetic_map import make_big_encounter as make

    encounter = make(segments=segments)
    battlemap = encounter.battlemap
    sight_index(battlemap)
    a, b = encounter.tokens[10].square, encounter.tokens[60].square
    doors = iter(range(10**6))

    def toggle_and_look() -> None:
        nonlocal battlemap
        portal = battlemap.portals[next(doors) * 7 % len(battlemap.portals)]
        wanted = PortalState.CLOSED if portal.state is PortalState.OPEN else PortalState.OPEN
        battlemap = battlemap.with_portal_state(portal.id, wanted)
        squares_see_each_other(battlemap, [a], [b])

    return median_ms(toggle_and_look, repeats)


_NODE_PEER = r"""
const vp = require("visibility-polygon");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  // Once per map, like our index: crossings broken, the map's edge added as walls.
  const [x0, y0] = job.low, [x1, y1] = job.high;
  const edge = [
    [[x0, y0], [x1, y0]], [[x1, y0], [x1, y1]], [[x1, y1], [x0, y1]], [[x0, y1], [x0, y0]],
  ];
  const segments = vp.breakIntersections(job.segments.concat(edge));
  // One untimed pass first, so that the timed one runs JIT-compiled code (its best case).
  for (const origin of job.origins) vp.compute(origin, segments);
  const times = [], cpu = [];
  let first = null;
  for (const origin of job.origins) {
    const start = process.hrtime.bigint(), used = process.cpuUsage();
    const polygon = vp.compute(origin, segments);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    const spent = process.cpuUsage(used);
    cpu.push((spent.user + spent.system) / 1e3);
    if (first === null) first = polygon;
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  console.log(JSON.stringify({ median: median(times), cpu: median(cpu), polygon: first }));
});
"""


def versus_visibility_polygon_js(repeats: int = 15) -> None:
    """Whole-map visibility polygons, Killbox and the npm library, open and dense maps."""
    import json
    import shutil
    import subprocess

    from tests.benchmarks.synthetic_map import make_big_encounter, make_huge_encounter

    node = shutil.which("node")
    modules = os.environ.get("NODE_PATH") or str(ROOT / "tests" / "benchmarks" / "node_modules")
    if node is None or not (Path(modules) / "visibility-polygon").is_dir():
        print(
            "visibility-polygon (npm): skipped, node or the library is missing "
            "(npm install --prefix tests/benchmarks visibility-polygon)"
        )
        return
    for size, segments in ((200, 500), (200, 2_000), (400, 8_000)):
        encounter = (
            make_huge_encounter() if size == 400 else make_big_encounter(segments=segments)
        )
        battlemap = encounter.battlemap
        lines = [(w.start, w.end) for w in battlemap.walls if w.blocks_sight]
        lines += [(p.start, p.end) for p in battlemap.portals if p.blocks_sight]
        origins = [t.square.centre for t in encounter.tokens[:repeats]]
        job = {
            "segments": [[list(a), list(b)] for a, b in lines],
            "origins": [list(o) for o in origins],
            "low": [0, 0],
            "high": [battlemap.width, battlemap.height],
        }
        result = subprocess.run(
            [node, "-e", _NODE_PEER],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            env={**os.environ, "NODE_PATH": modules},
            timeout=600,
            check=True,
        )
        peer = json.loads(result.stdout)
        whole = float(battlemap.width + battlemap.height)
        sight_index(battlemap)
        turn = iter(range(10**6))

        def ours_once(bm=battlemap, at=origins, radius=whole, turn=turn) -> object:  # type: ignore[no-untyped-def]
            return visibility_polygon(bm, at[next(turn) % len(at)], radius)

        ours = median_ms(ours_once, repeats)
        mine = visibility_polygon(battlemap, origins[0], whole)
        theirs = shapely.Polygon(peer["polygon"])
        differ = abs(mine.area - theirs.area) / max(theirs.area, 1e-9)
        label = f"{size}x{size}/{segments:,}"
        print(
            f"whole-map visibility polygon ({label}): Killbox {ours:.3f} ms (CPU "
            f"{_LAST_CPU[0]:.3f} ms), visibility-polygon (node) {peer['median']:.3f} ms (CPU "
            f"{peer['cpu']:.3f} ms); Killbox / peer (CPU): {_LAST_CPU[0] / peer['cpu']:.2f}x "
            f"(below 1: Killbox faster); areas differ by {differ:.2%}"
        )


def main() -> int:
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"-- wall-clock medians; load average {load} on {os.cpu_count()} cores --")
    kernel = "compiled C kernel" if KERNEL_BUILT else "NumPy fallback (kernel not compiled)"
    print(f"-- sight tests run in the {kernel} --")
    encounter = make_big_encounter()
    battlemap = encounter.battlemap
    start = time.perf_counter()
    sight_index(battlemap)
    report("sight index build (once per map)", (time.perf_counter() - start) * 1000, None)
    viewer = encounter.tokens[50]
    origin = viewer.square.centre

    poly = median_ms(lambda: visibility_polygon(battlemap, origin, RADIUS), 15)
    report("visibility polygon, 60-square radius", poly, 3)
    seen = median_ms(lambda: visible_squares(battlemap, viewer, RADIUS), 7)
    report("squares one token sees, 60-square radius", seen, 2)

    pairs = list(combinations([t.square for t in encounter.tokens], 2))
    los = median_ms(lambda: sight_pairs(battlemap, encounter.tokens), 7)
    report(f"line of sight, all {len(pairs)} token pairs", los, 5)

    partial = Inclusion.PARTIAL
    blast = median_ms(lambda: circle_template(encounter, (100.0, 100.0), 2, inclusion=partial), 50)
    report("template squares and tokens (Savage Worlds Medium Blast)", blast, 0.5)
    centre = Inclusion.CENTRE
    cone = median_ms(lambda: cone_template(encounter, origin, 30.0, 12.0, inclusion=centre), 50)
    report("template squares and tokens (d20 60 ft cone)", cone, 0.5)

    for segments in (2_000, 8_000):
        toggled = door_toggle_then_sight(segments)
        report(
            f"door toggle + first sight question (200x200/{segments:,}, index in place)",
            toggled,
            5,
        )

    strafing, shooter_id, column = strafe_scene(encounter)
    strafe = median_ms(lambda: strafe_check(strafing, shooter_id, column), 50)
    report("Strafe check, 10 squares", strafe, 0.5)

    print("-- the same figures as process (CPU) time, less disturbed by other work --")
    for figure, value, target in CPU_FIGURES:
        print(f"{figure} (CPU time): {value:.3f} ms (target {target:g} ms)")
    print("-- naive references --")
    naive_poly = median_ms(lambda: naive_visibility(battlemap, origin, RADIUS), 3)
    fast, slow = (
        visibility_polygon(battlemap, origin, RADIUS),
        naive_visibility(battlemap, origin, RADIUS),
    )
    agreement = shapely.area(shapely.symmetric_difference(fast, slow)) / max(slow.area, 1e-9)
    report("naive visibility polygon (union of wall shadows)", naive_poly, None)
    print(
        f"visibility polygon speed-up: {naive_poly / poly:.1f}x (areas differ by {agreement:.2%})"
    )
    sample = pairs[::10]
    naive_los = median_ms(lambda: naive_pairs(battlemap, sample), 1) * len(pairs) / len(sample)
    report(
        f"naive line of sight, all {len(pairs)} pairs (R-tree per line; "
        f"timed on {len(sample)}, scaled)",
        naive_los,
        None,
    )
    same = np.array_equal(
        naive_pairs(battlemap, sample),
        squares_see_each_other(battlemap, [a for a, _ in sample], [b for _, b in sample]),
    )
    print(f"line of sight speed-up: {naive_los / los:.1f}x (same answers: {same})")
    print("-- peers --")
    versus_visibility_polygon_js()
    return 0


if __name__ == "__main__":
    sys.exit(main())
