"""Desktop benchmarks (a script, not a test): run ``python tests/benchmarks/bench_desktop.py``.

Figures, each printed as ``<figure>: <median> ms (target <target> ms)``:

- one mouse-move update during a token drag on the 200x200 / 2,000-wall / 100-token map,
  with the live route and the live line-of-sight overlay, including painting the frame
  (Qt repaints the regions the update dirtied); every move lands on a new square;
- one mouse-wheel zoom step over the whole 200x200 map (the view fitted to the map, as after
  loading it), alternating out and back in, including painting the frame; no target yet;
- ``bundled-drag``: on each bundled map, a drag hover's engine part (the route and the rule
  system's ordinary move preview, which the drag draws) and the whole update with its
  overlay and frame;
- from launching a fresh Python process to the first painted frame of the default
  encounter (bytecode compiled, as after installation): ``killbox --quit-after-first-frame``.

Issue 18's figures, on the 400x400 / 8,000-segment / 200-token map
(``synthetic_map.make_huge_encounter``) unless said otherwise, every repetition on a new
square or a different token:

- drag updates: near the mover; onto squares inside a 30x30 room walled shut (no route);
  far across the map (about 150 squares) with the whole map in view;
- the player view's fog after a command (a party token moved, a different one each time),
  on the 200x200 and the 400x400 map;
- the first drag update in a fresh process, one second after the first frame (as a GM
  reaching for a token would);
- ``killbox --export-png`` of the default encounter, wall clock, median of 5; the launch
  is the median of 5 too.

The load average is printed first: two cores shared with other work make every figure noisy.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

DRAG_TARGET_MS = 8.0
FOG_TARGET_MS = 8.0
FIRST_DRAG_TARGET_MS = 16.7
LAUNCH_TARGET_MS = 1500.0
EXPORT_TARGET_MS = 1500.0


def _report(figure: str, samples: list[float] | Samples, target: float) -> None:
    """The median against its target; for ``Samples``, the process-time median as well."""
    wall = samples.wall if isinstance(samples, Samples) else samples
    print(f"{figure}: {statistics.median(wall):.2f} ms (target {target:g} ms)")
    if isinstance(samples, Samples):
        cpu = statistics.median(samples.cpu)
        print(f"{figure} (CPU): {cpu:.2f} ms (target {target:g} ms)")


class Samples:
    """Wall-clock and process-time milliseconds of repeated steps (``with samples.step():``)."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    @contextmanager
    def step(self) -> Iterator[None]:
        started, started_cpu = time.perf_counter(), time.process_time()
        yield
        self.wall.append((time.perf_counter() - started) * 1000)
        self.cpu.append((time.process_time() - started_cpu) * 1000)


#: CPU time (user + system) of each benchmarked child process, by figure.
CHILD_CPU: dict[str, list[float]] = {}


def _child_cpu_ms() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def _report_untargeted(figure: str, samples: Samples) -> None:
    print(f"{figure}: {statistics.median(samples.wall):.2f} ms (no target)")
    print(f"{figure} (CPU): {statistics.median(samples.cpu):.2f} ms (no target)")


def _system(name: str):  # type: ignore[no-untyped-def]
    """The encounter's real rule system, or the desktop test stand-in while none is registered."""
    from engine.rules import UnknownSystem, get_system

    try:
        return get_system(name)
    except UnknownSystem:
        from tests.desktop.stub_system import StubSystem

        return StubSystem()


def _open_big_map(app: QApplication, state=None, images=None):  # type: ignore[no-untyped-def]
    """A shown main window on a benchmark encounter (the 200x200 one unless given, with the
    pictures it names), with its own settings."""
    import tempfile

    from desktop.documents import Document
    from desktop.main_window import MainWindow
    from tests.benchmarks.synthetic_map import make_big_encounter

    state = state if state is not None else make_big_encounter()
    folder = Path(tempfile.mkdtemp())
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(
        Document(state, images or {}, None),
        system=_system(state.system),
        autosave_folder=folder,
        settings=settings,
    )
    window.confirm_discard = lambda: True  # type: ignore[method-assign]
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    return window


