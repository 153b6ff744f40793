"""Undo history memory benchmark (a script, not a test):
``python tests/benchmarks/bench_history_memory.py [COMMANDS]``.

The 200x200 benchmark encounter (100 tokens) starts combat and plays COMMANDS (default
2,000) commands: turns ending and GM damage, each adding lines to the combat log. The
memory the session holds (tracemalloc, after the state of each command is kept for undo)
is printed as bytes per command over each quarter of the run: a history that keeps a copy
of the whole log per state grows per command as the log grows (quadratic in all); a shared
log keeps the figure flat.
"""

from __future__ import annotations

import gc
import itertools
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.rules.base import Command  # noqa: E402
from engine.turns.session import Encounter  # noqa: E402
from tests.benchmarks.synthetic_map import make_big_encounter  # noqa: E402


def command_for(step: int, fight: Encounter) -> Command:
    active = fight.state.combat.active
    if step % 2 and active is not None:
        return Command("gm_damage", targets=(active,), options=(("amount", 1),))
    return Command("end_turn")


def main(commands: int = 2000) -> None:
    fight = Encounter(make_big_encounter(), seed=3)
    fight.apply(Command("start_combat"))
    gc.collect()
    tracemalloc.start()
    marks = [tracemalloc.get_traced_memory()[0]]
    quarter = commands // 4
    for step in range(commands):
        command = command_for(step, fight)
        if not fight.preview(command).legal:
            command = Command("end_turn")
        fight.apply(command)
        if (step + 1) % quarter == 0:
            gc.collect()
            marks.append(tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    print(f"log lines after {commands} commands: {len(fight.log)}")
    for number, (before, after) in enumerate(itertools.pairwise(marks), start=1):
        print(f"quarter {number}: {(after - before) / quarter:,.0f} bytes per command")
    print(f"all: {(marks[-1] - marks[0]) / commands:,.0f} bytes per command")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
