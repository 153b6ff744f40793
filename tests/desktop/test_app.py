"""The killbox command line: --export-png renders an encounter without a window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from desktop import app as app_module
from desktop.documents import Document
from tests.desktop.conftest import distinct_colours
from tests.desktop.sample import HEIGHT, WIDTH, sample_state


@pytest.fixture
def sample_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Serve the sample encounter for any path, so this test does not depend on engine.files."""
    path = tmp_path / "sample.killbox"
    path.write_bytes(b"")
    monkeypatch.setattr(
        "desktop.documents.load_document", lambda p, *_: Document(sample_state(), {}, p)
    )
    return path


def test_export_png_writes_a_picture_of_the_map_size(
    qapp: QApplication, sample_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "map.png"
    assert app_module.main([str(sample_file), "--export-png", str(out)]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (WIDTH * 64, HEIGHT * 64)
    assert distinct_colours(image) > 20


def test_the_command_keeps_qt_painting_on_the_gui_thread(
    qapp: QApplication, sample_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    environ: dict[str, str] = {}
    app_module.prepare_qt_environment(environ)
    assert environ == {"QT_NO_GUI_THREADPOOL": "1"}
    called: list[bool] = []
    monkeypatch.setattr(app_module, "prepare_qt_environment", lambda: called.append(True))
    assert app_module.main([str(sample_file), "--export-png", str(tmp_path / "m.png")]) == 0
    assert called == [True]


def test_export_png_honours_the_requested_resolution(
    qapp: QApplication, sample_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "small.png"
    args = [str(sample_file), "--export-png", str(out), "--pixels-per-square", "20"]
    assert app_module.main(args) == 0
    assert QImage(str(out)).size().toTuple() == (WIDTH * 20, HEIGHT * 20)


@pytest.mark.parametrize("value", ["0", "-3", "100000", "2.5", "many"])
def test_export_png_refuses_a_resolution_that_is_no_picture(
    qapp: QApplication, sample_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    value: str,
) -> None:
    out = tmp_path / "tiny.png"
    with pytest.raises(SystemExit) as stopped:
        app_module.main([str(sample_file), "--export-png", str(out), "--pixels-per-square", value])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "--pixels-per-square: must be" in error and value in error
    assert not out.exists()


def test_a_resolution_below_one_pixel_is_refused_by_the_renderer() -> None:
    from desktop.render import export_pixels_per_square

    with pytest.raises(ValueError, match="1 or more, not 0"):
        export_pixels_per_square(sample_state(), 0)


def test_an_export_keeps_within_its_side_and_its_pixel_budget() -> None:
    """A long thin map is held by the longest side, a big square one by the pixel budget."""
    from dataclasses import replace

    from desktop.render import MAX_EXPORT_PIXELS, MAX_EXPORT_SIDE, export_pixels_per_square
    from engine.battlemap import BattleMap

    state = sample_state()
    for width, height in ((2000, 10), (1000, 1000), (30, 20)):
        sized = replace(state, battlemap=BattleMap(width, height), tokens=())
        pixels = export_pixels_per_square(sized, 64)
        assert max(width, height) * pixels <= MAX_EXPORT_SIDE + 1e-6
        assert width * height * pixels**2 <= MAX_EXPORT_PIXELS * (1 + 1e-9)
    small = replace(state, battlemap=BattleMap(30, 20), tokens=())
    assert export_pixels_per_square(small, 64) == 64


def test_export_png_reports_a_missing_file(
    qapp: QApplication, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "none.png"
    code = app_module.main([str(tmp_path / "missing.killbox"), "--export-png", str(out)])
    assert code == 2
    assert "killbox:" in capsys.readouterr().err
    assert not out.exists()


def export_in_fresh_process(out: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = (
        "import sys, desktop.documents as d;"
        "from desktop.documents import Document;"
        "from tests.desktop.sample import sample_state;"
        "d.load_document = lambda p, *_: Document(sample_state(), {}, p);"
        "from desktop.app import main;"
        f"sys.exit(main(['x.killbox', '--export-png', {str(out)!r}]))"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def without_display() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    }


@pytest.mark.parametrize("platform", [None, "wayland", "xcb"])
def test_export_png_runs_without_a_display(tmp_path: Path, platform: str | None) -> None:
    """A fresh process with no display exports whatever platform the session asks for
    (no platform set, a Wayland session with no Wayland server, an X11 one with no X server)."""
    out = tmp_path / "cli.png"
    env = without_display()
    if platform is not None:
        env["QT_QPA_PLATFORM"] = platform
    result = export_in_fresh_process(out, env)
    assert result.returncode == 0, result.stderr
    assert QImage(str(out)).width() == WIDTH * 64


def test_no_font_is_a_clear_failure_not_a_picture_of_boxes(tmp_path: Path) -> None:
    """With fontconfig finding no font, Qt would draw every letter as a box and exit 0."""
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
        f"<fontconfig><cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>"
    )
    out = tmp_path / "cli.png"
    result = export_in_fresh_process(out, dict(without_display(), FONTCONFIG_FILE=str(config)))
    assert result.returncode == 3
    assert "no font found" in result.stderr and "fonts-dejavu-core" in result.stderr
    assert not out.exists()


def test_export_png_of_the_default_encounter(qapp: QApplication, tmp_path: Path) -> None:
    """With no file, killbox uses the bundled warehouse; the picture is its own resolution."""
    from desktop.documents import default_map_path, load_document

    out = tmp_path / "warehouse.png"
    assert app_module.main(["--export-png", str(out)]) == 0
    state = load_document(default_map_path()).state
    ppsq = state.battlemap.background.pixels_per_square if state.battlemap.background else 64
    image = QImage(str(out))
    assert (image.width(), image.height()) == (
        state.battlemap.width * ppsq,
        state.battlemap.height * ppsq,
    )
    assert distinct_colours(image) > 100


def test_export_png_imports_a_universal_vtt_map(qapp: QApplication, tmp_path: Path) -> None:
    from tests.conftest import SHARED

    source = SHARED / "fixtures" / "uvtt" / "dungeondraft-0.3-doors.dd2vtt"
    if not source.is_file():
        pytest.skip(f"the shared Universal VTT fixture is absent ({source})")
    out = tmp_path / "uvtt.png"
    assert app_module.main([str(source), "--export-png", str(out)]) == 0
    assert distinct_colours(QImage(str(out))) > 100


def test_quit_after_first_frame_prints_the_paint_time_and_exits(tmp_path: Path) -> None:
    """The packagers' launch probe: a fresh process paints the default encounter once,
    prints ``first-frame <wall-clock time>`` and exits cleanly; the option stays hidden."""
    import time

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path))
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    started = time.time()
    result = subprocess.run(
        [sys.executable, "-m", "desktop.app", "--quit-after-first-frame"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1].split()
    assert last[0] == "first-frame"
    assert started < float(last[-1]) < time.time()
    help_text = subprocess.run(
        [sys.executable, "-m", "desktop.app", "--help"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "--export-png" in help_text and "quit-after-first-frame" not in help_text
