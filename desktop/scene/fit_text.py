"""Text that fits its box: the largest font, between two sizes, at which the words, wrapped
onto lines, fit inside; measured with the font's metrics rather than guessed from lengths.

A square's label on an overlay ("3" and "+4 Defense" under a Strafe) was drawn at a size
picked by its character count and ran out of its square, where the item's bounds cut it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

from desktop.scene import style


@dataclass(frozen=True)
class FittedText:
    """The font and the lines (the label's words wrapped) that fit the box."""

    font: QFont
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def wrap_to(text: str, width: float, metrics: QFontMetricsF) -> list[str]:
    """``text``'s lines, each broken between words where it is wider than ``width``."""
    lines: list[str] = []
    for line in text.split("\n"):
        current = ""
        for word in line.split():
            joined = f"{current} {word}" if current else word
            if current and metrics.horizontalAdvance(joined) > width:
                lines.append(current)
                current = word
            else:
                current = joined
        lines.append(current)
    return lines


def fit_text(text: str, box: QRectF, largest: float, smallest: float) -> FittedText:
    """The largest pixel size from ``largest`` down to ``smallest`` at which ``text`` fits
    ``box``; at ``smallest`` the words are wrapped and whatever still overflows is elided."""
    size = largest
    while True:
        font = style.label_font(size)
        metrics = QFontMetricsF(font)
        lines = wrap_to(text, box.width(), metrics)
        wide = max(metrics.horizontalAdvance(line) for line in lines)
        if (wide <= box.width() and metrics.height() * len(lines) <= box.height()) or (
            size <= smallest
        ):
            break
        size = max(smallest, size - 1)
    if size <= smallest:  # still too long: keep what fits, cut visibly
        most = max(1, int(box.height() // metrics.height()))
        lines = [metrics.elidedText(line, Qt.TextElideMode.ElideRight, box.width())
                 for line in lines[:most]]
    return FittedText(font, tuple(lines))
