"""Smoke test of what packaging/build.sh makes: the frozen app, and the same app installed
from the .deb, each export the default encounter to a PNG with no display.

Slow (a full PyInstaller build), so it runs only when asked for: ``pytest -m packaging``
(``.ci/run`` does, after the main suite).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.packaging

DEB_BUDGET_MB = 70
INSTALLED_BUDGET_MB = 220


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    if shutil.which("dpkg-deb") is None:
        pytest.skip("dpkg-deb is not installed; the .deb cannot be built here")
    out = tmp_path_factory.mktemp("dist")
    env = dict(os.environ, PYTHON=sys.executable)
    result = subprocess.run(
        ["bash", str(REPO_ROOT / "packaging" / "build.sh"), str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1500,
    )
    print(result.stdout[-3000:])
    assert result.returncode == 0, result.stderr[-5000:]
    yield out


def headless_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DISPLAY", "WAYLAND_DISPLAY"}}
    env.pop("QT_QPA_PLATFORM", None)  # the app must choose offscreen for --export-png itself
    return env


def export_png(binary: Path, out: Path) -> Image.Image:
    result = subprocess.run(
        [str(binary), "--export-png", str(out)],
        env=headless_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    image = Image.open(out)
    image.load()
    return image


def assert_picture(image: Image.Image) -> None:
    assert image.width >= 640 and image.height >= 480
    colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is None or len(colours) > 50, "the exported picture is nearly blank"


def folder_mb(folder: Path) -> float:
    return (
        sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6
    )


def test_frozen_app_exports_the_default_encounter(built: Path, tmp_path: Path) -> None:
    assert_picture(export_png(built / "killbox" / "killbox", tmp_path / "frozen.png"))


def test_app_installed_from_the_deb_exports_the_default_encounter(
    built: Path, tmp_path: Path
) -> None:
    (deb,) = built.glob("killbox_*.deb")
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    assert (root / "usr/share/applications/killbox.desktop").is_file()
    assert (root / "usr/share/icons/hicolor/256x256/apps/killbox.png").is_file()
    launcher = (root / "usr/bin/killbox").read_text()
    assert "/opt/killbox/killbox" in launcher
    assert_picture(export_png(root / "opt/killbox/killbox", tmp_path / "deb.png"))


def test_deb_declares_what_qt_needs(built: Path) -> None:
    (deb,) = built.glob("killbox_*.deb")
    control = subprocess.run(
        ["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True, check=True
    ).stdout
    for library in ("libc6 (>=", "libegl1", "libxcb-cursor0", "libxkbcommon-x11-0"):
        assert library in control


def test_sizes_within_budget(built: Path) -> None:
    (deb,) = built.glob("killbox_*.deb")
    (tgz,) = built.glob("killbox-*.tar.gz")
    with tarfile.open(tgz) as archive:
        assert "killbox/killbox" in archive.getnames()
    deb_mb = deb.stat().st_size / 1e6
    installed_mb = folder_mb(built / "killbox")
    print(f"deb: {deb_mb:.1f} MB, installed folder: {installed_mb:.1f} MB")
    assert deb_mb <= DEB_BUDGET_MB
    assert installed_mb <= INSTALLED_BUDGET_MB


def test_frozen_app_opens_its_window_and_paints(built: Path) -> None:
    """The main window (rule systems found by name, docks, tools) starts in the bundle too.

    The launch time is printed for the record (packaging/README.md), never asserted.
    """
    binary = built / "killbox" / "killbox"
    env = dict(headless_env(), QT_QPA_PLATFORM="offscreen")
    started = time.time()
    result = subprocess.run(
        [str(binary), "--quit-after-first-frame"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    painted = float(result.stdout.strip().splitlines()[-1].split()[-1])
    print(f"frozen launch to first painted frame: {(painted - started) * 1000:.0f} ms")
