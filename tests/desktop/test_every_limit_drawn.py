"""The file at every limit (tests/engine/files/every_limit.py) exported with
``killbox --export-png`` and opened in the main window, each in a fresh process on the
offscreen platform, as a GM would run them: issue 20 bounds loading and drawing, each to
5 s of CPU, and the process to 1 GB.

Each process times its loading and its drawing apart (the app's own functions, wrapped)
and prints them with its peak resident memory. Held to the bound, the window (7.5 s and
940 MB before) no longer writes and checks the whole encounter again as the autosave's
base (the file opened is copied), nor lays out 200,000 log lines; the export's terrain
outlines are merged from rectangles, not squares. Figures here: export 1.9 s loading and
4.1 s drawing and writing an 8000 x 8000 picture, 860 MB; window 1.9 s loading and
2.4 s to the first frame, 700 MB.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.render import MAX_EXPORT_PIXELS
from tests.engine.files.every_limit import write_file
from tests.resource_bounds import MEGABYTES, SECONDS

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]

#: Wraps ``module.name`` so the CPU seconds it took are printed as ``label seconds`` when
#: the process ends, with the peak resident memory of the whole run.
_TIMING = """
import atexit, os, resource, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
spent = {}
def timed(module, name, label):
    original = getattr(module, name)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start
    setattr(module, name, wrapper)
@atexit.register
def report():
    for label, seconds in spent.items():
        print(label, seconds)
    print("megabytes", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""

EXPORT = _TIMING + """
import desktop.documents, desktop.render
from desktop.app import main
timed(desktop.documents, "load_document", "loading")
timed(desktop.render, "export_png", "drawing")
sys.exit(main([sys.argv[1], "--export-png", sys.argv[2]]))
"""

#: The launch the app measures its first frame with (``--quit-after-first-frame``): the
#: main window on the file, closed once the map has been painted.
WINDOW = _TIMING + """
import desktop.main_window
from desktop import app
timed(desktop.main_window, "first_document", "loading")
timed(app, "first_frame_only", "opening")
sys.exit(app.main([sys.argv[1], "--quit-after-first-frame"]))
"""


def _run(script: str, tmp_path: Path, *args: str) -> dict[str, float]:
    home = tmp_path / "home"  # the app's settings and data folder, not the tester's
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local"), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                            text=True, timeout=300, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = dict(line.split() for line in result.stdout.splitlines() if line.count(" ") == 1)
    return {label: float(value) for label, value in figures.items()}


@pytest.fixture(scope="module")
def every_limit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_file(tmp_path_factory.mktemp("every-limit") / "every-limit.killbox")


def test_exporting_the_file_at_every_limit(every_limit: Path, tmp_path: Path) -> None:
    picture = tmp_path / "every-limit.png"
    spent = _run(EXPORT, tmp_path, str(every_limit), str(picture))
    print(f"--export-png at every limit: loading {spent['loading']:.2f} s, drawing and "
          f"writing {spent['drawing']:.2f} s of CPU, {spent['megabytes']:.0f} MB peak")
    from PySide6.QtGui import QImageReader

    # The map picture's 8 px a square, scaled down to the export's pixel budget.
    assert QImageReader(str(picture)).size().width() == round(math.sqrt(MAX_EXPORT_PIXELS))
    assert spent["loading"] < SECONDS
    assert spent["drawing"] < SECONDS
    assert spent["megabytes"] < MEGABYTES


def test_opening_the_file_at_every_limit_in_the_window(every_limit: Path, tmp_path: Path) -> None:
    spent = _run(WINDOW, tmp_path, str(every_limit))
    building = spent["opening"] - spent["loading"]
    print(f"main window at every limit: loading {spent['loading']:.2f} s, window and first "
          f"frame {building:.2f} s of CPU, {spent['megabytes']:.0f} MB peak")
    assert spent["loading"] < SECONDS
    assert building < SECONDS
    assert spent["megabytes"] < MEGABYTES