def _start_and_centre(app: QApplication, window):  # type: ignore[no-untyped-def]
    """Start combat in ``window`` and centre the view, unzoomed, on the token to act."""
    from desktop.scene.style import SQUARE
    from engine.rules.base import Command

    controller = window.controller
    controller.apply(Command("start_combat"))
    window.autosaver.wait()  # the autosave of that command runs on a thread; let it finish
    active = controller.state.token(controller.state.combat.active or "")
    view = window.view
    view.resetTransform()
    view.centerOn(QPointF((active.square.x + 0.5) * SQUARE, (active.square.y + 0.5) * SQUARE))
    app.processEvents()
    return controller, active, view


def _close(window) -> None:  # type: ignore[no-untyped-def]
    window.close()
    window.autosaver.wait()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def bench_drag(app: QApplication, moves: int = 60) -> Samples:
    from desktop.scene.style import SQUARE

    window = _open_big_map(app)
    _, active, view = _start_and_centre(app, window)
    viewport = view.viewport()

    def at(dx: int, dy: int) -> QPointF:
        return view.mapFromScene(
            QPointF((active.square.x + dx + 0.5) * SQUARE, (active.square.y + dy + 0.5) * SQUARE)
        )

    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(0, 0))
    # A loop of targets within a few squares, each move lands on a new square.
    ring = [(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5) if (dx, dy) != (0, 0)]
    samples = Samples()
    for index in range(moves):
        dx, dy = ring[index % len(ring)]
        with samples.step():
            QTest.mouseMove(viewport, at(dx, dy))
            app.processEvents()  # the frame: Qt repaints the regions the update dirtied
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(0, 0))
    _close(window)
    return samples


def _empty_block(state, near, side: int):  # type: ignore[no-untyped-def]
    """The corner of a side x side block holding no token, a few squares from ``near``."""
    from engine.grid import Square

    taken = {t.square for t in state.tokens}
    size = state.battlemap.width
    for distance in range(3, 60):
        for cx, cy in (
            (near.x + distance, near.y),
            (near.x - distance - side, near.y),
            (near.x, near.y + distance),
            (near.x, near.y - distance - side),
        ):
            if not (cx >= 0 and cy >= 0 and cx + side <= size and cy + side <= size):
                continue
            if not any(cx <= t.x < cx + side and cy <= t.y < cy + side for t in taken):
                return Square(cx, cy)
    raise RuntimeError("no empty block for the sealed room")


def bench_drag_scenes(app: QApplication, state, moves: int = 40) -> dict[str, Samples]:  # type: ignore[no-untyped-def]
    """Drag updates on one map: near the mover, into a sealed room, far with the map in view."""
    import random

    from desktop.scene.style import SQUARE
    from engine.rules.base import Command
    from tests.benchmarks.synthetic_map import with_sealed_room

    window = _open_big_map(app, state)
    controller = window.controller
    controller.apply(Command("start_combat"))
    window.autosaver.wait()
    active = controller.state.token(controller.state.combat.active or "")
    room = _empty_block(controller.state, active.square, 30)
    controller.replace_state(with_sealed_room(controller.state, room, 30))
    window.autosaver.wait()
    app.processEvents()
    view = window.view
    viewport = view.viewport()
    size = controller.state.battlemap.width
    rng = random.Random(18)

    def at(x: int, y: int) -> QPointF:
        return view.mapFromScene(QPointF((x + 0.5) * SQUARE, (y + 0.5) * SQUARE))

    def run(targets: list[tuple[int, int]]) -> Samples:
        # Past the double-click interval, so that the press starts a new drag.
        QTest.qWait(QApplication.doubleClickInterval() + 100)
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(*active.square))
        QTest.mouseMove(viewport, at(active.square.x + 1, active.square.y))  # past the threshold
        app.processEvents()
        samples = Samples()
        for x, y in targets:
            with samples.step():
                QTest.mouseMove(viewport, at(x, y))
                app.processEvents()
        QTest.keyClick(viewport, Qt.Key.Key_Escape)  # cancel: the token stays where it was
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(*active.square))
        app.processEvents()
        assert controller.state.token(active.id).square == active.square
        return samples

    scenes: dict[str, Samples] = {}
    view.resetTransform()
    view.centerOn(QPointF((active.square.x + 0.5) * SQUARE, (active.square.y + 0.5) * SQUARE))
    app.processEvents()
    ring = [(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5) if (dx, dy) != (0, 0)]
    rng.shuffle(ring)
    scenes["near"] = run([(active.square.x + dx, active.square.y + dy) for dx, dy in ring[:moves]])
    inside = [(room.x + 1 + i, room.y + 1 + j) for i in range(28) for j in range(28)]
    scenes["sealed room"] = run(rng.sample(inside, moves))
    view.fit_map()
    app.processEvents()
    far = []
    while len(far) < moves:
        angle = rng.uniform(0, 6.2832)
        import math

        x = round(active.square.x + 150 * math.cos(angle))
        y = round(active.square.y + 150 * math.sin(angle))
        if 0 <= x < size and 0 <= y < size:
            far.append((x, y))
    scenes["far, whole map in view"] = run(far)
    _close(window)
    return scenes


