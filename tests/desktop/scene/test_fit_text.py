"""Labels on overlay squares fit their square: measured with the font, not guessed from
their length (Strafe's "+4 Defense" and "not a target" ran out of the square and were cut)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from desktop.scene.fit_text import fit_text
from desktop.scene.rule_overlays import MARK_TEXT_BOX, SquareMarkItem
from desktop.scene.style import SQUARE
from engine.grid import Square

LABELS = ["3", "12", "3\n+4 Defense", "5\nnot a target", "10\n+18 Defense"]


@pytest.mark.parametrize("label", LABELS)
def test_the_fitted_label_keeps_every_word_inside_the_box(qtbot, label) -> None:  # type: ignore[no-untyped-def]
    fitted = fit_text(label, MARK_TEXT_BOX, SQUARE * 0.4, SQUARE * 0.16)
    metrics = QFontMetricsF(fitted.font)
    assert " ".join(fitted.text.split()) == " ".join(label.split())  # nothing cut
    assert max(metrics.horizontalAdvance(line) for line in fitted.lines) <= MARK_TEXT_BOX.width()
    assert metrics.height() * len(fitted.lines) <= MARK_TEXT_BOX.height()


def test_a_short_label_stays_large() -> None:
    assert fit_text("3", MARK_TEXT_BOX, 25.6, 10.2).font.pixelSize() == 26


def test_what_cannot_fit_at_the_smallest_size_is_cut_visibly() -> None:
    fitted = fit_text("Supercalifragilisticexpialidocious " * 6, QRectF(0, 0, 40, 20), 12, 10)
    assert fitted.font.pixelSize() == 10 and fitted.lines[-1].endswith("…")


@pytest.mark.parametrize("label", LABELS)
def test_no_letter_is_cut_at_the_squares_edge(qtbot, label) -> None:  # type: ignore[no-untyped-def]
    """The painter cuts text at the box it is drawn in: a label too wide for the square lost
    its ends there ("not a target" read "a tar"). No letter may touch the square's sides."""
    image = QImage(int(SQUARE), int(SQUARE), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#000000"))
    painter = QPainter(image)
    SquareMarkItem(Square(0, 0), QColor("#3d8bfd"), label).paint(
        painter, QStyleOptionGraphicsItem(), None
    )
    painter.end()
    side = int(SQUARE)
    touching = [
        (x, y)
        for y in range(6, side - 6)
        for x in [*range(2, 5), *range(side - 5, side - 2)]
        if min(QColor(image.pixel(x, y)).getRgb()[:3]) > 200  # the letters' white
    ]
    assert not touching, f"{len(touching)} letter pixels at the square's sides"
