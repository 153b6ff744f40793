"""Universal VTT benchmarks (a script, not a test): ``python tests/benchmarks/bench_uvtt.py``.

Figures, each printed as ``<figure>: <median> ms (target <target> ms)``:

- importing the real Dungeondraft fixture (1280 x 1280 px PNG, 9 walls), when present;
- importing a generated 64 x 64 square cave map: a 4096 x 4096 px PNG and a cave wall of
  4,000 tiny segments;
- simplifying that cave wall alone;
- exporting the generated map back to Universal VTT;
- exporting the 200 x 200 square benchmark map (2,000 wall and door segments, no picture,
  so a plain one is drawn) and importing that export back.

The targets are this project's own (the issue sets none): a GM waits for a map to open
about as long as an image viewer takes, and a progress bar covers the rest.
"""

from __future__ import annotations

import base64
import io
import json
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from engine.files.encounter_file import EncounterFile  # noqa: E402
from engine.files.uvtt import export_uvtt, import_uvtt  # noqa: E402
from engine.files.uvtt_shapes import simplify_polylines  # noqa: E402
from engine.grid import Point  # noqa: E402
from tests.benchmarks.synthetic_map import make_big_encounter  # noqa: E402

#: The rule system the maps are imported for (the importer asks: a map names none).
SYSTEM = "spycraft"
FIXTURE = ROOT.parent / "shared" / "fixtures" / "uvtt" / "dungeondraft-0.3-doors.dd2vtt"

TARGETS_MS = {
    "import real fixture (1280 px)": 300.0,
    "import 64x64 cave map (4096 px, 4000 segments)": 1000.0,
    "simplify 4000-segment cave wall": 50.0,
    "export 64x64 cave map": 1000.0,
    "export 200x200 map (2000 segments, plain picture)": 3000.0,
    "import that export back": 3000.0,
}


def _median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _cave(points: int = 4000) -> list[Point]:
    rng = random.Random(7)
    outline = []
    for i in range(points):
        angle = 2 * math.pi * i / points
        r = 28 + 2 * math.sin(7 * angle) + rng.uniform(-0.08, 0.08)
        outline.append((32 + r * math.cos(angle), 32 + r * math.sin(angle)))
    return [*outline, outline[0]]


def _cave_map(folder: Path) -> Path:
    side = 4096
    gradient = Image.linear_gradient("L").resize((side, side))
    picture = Image.merge("RGB", (gradient, gradient.rotate(90), gradient.rotate(180)))
    out = io.BytesIO()
    picture.save(out, "PNG", compress_level=3)
    document = {
        "format": 0.3,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": 64, "y": 64},
            "pixels_per_grid": 64,
        },
        "line_of_sight": [[{"x": x, "y": y} for x, y in _cave()]],
        "objects_line_of_sight": [],
        "portals": [],
        "lights": [],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "image": base64.b64encode(out.getvalue()).decode("ascii"),
    }
    path = folder / "cave.dd2vtt"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def main() -> None:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if FIXTURE.exists():
            figures["import real fixture (1280 px)"] = _median_ms(
                lambda: import_uvtt(FIXTURE, system=SYSTEM), 7
            )
        cave_path = _cave_map(folder)
        figures["import 64x64 cave map (4096 px, 4000 segments)"] = _median_ms(
            lambda: import_uvtt(cave_path, system=SYSTEM), 3
        )
        cave = _cave()
        figures["simplify 4000-segment cave wall"] = _median_ms(
            lambda: simplify_polylines([cave]), 7
        )
        imported = import_uvtt(cave_path, system=SYSTEM)
        figures["export 64x64 cave map"] = _median_ms(
            lambda: export_uvtt(imported, folder / "out.dd2vtt"), 3
        )
        walls = len(imported.state.battlemap.walls)
        big = EncounterFile(make_big_encounter(), {})
        big_path = folder / "big.uvtt"
        figures["export 200x200 map (2000 segments, plain picture)"] = _median_ms(
            lambda: export_uvtt(big, big_path), 3
        )
        figures["import that export back"] = _median_ms(
            lambda: import_uvtt(big_path, system=SYSTEM), 3
        )
    for figure, median in figures.items():
        print(f"{figure}: {median:.1f} ms (target {TARGETS_MS[figure]:.0f} ms)")
    print(f"cave wall segments after simplification: {walls} (from 4000)")


if __name__ == "__main__":
    main()