def bench_bundled_drag(app: QApplication, moves: int = 40) -> dict[str, tuple[Samples, Samples]]:
    """Drags on each bundled map (combat started, the acting token, squares within four of
    it, each new): per map, the engine's part of a hover (the route and the ordinary move's
    preview) and the whole mouse-move update with its drawing and frame."""
    import random

    from desktop.movement import plan_drag
    from desktop.scene.style import SQUARE
    from engine.files.encounter_file import load_encounter

    figures: dict[str, tuple[Samples, Samples]] = {}
    for path in sorted((ROOT / "maps").glob("*.killbox")):
        loaded = load_encounter(path)
        window = _open_big_map(app, loaded.state, loaded.images)
        controller, active, view = _start_and_centre(app, window)
        viewport = view.viewport()
        ring = [(dx, dy) for dx in range(-4, 5) for dy in range(-4, 5) if (dx, dy) != (0, 0)]
        random.Random(13).shuffle(ring)
        targets = [active.square.offset(dx, dy) for dx, dy in ring[:moves]]
        engine_part = Samples()
        for target in targets:  # the engine alone, as a drag asks it (no cache)
            with engine_part.step():
                controller.preview(plan_drag(controller.state, controller.system, active.id,
                                             target).command)

        def at(square, view=view):  # type: ignore[no-untyped-def]
            return view.mapFromScene(QPointF((square.x + 0.5) * SQUARE, (square.y + 0.5) * SQUARE))

        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(active.square))
        QTest.mouseMove(viewport, at(active.square.offset(1, 0)))  # past the threshold
        app.processEvents()
        window.default_tool._drag.seen.clear()  # type: ignore[attr-defined]
        update = Samples()
        for target in targets:
            with update.step():
                QTest.mouseMove(viewport, at(target))
                app.processEvents()
        QTest.keyClick(viewport, Qt.Key.Key_Escape)
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(active.square))
        figures[f"{path.stem} ({controller.system.title})"] = (engine_part, update)
        _close(window)
    return figures


def party_of(state, members: int):  # type: ignore[no-untyped-def]
    """The encounter with only its first ``members`` party tokens on the party's side (the
    others become enemies): a player view follows a handful of player characters."""
    from dataclasses import replace

    from engine.tokens import Side

    party = [t.id for t in state.tokens if t.side is Side.PARTY][:members]
    tokens = tuple(
        t if t.id in party or t.side is not Side.PARTY else replace(t, side=Side.ENEMY)
        for t in state.tokens
    )
    return replace(state, tokens=tokens)


