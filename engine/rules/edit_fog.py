"""``set_fog``: the GM reveals squares to the players, hides them, or hands them back to sight.

``set_fog rect=[(x1, y1), (x2, y2)] | squares=[...] mode=reveal|hide|automatic``; ``all=true``
with ``mode=automatic`` clears every square the GM set by hand.
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.fog import FogMode
from engine.rules.base import Command, Outcome
from engine.rules.edit_options import Options
from engine.words import counted

_WORDS = {
    FogMode.REVEAL: "reveals {count} to the players",
    FogMode.HIDE: "hides {count} from the players",
    FogMode.AUTOMATIC: "hands {count} back to the party's sight",
}


def build_set_fog(state: EncounterState, command: Command) -> Outcome:
    options = Options(command)
    wanted = options.text("mode", "")
    everything = options.flag("all", False)
    squares = set(options.squares()) | options.rect_squares()
    if wanted not in {m.value for m in FogMode}:
        options.problems.append(f"mode= must be reveal, hide or automatic, not {wanted!r}")
    if everything:
        if wanted != FogMode.AUTOMATIC:
            options.problems.append("all=true goes with mode=automatic (clear the hand-set fog)")
        squares |= state.fog.revealed | state.fog.hidden
    elif not squares and not options.problems:
        options.problems.append("say which squares (squares=[...] or rect=[(x1, y1), (x2, y2)])")
    off = sorted(s for s in squares if not state.battlemap.in_bounds(s))
    if off:
        options.problems.append(f"{off[0]} is off the map")
    options.done()
    mode = FogMode(wanted)
    count = len(squares)
    new = replace(state, fog=state.fog.marked(squares, mode))
    done = _WORDS[mode].format(count=counted(count, "square"))
    return new, (Event(EventKind.NOTE, f"GM {done}."),)
