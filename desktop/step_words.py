"""What an undo or redo took back or brought back, in the combat log's words, for the status
bar: "Undone: Gang thug shoots at Juno: 18 against AC 13 - hit. (+2 more lines)"."""

from __future__ import annotations

from collections.abc import Sequence

from engine.turns.combat import LogEntry

#: How long the status bar shows it (ms): long enough to read a line of the log.
STEP_MESSAGE_MS = 6000


def step_words(verb: str, longer: Sequence[LogEntry], shorter: Sequence[LogEntry]) -> str:
    """``verb`` and the first log line ``longer`` has past ``shorter`` (the step's own); a
    step that wrote no line (or a log started afresh) is "the last step"."""
    if len(longer) <= len(shorter) or tuple(longer[: len(shorter)]) != tuple(shorter):
        return f"{verb}: the last step"
    lines = longer[len(shorter):]
    more = ""
    if len(lines) > 1:
        more = f" (+{len(lines) - 1} more {'line' if len(lines) == 2 else 'lines'})"
    return f"{verb}: {lines[0].text}{more}"
