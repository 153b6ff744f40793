"""Fixtures for the rule tools: a main window on a real rule system, and gesture helpers."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QWheelEvent
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsPathItem

from desktop.scene.overlay_items import TagItem
from desktop.scene.style import SQUARE
from engine.encounter import EncounterState
from tests.desktop.conftest import OFFSCREEN_NOISE, distinct_colours
from tests.desktop.sample import sample_state

#: What the offscreen plugin prints when a tooltip pops up over the map (it cannot raise
#: windows): plugin noise, not a Killbox fault.
TOOL_NOISE = (*OFFSCREEN_NOISE, "This plugin does not support raise()")

#: Rendered states land here, outside the repository, for a person to look at.
PICTURES = Path(tempfile.gettempdir()) / "killbox-tool-pictures"


def make_window(  # type: ignore[no-untyped-def]
    qtbot, tmp_path, state: EncounterState, images=None, ask_dice: bool = False,
    physical_dice: bool | None = None,
):
    from PySide6.QtCore import QSettings

    from desktop.documents import Document
    from desktop.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(
        Document(state, images or {}, None),
        autosave_folder=tmp_path / "autosave",
        settings=settings,
        ask_dice=ask_dice,
        physical_dice=physical_dice,
    )
    win.confirm_discard = lambda: True  # type: ignore[method-assign]
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    qtbot.wait(20)  # let the window's own fit-to-map run first
    win.view.fit_map()  # the whole map inside the viewport, beside the docks
    win.view.setFocus()
    return win


@pytest.fixture
def spy_window(qtbot, tmp_path):  # type: ignore[no-untyped-def]
    """The sample encounter under the real Spycraft rules."""
    return make_window(qtbot, tmp_path, sample_state())


@pytest.fixture
def window_for(qtbot, tmp_path) -> Callable[..., object]:  # type: ignore[no-untyped-def]
    """A window on the sample encounter under another system (and its scale)."""

    def build(system: str, **changes: object):  # type: ignore[no-untyped-def]
        from engine.rules import get_system

        state = replace(sample_state(), system=system, scale=get_system(system).scale, **changes)
        return make_window(qtbot, tmp_path, state)

    return build


def view_point(view, square_point: tuple[float, float]) -> QPoint:  # type: ignore[no-untyped-def]
    """Where a point in square units is on the view's viewport (after pending layout)."""
    QApplication.processEvents()  # docks may still resize the view after a selection
    return view.mapFromScene(QPointF(square_point[0] * SQUARE, square_point[1] * SQUARE))


def move_to(qtbot, view, square_point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseMove(view.viewport(), view_point(view, square_point))


def click_at(qtbot, view, square_point: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    point = view_point(view, square_point)
    qtbot.mouseMove(view.viewport(), point)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def wheel_at(view, square_point: tuple[float, float], notches: int, shift: bool = False) -> None:  # type: ignore[no-untyped-def]
    point = QPointF(view_point(view, square_point))
    modifiers = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
    event = QWheelEvent(
        point,
        QPointF(view.viewport().mapToGlobal(point.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        modifiers,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)


def render_png(window, name: str, min_colours: int = 20) -> QImage:  # type: ignore[no-untyped-def]
    """Render the map scene (with the tool's overlay) to a PNG and return the picture.

    ``min_colours``: fewer distinct colours than this is a blank picture (a bare floor
    with one wall has few).
    """
    scene = window.scene
    rect = scene.map_rect.adjusted(-40, -40, 260, 40)
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, source=rect)
    painter.end()
    PICTURES.mkdir(exist_ok=True)
    image.save(str(PICTURES / f"{name}.png"))
    assert distinct_colours(image) > min_colours, f"{name}: the picture is blank"
    return image


def painted(items: list[QGraphicsItem]) -> list[tuple[object, ...]]:
    """What overlay items show, item by item: kind, place and size, tooltip, stacking,
    outline, pen and fill colours, and text; two lists drawn from one payload match."""
    shown: list[tuple[object, ...]] = []
    for item in items:
        rect = item.sceneBoundingRect()
        outline = pen = fill = None
        if isinstance(item, QGraphicsPathItem):
            path = item.path()
            outline = [(path.elementAt(i).x, path.elementAt(i).y)
                       for i in range(path.elementCount())]
            pen = (item.pen().style(), item.pen().color().name(QColor.NameFormat.HexArgb))
            fill = item.brush().color().name(QColor.NameFormat.HexArgb)
        text = item.text if isinstance(item, TagItem) else None
        shown.append((type(item).__name__, rect.getRect(), item.toolTip(), item.zValue(),
                      outline, pen, fill, text))
    return shown
