"""Fast scripted play through the desktop's own path (EncounterController + Autosaver), for
the kill -9 tests: ``python -m tests.desktop.autosave_player DATA_FOLDER OPS [hold]``.

It plays OPS seeded operations (random legal commands, an undo every seventh) on the
conformance suite's small Spycraft encounter and prints ``op N`` after each one returns,
which is when the window would show its result. With ``hold`` it prints ``ready`` after
the first command and waits for a line on stdin before going on (the lock test).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

from engine.rules.base import Command
from engine.turns.session import Encounter

SYSTEM = "spycraft"


def start_state():  # type: ignore[no-untyped-def]
    from tests.engine.rules.test_conformance import small_encounter

    return small_encounter(SYSTEM)


def operations(fight: Encounter, count: int, seed: int = 11) -> Iterator[Command | None]:
    """The ops to play on ``fight`` (None is an undo); each is chosen on the state the
    previous ones left, so the same seed plays the same game."""
    rng = random.Random(seed)
    yield Command("start_combat")
    for number in range(1, count):
        if number % 7 == 0 and fight.can_undo:
            yield None
            continue
        active = fight.state.combat.active
        options = [Command("end_turn")]
        if active is not None:
            options.extend(fight.example_commands(active))
        rng.shuffle(options)
        yield next(c for c in options if fight.preview(c).legal)


def reference(count: int) -> Encounter:
    """The same game played in this process, without autosave."""
    fight = Encounter(start_state())
    for op in operations(fight, count):
        if op is None:
            fight.undo()
        else:
            fight.apply(op)
    return fight


def main(folder: Path, count: int, hold: bool) -> None:
    from desktop.autosave import Autosaver
    from desktop.controller import EncounterController
    from desktop.documents import Document

    controller = EncounterController(Document(start_state()))
    autosaver = Autosaver(controller, folder)
    print(f"session {autosaver.session_folder}", flush=True)
    for number, op in enumerate(operations(controller.session, count), start=1):
        if op is None:
            controller.undo()
        else:
            controller.apply(op)
        print(f"op {number}", flush=True)
        if hold and number == 1:
            autosaver.wait()  # its snapshot written: the files stay as they are now
            print("ready", flush=True)
            sys.stdin.readline()
    print("done", flush=True)
    sys.stdin.readline()  # killed here, or told to finish
    autosaver.finish()


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), len(sys.argv) > 3 and sys.argv[3] == "hold")
