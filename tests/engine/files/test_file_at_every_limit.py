"""A .killbox file at every limit of engine/limits.py at once (issue 20, must-have 2;
built by tests/engine/files/every_limit.py) loads and takes its first commands within the
bound. A fresh Python process loads it, starts the fight and previews and applies the
first token's move, and reports the CPU time of that work and its peak memory.

It found two hangs (a Spycraft roll-off among more than 20 tied tokens, a quadratic id
check) and, held to the bound, three costs: the cycle collector walking the parsed file
while it was built, a second walk for unknown keys and a condition on each of the 1,000
tokens checking the whole map each time (7 s and 610 MB; about 3.3 s now, 400 MB).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine import limits
from tests.engine.files.every_limit import write_file
from tests.resource_bounds import MEGABYTES, SECONDS

#: Run in a fresh process: load, start the fight, preview and apply the first token's
#: step; print what was loaded, the CPU seconds of that work and the process's peak
#: resident memory (MB).
MEASURE = """
import resource, sys, time
from engine.rules.base import Command
from engine.turns.session import Encounter
start = time.process_time()
fight = Encounter.open(sys.argv[1], seed=1)
counts = (len(fight.state.tokens), len(fight.state.battlemap.walls))
fight.apply(Command("start_combat"))
actor = fight.state.combat.active
token = fight.state.token(actor)
step = Command.build("standard_move", actor, squares=[(token.square.x + 1, token.square.y)])
if fight.preview(step).legal:
    fight.apply(step)
fight.apply(Command("end_turn"))
seconds = time.process_time() - start
print(counts[0], counts[1], len(fight.state.combat.order), seconds,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def test_a_file_at_every_limit_loads_and_takes_its_first_commands(tmp_path: Path) -> None:
    path = write_file(tmp_path / "every-limit.killbox")
    result = subprocess.run([sys.executable, "-c", MEASURE, str(path)], capture_output=True,
                            text=True, timeout=180, cwd=Path(__file__).resolve().parents[3])
    assert result.returncode == 0, result.stderr[-2000:]
    tokens, walls, order, seconds, megabytes = result.stdout.split()
    print(f"every limit at once: {float(seconds):.2f} s of CPU, {float(megabytes):.0f} MB peak")
    assert (int(tokens), int(walls), int(order)) == (
        limits.MAX_TOKENS, limits.MAX_WALLS, limits.MAX_TOKENS)
    assert float(seconds) < SECONDS
    assert float(megabytes) < MEGABYTES
