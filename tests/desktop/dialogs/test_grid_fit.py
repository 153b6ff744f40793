"""The grid-fitting dialog: shows the engine's proposal, and the GM nudges, types or draws."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen

import engine
from desktop.dialogs.grid_fit import GridFit, GridFitDialog
from tests.desktop.conftest import OFFSCREEN_NOISE
from tests.desktop.window_helpers import grab_png

pytestmark = pytest.mark.qt_log_ignore(*OFFSCREEN_NOISE)


def png_bytes(picture: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    picture.save(buffer, "PNG")
    return bytes(data.data())


def gridded_picture(size: float = 47.5, offset: tuple[float, float] = (13, 21)) -> QImage:
    image = QImage(900, 600, QImage.Format.Format_RGB32)
    image.fill(QColor("#8a7b62"))
    painter = QPainter(image)
    painter.setPen(QPen(QColor("#222"), 2))
    x = offset[0]
    while x < 900:
        painter.drawLine(QPointF(x, 0), QPointF(x, 600))
        x += size
    y = offset[1]
    while y < 600:
        painter.drawLine(QPointF(0, y), QPointF(900, y))
        y += size
    painter.end()
    return image


@pytest.fixture
def dialog(qtbot):  # type: ignore[no-untyped-def]
    win = GridFitDialog(gridded_picture(), GridFit(47.5, 13, 21), 0.9)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def test_the_proposal_is_shown_and_accepted_as_is(dialog) -> None:  # type: ignore[no-untyped-def]
    assert "47.50 px" in dialog.verdict.text() and "90%" in dialog.verdict.text()
    assert dialog.fit() == GridFit(47.5, 13, 21)
    assert dialog.squares_label.text() == "18 x 12 squares"
    grab_png(dialog, "grid-fit-proposal")


def test_typing_the_numbers_moves_the_drawn_grid(dialog) -> None:  # type: ignore[no-untyped-def]
    dialog.size_box.setValue(50.25)
    dialog.offset_x_box.setValue(60.0)  # more than a square: brought back into one
    assert dialog.view.overlay.fit.pixels_per_square == 50.25
    assert dialog.fit().offset_x == pytest.approx(60.0 - 50.25)
    assert dialog.squares_label.text() == "17 x 11 squares"


def test_dragging_the_grid_nudges_its_offset(qtbot, dialog) -> None:  # type: ignore[no-untyped-def]
    view = dialog.view
    start = view.mapFromScene(QPointF(200, 200))
    end = view.mapFromScene(QPointF(210, 195))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), end)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    moved = view.mapToScene(end) - view.mapToScene(start)
    assert dialog.fit().offset_x == pytest.approx(13 + moved.x(), abs=0.01)
    assert dialog.fit().offset_y == pytest.approx(21 + moved.y(), abs=0.01)
    assert dialog.fit().pixels_per_square == 47.5


def test_drawing_one_square_sets_size_and_offset(qtbot, dialog) -> None:  # type: ignore[no-untyped-def]
    view = dialog.view
    a, b = view.mapFromScene(QPointF(105, 110)), view.mapFromScene(QPointF(165, 170))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.RightButton, pos=a)
    qtbot.mouseMove(view.viewport(), b)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.RightButton, pos=b)
    drawn_a, drawn_b = view.mapToScene(a), view.mapToScene(b)
    size = (drawn_b.x() - drawn_a.x() + drawn_b.y() - drawn_a.y()) / 2
    fit = dialog.fit()
    assert fit.pixels_per_square == pytest.approx(size, abs=0.01)
    assert fit.offset_x == pytest.approx(drawn_a.x() % size, abs=0.01)
    assert fit.offset_y == pytest.approx(drawn_a.y() % size, abs=0.01)


def test_no_grid_found_says_so_and_asks(qtbot) -> None:  # type: ignore[no-untyped-def]
    blank = QImage(640, 480, QImage.Format.Format_RGB32)
    blank.fill(QColor("#556b2f"))
    win = GridFitDialog(blank, None)
    qtbot.addWidget(win)
    win.show()
    assert "No grid found" in win.verdict.text()
    assert "Draw one square" in win.verdict.text()
    assert win.found is False
    grab_png(win, "grid-fit-none")


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (QPointF(10, 20), QPointF(60, 70), GridFit(50, 10, 20)),
        (QPointF(160, 170), QPointF(110, 120), GridFit(50, 10, 20)),  # drawn backwards
        (QPointF(0, 0), QPointF(2, 2), GridFit(8, 0, 0)),  # too small: the smallest grid
    ],
)
def test_a_drawn_square_gives_its_grid(a: QPointF, b: QPointF, expected: GridFit) -> None:
    assert GridFit.from_square(a, b) == expected


def test_squares_of_a_picture_count_whole_squares_after_the_offset() -> None:
    assert GridFit(64, 0, 0).squares(640, 448) == (10, 7)
    assert GridFit(63.5, 10, 3).squares(640, 448) == (9, 7)
    assert GridFit(64, 0, 0).squares(30, 30) == (1, 1)


def test_the_dialog_counts_the_squares_the_map_will_have() -> None:
    """Playtest: a 1536 x 1024 floor plan of 64 px squares, found from 0.45 px (the lines'
    anti-aliasing), read '23 x 15 squares' in the dialog; the map made was 24 x 16."""
    picture = QImage(1536, 1024, QImage.Format.Format_RGB32)
    picture.fill(QColor("white"))
    fit = GridFit(64, 0.45, 0.46)
    made = engine.new_encounter(
        "cities-without-number", "Office", picture=png_bytes(picture),
        grid=(fit.pixels_per_square, fit.offset_x, fit.offset_y),
    ).state.battlemap
    assert fit.squares(1536, 1024) == (made.width, made.height) == (24, 16)


def test_a_click_without_drag_leaves_the_grid(qtbot, dialog) -> None:  # type: ignore[no-untyped-def]
    point: QPoint = dialog.view.mapFromScene(QPointF(300, 300))
    qtbot.mouseClick(dialog.view.viewport(), Qt.MouseButton.RightButton, pos=point)
    assert dialog.fit() == GridFit(47.5, 13, 21)
