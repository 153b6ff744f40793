"""Play, undo and redo benchmark (a script, not a test):
``python tests/benchmarks/bench_history.py``.

For each rule system, the conformance suite's small encounter plays 200 random legal
commands (the same seeded choices every run); then the 200 are undone, redone, and the state
is saved. Printed as ``<system> <figure>: <median> ms`` over 5 runs:

- apply: the 200 applies (previews of the candidates tried on the way included);
- undo: undoing all 200, one at a time;
- redo: redoing all 200;
- save: saving the final state (serialise, check by loading, write atomically).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.rules import system_names  # noqa: E402
from engine.rules.base import Command  # noqa: E402
from engine.turns.session import Encounter  # noqa: E402
from tests.engine.rules.test_conformance import small_encounter  # noqa: E402

COMMANDS = 200
RUNS = 5


def play(fight: Encounter, rng: random.Random) -> None:
    for _ in range(COMMANDS):
        active = fight.state.combat.active
        options = [Command("end_turn")]
        if active is not None:
            options.extend(fight.example_commands(active))
        rng.shuffle(options)
        command = next(c for c in options if fight.preview(c).legal)
        fight.apply(command)


def main() -> None:
    for name in system_names():
        timings: dict[str, list[float]] = {"apply": [], "undo": [], "redo": [], "save": []}
        for _ in range(RUNS):
            fight = Encounter(small_encounter(name), seed=7)
            fight.apply(Command("start_combat"))
            rng = random.Random(7)
            start = time.perf_counter()
            play(fight, rng)
            timings["apply"].append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(COMMANDS):
                fight.undo()
            timings["undo"].append(time.perf_counter() - start)
            start = time.perf_counter()
            for _ in range(COMMANDS):
                fight.redo()
            timings["redo"].append(time.perf_counter() - start)
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                fight.save(Path(folder) / "played.killbox")
                timings["save"].append(time.perf_counter() - start)
        for figure, values in timings.items():
            print(f"{name} {figure}: {statistics.median(values) * 1000:.3f} ms")


if __name__ == "__main__":
    main()
