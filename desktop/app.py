"""The ``killbox`` command: open the main window, or render an encounter to PNG and exit."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Qt is imported only once the command knows it needs it
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="killbox", description="A battle map for gun-heavy tabletop combat."
    )
    parser.add_argument(
        "file",
        nargs="?",
        type=Path,
        help="a .killbox encounter, a Universal VTT map (.dd2vtt, .uvtt, .df2vtt), or a "
        "battle-map picture (.png, .jpg, .webp: a new encounter from it); "
        "default: the bundled warehouse",
    )
    parser.add_argument(
        "--export-png",
        metavar="PATH",
        type=Path,
        help="render the encounter to a PNG picture and exit without opening a window",
    )
    parser.add_argument(
        "--pixels-per-square",
        type=pixels_per_square,
        default=None,
        metavar="N",
        help="resolution of --export-png, 1 to 8192 (default: the map picture's own, or 64)",
    )
    # For measuring the launch: print "first-frame <time.time()>" when the map is first
    # painted, then quit. Hidden: it is a tool for packagers, not for the table.
    parser.add_argument("--quit-after-first-frame", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(list(argv))


def pixels_per_square(text: str) -> int:
    """--pixels-per-square: a whole number of pixels, at least one and at most a whole
    exported picture's side (0 or less would draw a picture of one pixel)."""
    from desktop.render import MAX_EXPORT_SIDE

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not 1 <= value <= MAX_EXPORT_SIDE:
        raise argparse.ArgumentTypeError(
            f"must be from 1 to {MAX_EXPORT_SIDE} pixels, not {value}"
        )
    return value


def prepare_qt_environment(environ: MutableMapping[str, str] = os.environ) -> None:
    """Settings Qt reads once, so they are made before the application starts.

    ``QT_NO_GUI_THREADPOOL`` (a documented Qt switch) keeps painting on the GUI thread.
    Otherwise Qt's raster engine hands every fill of 96 or more spans to a thread pool and
    waits for it. The map mostly repaints small regions many times a second (a token
    drag, a template following the mouse), where the hand-off costs more than the fill:
    on two cores a drag frame painted in 1.1 ms instead of 2.0 ms, and a whole-view
    repaint took about as long either way (within 10 %).
    """
    environ.setdefault("QT_NO_GUI_THREADPOOL", "1")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    prepare_qt_environment()
    if args.export_png is not None:
        # Exporting opens no window: offscreen needs no display, whatever the session is.
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    else:
        from desktop.qt_platform import choose_platform

        choose_platform()

    from PySide6.QtWidgets import QApplication

    from desktop.documents import DocumentError, ImportOptions, default_map_path, load_document
    from engine.rules import DEFAULT_SYSTEM

    running = QApplication.instance()
    if running is None:
        app = QApplication([sys.argv[0] if sys.argv else "killbox"])
    elif isinstance(running, QApplication):
        app = running
    else:
        raise RuntimeError("a Qt application without widgets is already running")
    app.setApplicationName("Killbox")
    app.setOrganizationName("Killbox")
    if not can_draw_letters():
        print(
            "killbox: no font found: every letter would be drawn as an empty box. Install a "
            "TrueType font (on Debian and Ubuntu: sudo apt install fonts-dejavu-core) and "
            "start Killbox again.",
            file=sys.stderr,
        )
        return 3

    if args.export_png is not None:
        from desktop.render import export_png

        path = args.file or default_map_path()
        try:
            # Nothing is open to take a rule system from: a map comes in for the starting one.
            document = load_document(path, ImportOptions(DEFAULT_SYSTEM))
            export_png(document.state, document.images, args.export_png, args.pixels_per_square)
        except (DocumentError, OSError) as error:
            print(f"killbox: {error}", file=sys.stderr)
            return 2
        return 0

    icon = app_icon()
    if icon is not None:
        app.setWindowIcon(icon)
    if args.quit_after_first_frame:
        return first_frame_only(app, args.file)

    from desktop.main_window import launch

    return launch(app, args.file)


def can_draw_letters() -> bool:
    """Whether the default font has Latin letters (Qt draws boxes when fontconfig finds no font)."""
    from PySide6.QtGui import QFont, QFontMetrics

    metrics = QFontMetrics(QFont())
    return all(metrics.inFont(letter) for letter in "Aa0")


def first_frame_only(app: QApplication, path: Path | None) -> int:
    """Open the window as a launch would, print when the map is first painted, and quit.

    The autosave goes to a temporary folder and no crashed session is offered back, so a
    measurement neither waits on a question nor touches the GM's own session.
    """
    import tempfile
    import time

    from PySide6.QtCore import QEvent, QObject, QTimer

    from desktop.documents import DocumentError
    from desktop.main_window import MainWindow, first_document

    try:
        document = first_document(path)
    except DocumentError as error:
        print(f"killbox: {error}", file=sys.stderr)
        return 2

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and watched is window.view.viewport():
                print(f"first-frame {time.time()}", flush=True)
                watched.removeEventFilter(self)
                QTimer.singleShot(0, window.close)
            return False

    with tempfile.TemporaryDirectory(prefix="killbox-launch-") as folder:
        window = MainWindow(document, autosave_folder=Path(folder), defer_tools=True)
        probe = FirstPaint()
        window.view.viewport().installEventFilter(probe)
        window.show()
        code = app.exec()
        window.autosaver.wait()
    return code


def app_icon() -> QIcon | None:
    """The Killbox icon from assets/icons (None when the assets are not installed)."""
    from PySide6.QtGui import QIcon

    folder = Path(__file__).resolve().parents[1] / "assets" / "icons"
    sizes = [folder / f"killbox-{size}.png" for size in (32, 64, 256)]
    present = [path for path in sizes if path.exists()]
    if not present:
        return None
    icon = QIcon()
    for path in present:
        icon.addFile(str(path))
    return icon


if __name__ == "__main__":
    raise SystemExit(main())
