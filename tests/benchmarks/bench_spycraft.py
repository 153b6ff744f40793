"""Spycraft attack preview benchmark (a script, not a test):
``python tests/benchmarks/bench_spycraft.py``.

On the bundled warehouse encounter, the active token previews a Standard Attack on every
other token: line of sight, cover from the map (engine.geometry.cover_between) for the
legality check and for Defense, conditions, range. Printed as
``<figure>: <median> ms (target <target> ms)``:

- one preview with a cold cover cache (the first look at a target);
- one preview with a warm cache (a drag or a repeated hover asks again).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import Command, open_encounter  # noqa: E402
from engine.rules.spycraft import geometry_bridge  # noqa: E402

TARGET_COLD_MS = 30.0
TARGET_WARM_MS = 10.0


def main() -> None:
    fight = open_encounter(ROOT / "maps" / "warehouse.killbox")
    if fight.state.combat.phase.value == "setup":
        fight.apply(Command("start_combat"))
    active = str(fight.state.combat.active)
    shooter = fight.state.token(active)
    weapon = shooter.weapons[0].name if shooter.weapons else None
    shots = [
        Command.build("standard_attack", active, targets=[t.id], weapon=weapon)
        for t in fight.state.tokens
        if t.id != active
    ]
    cold, warm = [], []
    for _ in range(5):
        for shot in shots:
            geometry_bridge._cover.cache_clear()
            start = time.perf_counter()
            fight.preview(shot)
            cold.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            fight.preview(shot)
            warm.append((time.perf_counter() - start) * 1000)
    print(
        f"attack preview, cold cover: {statistics.median(cold):.2f} ms (target {TARGET_COLD_MS} ms)"
    )
    print(
        f"attack preview, warm cover: {statistics.median(warm):.2f} ms (target {TARGET_WARM_MS} ms)"
    )


if __name__ == "__main__":
    main()
