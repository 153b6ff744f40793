"""Choosing a Qt platform plug-in that is there: a Wayland request without the Wayland
plug-in falls back to X11 instead of aborting."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.qt_platform import choose_platform, has_plugin, plugin_names, usable_platform

BUNDLED = frozenset({"xcb", "offscreen", "minimal"})
WITH_WAYLAND = BUNDLED | {"wayland"}


def test_plugin_names_are_read_from_the_file_names(tmp_path: Path) -> None:
    for name in ("libqxcb.so", "libqoffscreen.so", "libqwayland.so", "README"):
        (tmp_path / name).write_bytes(b"")
    assert plugin_names(tmp_path) == {"xcb", "offscreen", "wayland"}


def test_a_missing_folder_has_no_plugins(tmp_path: Path) -> None:
    assert plugin_names(tmp_path / "absent") == frozenset()


@pytest.mark.parametrize(
    ("request_", "plugins", "present"),
    [
        ("xcb", BUNDLED, True),
        ("xcb:dpi=96", BUNDLED, True),
        ("wayland", BUNDLED, False),
        ("wayland-egl", BUNDLED, False),
        ("wayland-egl", WITH_WAYLAND, True),
        ("minimalegl", BUNDLED, False),
    ],
)
def test_has_plugin(request_: str, plugins: frozenset[str], present: bool) -> None:
    assert has_plugin(request_, plugins) is present


@pytest.mark.parametrize(
    ("requested", "plugins", "chosen"),
    [
        ("wayland", BUNDLED, "xcb"),
        ("wayland-egl", BUNDLED, "xcb"),
        ("wayland;eglfs", BUNDLED, "xcb"),
        ("wayland;xcb", BUNDLED, "wayland;xcb"),  # Qt tries xcb itself after wayland fails
        ("wayland", WITH_WAYLAND, "wayland"),
        ("offscreen", BUNDLED, "offscreen"),
        ("wayland", frozenset({"offscreen"}), "wayland"),  # no X11 either: Qt says so itself
    ],
)
def test_usable_platform(requested: str, plugins: frozenset[str], chosen: str) -> None:
    assert usable_platform(requested, plugins) == chosen


def test_choose_platform_rewrites_only_a_missing_request(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("libqxcb.so", "libqoffscreen.so"):
        (tmp_path / name).write_bytes(b"")
    monkeypatch.setattr("desktop.qt_platform.platforms_folder", lambda: tmp_path)
    monkeypatch.setattr("desktop.qt_platform.sys.platform", "linux")
    environ = {"QT_QPA_PLATFORM": "wayland"}
    choose_platform(environ)
    assert environ["QT_QPA_PLATFORM"] == "xcb"
    assert "'wayland' is not bundled" in capsys.readouterr().err
    environ = {"QT_QPA_PLATFORM": "offscreen"}
    choose_platform(environ)
    assert environ == {"QT_QPA_PLATFORM": "offscreen"}
    environ = {}
    choose_platform(environ)
    assert environ == {}


def test_the_real_platforms_folder_has_xcb() -> None:
    """Where PySide6 keeps its plug-ins is asked from Qt itself, and the folder exists."""
    from desktop.qt_platform import platforms_folder

    assert "xcb" in plugin_names(platforms_folder())