def bench_fog(app: QApplication, state, updates: int = 15) -> Samples:  # type: ignore[no-untyped-def]
    """The player view after a command: a different party token steps each time; the scene
    takes the new state and the view paints."""
    from desktop.player_view import PlayerScene
    from desktop.view import MapView
    from engine.grid import Square
    from engine.tokens import Side

    scene = PlayerScene(state, {})
    view = MapView(scene)
    view.resize(1024, 768)
    view.show()
    view.fit_map()
    app.processEvents()
    party = [t for t in state.tokens if t.side is Side.PARTY]
    taken = {t.square for t in state.tokens}
    samples = Samples()
    for number in range(updates):
        token = party[(number * 7) % len(party)]
        step = next(
            (
                Square(token.square.x + dx, token.square.y + dy)
                for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))
                if Square(token.square.x + dx, token.square.y + dy) not in taken
                and state.battlemap.in_bounds(Square(token.square.x + dx, token.square.y + dy))
            ),
            token.square,
        )
        taken.discard(token.square)
        taken.add(step)
        state = state.with_token(token.moved_to(step))
        with samples.step():
            scene.set_state(state)
            app.processEvents()
    view.close()
    return samples


_FIRST_DRAG_CHILD = """
import os, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, sys.argv[1])
from desktop.app import prepare_qt_environment
prepare_qt_environment()
from PySide6.QtCore import QPointF, QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
app = QApplication([])
import tempfile
from pathlib import Path
from desktop.main_window import MainWindow, first_document
from desktop.scene.style import SQUARE
from engine.rules.base import Command
folder = Path(tempfile.mkdtemp())
settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
window = MainWindow(first_document(None), autosave_folder=folder, settings=settings,
                    defer_tools=True)
window.confirm_discard = lambda: True
window.resize(1366, 768)
window.show()
app.processEvents()
controller = window.controller
controller.apply(Command("start_combat"))
window.autosaver.wait()
deadline = time.perf_counter() + 1.0  # the GM reaching for a token
while time.perf_counter() < deadline:
    app.processEvents()
    time.sleep(0.005)
active = controller.state.token(controller.state.combat.active or "")
view = window.view
view.centerOn(QPointF((active.square.x + 0.5) * SQUARE, (active.square.y + 0.5) * SQUARE))
app.processEvents()
viewport = view.viewport()
def at(dx, dy):
    return view.mapFromScene(QPointF((active.square.x + dx + 0.5) * SQUARE,
                                     (active.square.y + dy + 0.5) * SQUARE))
QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(0, 0))
started, started_cpu = time.perf_counter(), time.process_time()
QTest.mouseMove(viewport, at(2, 1))
app.processEvents()
wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
print(f"first-drag {wall * 1000} {cpu * 1000}", flush=True)
QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(0, 0))
window.close()
window.autosaver.wait()
"""


def _failed(what: str, result: subprocess.CompletedProcess[str]) -> str:
    """Why a child run failed: its exit code (a signal shows as a negative one, with
    nothing on stderr) and the end of what it printed."""
    return (
        f"{what} failed (exit code {result.returncode}):\n"
        f"{result.stderr[-2000:]}{result.stdout[-500:]}"
    )


