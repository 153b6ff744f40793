"""Warm the route and sight machinery on a background thread once the first frame is shown.

The first drag of a session would otherwise import NetworkX and SciPy and build the map's
movement graph, its search arrays and its sight index while the GM holds the mouse (about
a second and a half on a 2-core machine). The window starts a daemon thread after its
first paint, so the first frame does not wait for it; ``engine.routes.graph_for`` and
``engine.geometry``'s index cache take a lock, so a drag that comes first simply waits
for (or does) the same work.
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
    ask for: the movement graph, its long-route arrays and the map's sight index."""
    from engine.geometry._index import sight_index
    from engine.routes import graph_for

    # What a drag asks first (its route, its sight lines), then what long routes need.
    graph = graph_for(state)
    sight_index(state.battlemap)
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


def warm_after_first_paint(widget: QWidget, state_now: Callable[[], EncounterState]) -> None:
    """Start ``warm`` on a daemon thread once ``widget`` has painted for the first time.

    ``state_now`` is called on the GUI thread when the thread starts (the state then).
    """
    timer = QTimer(widget)
    timer.setSingleShot(True)
    timer.setInterval(0)  # just after the paint, when the event loop is free again

    def start() -> None:
        state = state_now()
        threading.Thread(target=warm, args=(state,), name="killbox-warm", daemon=True).start()

    timer.timeout.connect(start)
    widget.installEventFilter(_FirstPaint(widget, timer))
