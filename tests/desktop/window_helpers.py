"""Helpers for window tests: answer real dialogs, drop files, grab the window as a PNG."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QDialog

from tests.desktop.conftest import distinct_colours
from tests.desktop.tools.conftest import PICTURES

MAPS = Path(__file__).resolve().parents[2] / "maps"


#: Bumped when a test ends, so a dialog answerer still polling from that test gives up
#: instead of answering the next test's dialog (see tests/desktop/conftest.py).
_test_generation = [0]


def forget_pending_answers() -> None:
    _test_generation[0] += 1


def answer_next_dialog(
    choose: Callable[[QDialog], None], seen: list[QDialog] | None = None, wait_ms: int = 3000
) -> None:
    """When the next modal dialog opens, hand it to ``choose`` (which must close it).

    Gives up after ``wait_ms`` so that a dialog that never came cannot catch a later one.
    """
    tries = [wait_ms // 10]
    generation = _test_generation[0]

    def poll() -> None:
        if generation != _test_generation[0]:
            return  # the test that asked has ended
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QDialog):
            if seen is not None:
                seen.append(dialog)
            choose(dialog)
        elif tries[0] > 0:
            tries[0] -= 1
            QTimer.singleShot(10, poll)

    QTimer.singleShot(0, poll)


def grab_png(widget, name: str) -> QImage:  # type: ignore[no-untyped-def]
    """The whole window (docks and map) as a PNG; fails when the picture is blank."""
    QApplication.processEvents()
    image = widget.grab().toImage()
    PICTURES.mkdir(exist_ok=True)
    image.save(str(PICTURES / f"{name}.png"))
    assert distinct_colours(image) > 20, f"{name}: the picture is blank"
    return image


def drop_file(window, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Drop ``path`` on the window as a file manager would."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(50, 50),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)


def restore_as_after_a_crash(window):  # type: ignore[no-untyped-def]
    """What the next start would restore if the window's process died now: its session
    folder is let go as a killed process lets it go (the lock file stays, its owner gone
    is what the next start sees; here the lock is released and the folder kept)."""
    from desktop.autosave import crashed_sessions

    autosaver = window.autosaver
    autosaver.wait()
    autosaver._lock_file.unlock()  # as if the process had died holding it
    found = crashed_sessions(autosaver.folder)
    assert [c.folder for c in found] == [autosaver.session_folder]
    restored = found[0].restore(window.controller.system)
    found[0].release()
    autosaver._lock_file.lock()  # the window runs on
    return restored
