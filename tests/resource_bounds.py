"""The time and memory bound of issue 20: no file or command takes more than 5 s or 1 GB.

``within_bounds`` measures the CPU time of this process (not wall time, so other work on a
shared machine does not count) and its peak resident memory over the block: Linux lets a
process reset its own high-water mark (``/proc/self/clear_refs``), so the peak is this
block's alone; elsewhere tracemalloc's peak of Python allocations stands in.
"""

from __future__ import annotations

import re
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: The bound issue 20 sets for loading, drawing or a first command.
SECONDS = 5.0
MEGABYTES = 1024

_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")


@dataclass
class Usage:
    seconds: float = 0.0
    megabytes: float = 0.0


def _resident_kb(field: str) -> int | None:
    try:
        found = re.search(rf"{field}:\s+(\d+) kB", _STATUS.read_text())
    except OSError:
        return None
    return int(found.group(1)) if found else None


def _reset_peak() -> bool:
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return _resident_kb("VmHWM") is not None


@contextmanager
def within_bounds(seconds: float = SECONDS, megabytes: float = MEGABYTES) -> Iterator[Usage]:
    """Fail the test if the block uses more CPU time or memory than the bound."""
    usage = Usage()
    by_rss = _reset_peak()
    before = _resident_kb("VmRSS") if by_rss else None
    if not by_rss:
        tracemalloc.start()
    start = time.process_time()
    try:
        yield usage
    finally:
        usage.seconds = time.process_time() - start
        if by_rss and before is not None:
            peak = _resident_kb("VmHWM") or 0
            usage.megabytes = max(0, peak - before) / 1024
        else:
            usage.megabytes = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
    assert usage.seconds < seconds, f"took {usage.seconds:.2f} s of CPU, over {seconds} s"
    assert usage.megabytes < megabytes, f"used {usage.megabytes:.0f} MB, over {megabytes} MB"
