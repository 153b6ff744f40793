"""Warm the route and sight machinery on a background thread once the first frame is shown.

The first drag of a session would otherwise import the route engine and build the map's
movement graph and its sight index (and, without the compiled route search, import SciPy
and build its search arrays) while the GM holds the mouse. The window starts a daemon
thread after its first paint, so the first frame does not wait for it;
``engine.routes.graph_for`` and ``engine.geometry``'s index cache take a lock, so a drag
that comes first simply waits for (or does) the same work.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from engine.encounter import EncounterState


def warm(state: EncounterState) -> None:
    """Import the route engine and build what the first drag and sight line of ``state``
    ask for: the movement graph and the map's sight index, and, where routes are not
    compiled, SciPy and the long-route arrays."""
    from engine.geometry._index import sight_index
    from engine.routes import graph_for
    from engine.routes.compiled import ASTAR_BUILT
    from engine.rules import get_system

    # What a drag asks first (its route, its sight lines), then what long routes need.
    graph = graph_for(state, difficult_cost=get_system(state.system).difficult_terrain_cost)
    sight_index(state.battlemap)
    if ASTAR_BUILT:
        return  # routes run in C: no SciPy import (a quarter second) holding the GIL
    if importlib.util.find_spec("scipy") is not None:
        import scipy.sparse.csgraph  # noqa: F401  (the long-route search's first import)
    graph.state_steps()


class _FirstPaint(QObject):
    def __init__(self, widget: QWidget, start: QTimer) -> None:
        super().__init__(widget)
        self._start = start

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            self._start.start()
        return False


def after_first_paint(widget: QWidget, action: Callable[[], None]) -> None:
    """Run ``action`` on the GUI thread once ``widget`` has painted for the first time,
    when the event loop is free again (what the first frame does not need waits)."""
    timer = QTimer(widget)
    timer.setSingleShot(True)
    timer.setInterval(0)  # just after the paint, when the event loop is free again
    timer.timeout.connect(action)
    widget.installEventFilter(_FirstPaint(widget, timer))


def warm_after_first_paint(widget: QWidget, state_now: Callable[[], EncounterState]) -> None:
    """Start ``warm`` on a daemon thread once ``widget`` has painted for the first time.

    ``state_now`` is called on the GUI thread when the thread starts (the state then).
    """

    def start() -> None:
        state = state_now()
        threading.Thread(target=warm, args=(state,), name="killbox-warm", daemon=True).start()

    after_first_paint(widget, start)
