"""Desktop benchmarks (a script, not a test): run ``python tests/benchmarks/bench_desktop.py``.

Figures, each printed as ``<figure>: <median> ms (target <target> ms)``:

- one mouse-move update during a token drag on the 200x200 / 2,000-wall / 100-token map,
  with the live route and the live line-of-sight overlay, including painting the frame
  (Qt repaints the regions the update dirtied); every move lands on a new square;
- one mouse-wheel zoom step over the whole 200x200 map (the view fitted to the map, as after
  loading it), alternating out and back in, including painting the frame; no target yet;
- from launching a fresh Python process to the first painted frame of the default
  encounter (bytecode compiled, as after installation): ``killbox --quit-after-first-frame``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

DRAG_TARGET_MS = 8.0
LAUNCH_TARGET_MS = 2000.0


def _report(figure: str, samples: list[float], target: float) -> None:
    print(f"{figure}: {statistics.median(samples):.2f} ms (target {target:g} ms)")


def _report_untargeted(figure: str, samples: list[float]) -> None:
    print(f"{figure}: {statistics.median(samples):.2f} ms (no target)")


def _system(name: str):  # type: ignore[no-untyped-def]
    """The encounter's real rule system, or the desktop test stand-in while none is registered."""
    from engine.rules import UnknownSystem, get_system

    try:
        return get_system(name)
    except UnknownSystem:
        from tests.desktop.stub_system import StubSystem

        return StubSystem()


def _open_big_map(app: QApplication):  # type: ignore[no-untyped-def]
    """A shown main window on the 200x200 benchmark encounter, with its own settings."""
    import tempfile

    from desktop.documents import Document
    from desktop.main_window import MainWindow
    from tests.benchmarks.synthetic_map import make_big_encounter

    state = make_big_encounter()
    folder = Path(tempfile.mkdtemp())
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(
        Document(state, {}, None),
        system=_system(state.system),
        autosave_folder=folder,
        settings=settings,
    )
    window.confirm_discard = lambda: True  # type: ignore[method-assign]
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    return window


def _close(window) -> None:  # type: ignore[no-untyped-def]
    window.close()
    window.autosaver.wait()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def bench_drag(app: QApplication, moves: int = 60) -> list[float]:
    from desktop.scene.style import SQUARE
    from engine.rules.base import Command

    window = _open_big_map(app)
    controller = window.controller
    controller.apply(Command("start_combat"))
    window.autosaver.wait()  # the autosave of that command runs on a thread; let it finish
    active = controller.state.token(controller.state.combat.active or "")
    view = window.view
    view.resetTransform()
    view.centerOn(QPointF((active.square.x + 0.5) * SQUARE, (active.square.y + 0.5) * SQUARE))
    app.processEvents()
    viewport = view.viewport()

    def at(dx: int, dy: int) -> QPointF:
        return view.mapFromScene(
            QPointF((active.square.x + dx + 0.5) * SQUARE, (active.square.y + dy + 0.5) * SQUARE)
        )

    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(0, 0))
    # A loop of targets within a few squares, each move lands on a new square.
    ring = [(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5) if (dx, dy) != (0, 0)]
    samples = []
    for index in range(moves):
        dx, dy = ring[index % len(ring)]
        started = time.perf_counter()
        QTest.mouseMove(viewport, at(dx, dy))
        app.processEvents()  # the frame: Qt repaints the regions the update dirtied
        samples.append((time.perf_counter() - started) * 1000)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(0, 0))
    _close(window)
    return samples


def bench_zoom(app: QApplication, steps: int = 40) -> list[float]:
    """Real wheel events at the viewport centre, one notch out then one back in, each followed
    by the frame (the view repaints all of itself after a zoom)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QWheelEvent

    window = _open_big_map(app)
    view = window.view
    view.fit_map()
    app.processEvents()
    viewport = view.viewport()
    centre = QPointF(viewport.rect().center())
    global_centre = QPointF(viewport.mapToGlobal(viewport.rect().center()))
    samples = []
    for index in range(steps):
        notch = -120 if index % 2 == 0 else 120
        event = QWheelEvent(
            centre,
            global_centre,
            QPoint(),
            QPoint(0, notch),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        started = time.perf_counter()
        QApplication.sendEvent(viewport, event)
        app.processEvents()  # the frame: Qt repaints the whole viewport after a zoom
        samples.append((time.perf_counter() - started) * 1000)
    _close(window)
    return samples


def bench_launch(runs: int = 3) -> list[float]:
    """Fresh processes, as after installation: bytecode is compiled once (a warm-up run, kept
    in a temporary cache so the working tree stays clean), then each run is timed."""
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="killbox-pycache-")
    samples = []
    for run in range(runs + 1):
        # The real command, as measure_launch.py runs the frozen one: it prints
        # "first-frame <time.time()>" on the map's first paint and quits.
        started = time.time()
        result = subprocess.run(
            [sys.executable, "-m", "desktop.app", "--quit-after-first-frame"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(f"the launch failed:\n{result.stderr[-2000:]}")
        if run:
            painted = float(result.stdout.strip().splitlines()[-1].split()[-1])
            samples.append((painted - started) * 1000)
    return samples


def main() -> None:
    from desktop.app import prepare_qt_environment

    prepare_qt_environment()  # as the killbox command does before its QApplication
    app = QApplication.instance() or QApplication([])
    _report("drag mouse-move update (route + LOS, 200x200 map)", bench_drag(app), DRAG_TARGET_MS)
    _report_untargeted("wheel zoom step over the whole 200x200 map (fitted view)", bench_zoom(app))
    _report("launch to first painted frame (default encounter)", bench_launch(), LAUNCH_TARGET_MS)


if __name__ == "__main__":
    main()
