"""Smoke test of the frozen app packaging/build.sh makes: it exports the default encounter with
no display, draws real letters, survives a Wayland request it has no plug-in for, says so when
no font is installed, and opens its window.

Slow (a full PyInstaller build), so it runs only when asked for: ``pytest -m packaging -n 0``
(``.ci/run`` does, after the main suite).
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.packaging.conftest import headless_env
from tests.packaging.glyphs import (
    MIN_DIFFERENT_PIXELS,
    NAMES,
    different_pixels,
    encounter_with_token_names,
)

pytestmark = pytest.mark.packaging

DEB_BUDGET_MB = 70
INSTALLED_BUDGET_MB = 220


def run_app(
    binary: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary), *args],
        env=headless_env() if env is None else env,
        capture_output=True,
        text=True,
        check=False,
        timeout=180,
    )


def export_png(
    binary: Path, out: Path, *args: str, env: dict[str, str] | None = None
) -> Image.Image:
    result = run_app(binary, *args, "--export-png", str(out), env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    image = Image.open(out)
    image.load()
    return image


def assert_picture(image: Image.Image) -> None:
    assert image.width >= 640 and image.height >= 480
    colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is None or len(colours) > 50, "the exported picture is nearly blank"


def assert_real_letters(binary: Path, folder: Path) -> None:
    pictures = []
    for index, name in enumerate(NAMES):
        encounter = encounter_with_token_names(name, folder / f"letters-{index}.killbox")
        picture = folder / f"letters-{index}.png"
        export_png(binary, picture, str(encounter))
        pictures.append(picture)
    changed = different_pixels(*pictures)
    print(f"pixels that differ between the {NAMES} exports: {changed}")
    assert changed >= MIN_DIFFERENT_PIXELS, "the token letters are boxes or missing"


def folder_mb(folder: Path) -> float:
    return (
        sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6
    )


def test_frozen_app_exports_the_default_encounter(built: Path, tmp_path: Path) -> None:
    assert_picture(export_png(built / "killbox" / "killbox", tmp_path / "frozen.png"))


def test_frozen_app_draws_real_letters(built: Path, tmp_path: Path) -> None:
    assert_real_letters(built / "killbox" / "killbox", tmp_path)


def test_export_with_wayland_requested_and_no_wayland_server(built: Path, tmp_path: Path) -> None:
    env = dict(headless_env(), QT_QPA_PLATFORM="wayland", XDG_SESSION_TYPE="wayland")
    assert_picture(export_png(built / "killbox" / "killbox", tmp_path / "wayland.png", env=env))


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run is not installed")
def test_window_falls_back_to_x11_when_wayland_is_requested(built: Path) -> None:
    """The bundle has no Wayland plug-in: QT_QPA_PLATFORM=wayland opens the window on X11."""
    env = dict(headless_env(), QT_QPA_PLATFORM="wayland", XDG_SESSION_TYPE="wayland")
    result = subprocess.run(
        [
            "xvfb-run",
            "-a",
            "-s",
            "-screen 0 1366x768x24",
            str(built / "killbox" / "killbox"),
            "--quit-after-first-frame",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "first-frame" in result.stdout
    assert "'wayland' is not bundled; using 'xcb'" in result.stderr


def test_frozen_app_without_any_font_says_so(built: Path, tmp_path: Path) -> None:
    config = tmp_path / "fonts.conf"
    config.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">'
        f"<fontconfig><cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>"
    )
    out = tmp_path / "boxes.png"
    env = dict(headless_env(), FONTCONFIG_FILE=str(config))
    result = run_app(built / "killbox" / "killbox", "--export-png", str(out), env=env)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "no font found" in result.stderr and "fonts-dejavu-core" in result.stderr
    assert not out.exists()


def test_sizes_within_budget(deb: Path, tarball: Path, built: Path) -> None:
    with tarfile.open(tarball) as archive:
        assert any(name.endswith("/killbox") for name in archive.getnames())
    deb_mb = deb.stat().st_size / 1e6
    installed_mb = folder_mb(built / "killbox")
    print(
        f"deb: {deb_mb:.1f} MB, installed folder: {installed_mb:.1f} MB, "
        f"tar.gz: {tarball.stat().st_size / 1e6:.1f} MB"
    )
    assert deb_mb <= DEB_BUDGET_MB
    assert installed_mb <= INSTALLED_BUDGET_MB


def test_frozen_app_opens_its_window_and_paints(built: Path) -> None:
    """The main window (rule systems found by name, docks, tools) starts in the bundle too.

    The launch time is printed for the record (packaging/README.md), never asserted.
    """
    binary = built / "killbox" / "killbox"
    env = dict(headless_env(), QT_QPA_PLATFORM="offscreen")
    started = time.time()
    result = run_app(binary, "--quit-after-first-frame", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    painted = float(result.stdout.strip().splitlines()[-1].split()[-1])
    print(f"frozen launch to first painted frame: {(painted - started) * 1000:.0f} ms")
