"""Warming the route engine after the first frame: the first drag finds the work done."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QApplication, QWidget

from desktop.warm import warm, warm_after_first_paint
from engine.geometry._index import sight_index
from engine.routes import graph as route_graph
from engine.routes import graph_for
from tests.desktop.sample import sample_state


def test_warm_builds_the_graph_and_sight_index_the_first_drag_asks_for() -> None:
    state = sample_state()
    warm(state)
    # Other windows' warm threads may add graphs meanwhile: look for this map's.
    warmed = [
        g for g in list(route_graph._graphs) if route_graph._same_map(g.battlemap, state.battlemap)
    ]
    assert warmed
    assert any(graph_for(
        state, difficult_cost=2
    ) is graph for graph in warmed)  # found, not built again
    assert sight_index(state.battlemap) is sight_index(state.battlemap)


def test_the_warm_thread_starts_only_after_the_first_paint(qapp: QApplication) -> None:
    state = sample_state()
    started: list[threading.Thread] = []
    widget = QWidget()
    warm_after_first_paint(widget, lambda: started.append(threading.current_thread()) or state)
    qapp.processEvents()
    assert not started  # not shown, not painted: nothing yet
    widget.resize(50, 50)
    widget.show()
    widget.repaint()
    for _ in range(50):
        qapp.processEvents()
        if started:
            break
    assert started == [threading.main_thread()]  # the state is read on the GUI thread
    for thread in threading.enumerate():
        if thread.name == "killbox-warm":
            thread.join(timeout=30)
    widget.close()
