"""Choose a Qt platform plug-in that this Qt actually has, before the application starts.

The Linux bundle leaves Qt's Wayland plug-in out (a Wayland desktop runs Killbox through
XWayland). Qt, asked for a platform it does not have, aborts ("no Qt platform plugin could be
initialized"), and ``QT_QPA_PLATFORM=wayland`` is common in Sway and Hyprland sessions. So a
request naming only missing plug-ins falls back to X11 (``xcb``), with a note on stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, MutableMapping
from pathlib import Path

FALLBACK = "xcb"


def plugin_names(folder: Path) -> frozenset[str]:
    """The platform plug-ins in Qt's ``plugins/platforms`` folder: ``libqxcb.so`` is ``xcb``."""
    if not folder.is_dir():
        return frozenset()
    return frozenset(
        path.name.split(".")[0].removeprefix("lib").removeprefix("q")
        for path in folder.iterdir()
        if path.name.startswith(("libq", "q")) and ".so" in path.name
    )


def has_plugin(request: str, plugins: Iterable[str]) -> bool:
    """Whether a ``QT_QPA_PLATFORM`` entry (``wayland-egl``, ``xcb:dpi=96``) names a plug-in here.

    One plug-in serves several keys (``libqwayland.so`` is both ``wayland`` and ``wayland-egl``).
    """
    key = request.split(":", 1)[0].strip()
    return any(key == name or key.startswith(name + "-") for name in plugins)


def usable_platform(requested: str, plugins: Iterable[str]) -> str:
    """The platform request to give Qt: the requested one when any of its entries is here,
    else the X11 fallback (or the request unchanged when X11 is missing too)."""
    names = frozenset(plugins)
    entries = [entry for entry in requested.split(";") if entry.strip()]
    if not entries or any(has_plugin(entry, names) for entry in entries):
        return requested
    return FALLBACK if FALLBACK in names else requested


def platforms_folder() -> Path:
    from PySide6.QtCore import QLibraryInfo

    plugins = QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)
    return Path(plugins) / "platforms"


def choose_platform(environ: MutableMapping[str, str] = os.environ) -> None:
    """Replace a ``QT_QPA_PLATFORM`` that names only plug-ins this Qt lacks (Linux only)."""
    requested = environ.get("QT_QPA_PLATFORM", "")
    if not requested or not sys.platform.startswith("linux"):
        return
    chosen = usable_platform(requested, plugin_names(platforms_folder()))
    if chosen != requested:
        print(
            f"killbox: Qt platform {requested!r} is not bundled; using {chosen!r} "
            "(X11, through XWayland on a Wayland desktop)",
            file=sys.stderr,
        )
        environ["QT_QPA_PLATFORM"] = chosen