def bench_first_drag(runs: int = 5) -> Samples:
    """The first drag update of a fresh process on the default encounter (combat started):
    wall clock, and the process's CPU time over it (all threads: a warm-up thread still
    busy then shows here)."""
    samples = Samples()
    for _ in range(runs):
        result = subprocess.run(
            [sys.executable, "-c", _FIRST_DRAG_CHILD, str(ROOT)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(_failed("the first-drag run", result))
        line = [ln for ln in result.stdout.splitlines() if ln.startswith("first-drag")][-1]
        wall, cpu = (float(word) for word in line.split()[1:3])
        samples.wall.append(wall)
        samples.cpu.append(cpu)
    return samples


def bench_export(runs: int = 5) -> list[float]:
    """``killbox --export-png`` of the default encounter, fresh process, wall clock."""
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="killbox-pycache-")
    out = Path(tempfile.mkdtemp()) / "map.png"
    samples = []
    for run in range(runs + 1):
        started, cpu = time.perf_counter(), _child_cpu_ms()
        result = subprocess.run(
            [sys.executable, "-m", "desktop.app", "--export-png", str(out)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(_failed("the export", result))
        if run:
            samples.append((time.perf_counter() - started) * 1000)
            CHILD_CPU.setdefault("export", []).append(_child_cpu_ms() - cpu)
    return samples


def bench_zoom(app: QApplication, steps: int = 40) -> Samples:
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
    samples = Samples()
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
        with samples.step():
            QApplication.sendEvent(viewport, event)
            app.processEvents()  # the frame: Qt repaints the whole viewport after a zoom
    _close(window)
    return samples


def bench_launch(runs: int = 5) -> list[float]:
    """Fresh processes, as after installation: bytecode is compiled once (a warm-up run, kept
    in a temporary cache so the working tree stays clean), then each run is timed."""
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="killbox-pycache-")
    samples = []
    for run in range(runs + 1):
        # The real command, as measure_launch.py runs the frozen one: it prints
        # "first-frame <time.time()>" on the map's first paint and quits.
        started, cpu = time.time(), _child_cpu_ms()
        result = subprocess.run(
            [sys.executable, "-m", "desktop.app", "--quit-after-first-frame"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(_failed("the launch", result))
        if run:
            painted = float(result.stdout.strip().splitlines()[-1].split()[-1])
            samples.append((painted - started) * 1000)
            CHILD_CPU.setdefault("launch", []).append(_child_cpu_ms() - cpu)
    return samples


SECTIONS = ("drag", "bundled-drag", "fog", "zoom", "first-drag", "launch", "export")


def main() -> None:
    """All figures, or only the sections named on the command line (see SECTIONS)."""
    from desktop.app import prepare_qt_environment
    from tests.benchmarks.synthetic_map import make_big_encounter, make_huge_encounter

    wanted = set(sys.argv[1:]) or set(SECTIONS)
    unknown = wanted - set(SECTIONS)
    if unknown:
        raise SystemExit(f"unknown sections {sorted(unknown)}; choose from {', '.join(SECTIONS)}")
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"-- wall-clock medians; load average {load} on {os.cpu_count()} cores --")
    prepare_qt_environment()  # as the killbox command does before its QApplication
    app = QApplication.instance() or QApplication([])
    if "drag" in wanted:
        _report(
            "drag mouse-move update (route + LOS, 200x200 map)", bench_drag(app), DRAG_TARGET_MS
        )
        for label, state in (
            ("200x200/2,000", make_big_encounter()),
            ("400x400/8,000", make_huge_encounter()),
        ):
            for scene, samples in bench_drag_scenes(app, state).items():
                _report(f"drag update, {scene} ({label})", samples, DRAG_TARGET_MS)
    if "bundled-drag" in wanted:
        for label, (engine_part, update) in bench_bundled_drag(app).items():
            _report(f"drag hover, route and move preview, {label}", engine_part, DRAG_TARGET_MS)
            _report(f"drag update with its overlay and frame, {label}", update, DRAG_TARGET_MS)
    if "fog" in wanted:
        _report(
            "player-view fog after a command, 5-token party (200x200/2,000)",
            bench_fog(app, party_of(make_big_encounter(), 5)),
            FOG_TARGET_MS,
        )
        _report(
            "player-view fog after a command, 5-token party (400x400/8,000)",
            bench_fog(app, party_of(make_huge_encounter(), 5), updates=9),
            FOG_TARGET_MS,
        )
        _report_untargeted(
            "player-view fog after a command, 50-token party (200x200/2,000)",
            bench_fog(app, make_big_encounter(), updates=5),
        )
    if "zoom" in wanted:
        _report_untargeted(
            "wheel zoom step over the whole 200x200 map (fitted view)", bench_zoom(app)
        )
    if "first-drag" in wanted:
        _report(
            "first drag update after launch (median of 5 processes)",
            bench_first_drag(),
            FIRST_DRAG_TARGET_MS,
        )
    if "launch" in wanted:
        _report(
            "launch to first painted frame (default encounter, median of 5)",
            bench_launch(),
            LAUNCH_TARGET_MS,
        )
    if "export" in wanted:
        _report(
            "killbox --export-png of the default encounter (median of 5)",
            bench_export(),
            EXPORT_TARGET_MS,
        )
    if CHILD_CPU:
        print(
            "-- as CPU time of the child process (the whole run, closing included; less "
            "disturbed by other work) --"
        )
    for name, cpu in CHILD_CPU.items():
        _report(f"{name} (CPU)", cpu, LAUNCH_TARGET_MS if name == "launch" else EXPORT_TARGET_MS)


if __name__ == "__main__":
    main()
