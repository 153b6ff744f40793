"""The tracker's Health cell drawn as small bars with their numbers, not as elided words.

In a dock a few hundred pixels wide, "Vitality 30/30 · Wounds 12/12" elides to
"Vitality..." and the GM sees no number at all. Each measured gauge (engine.rules.gauges)
gets an equal share of the cell: a bar coloured by how well the token is, with its value
written on it; a flag is a chip after the bars, red for harm (Shaken), slate for news
(a coming count change). The
item's text keeps the full words for its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop.scene import style
from desktop.scene.gauge_paint import flag_fill, paint_bar, rows
from engine.rules.gauges import Gauge

#: Where an item keeps its gauges (the tuple the rule system returned).
GAUGES_ROLE = Qt.ItemDataRole.UserRole + 1
GAP = 3.0
#: The most of the cell flags may take, so the bars keep room for their numbers.
FLAG_SHARE = 0.4
#: The cell's inner margin, each side.
MARGIN = 3
#: Room around a bar's number and a chip's words.
PADDING = 8


def gauge_numbers(gauge: Gauge) -> tuple[str, ...]:
    """What the bar may say, longest first: "22/30", else "22" when the bar is narrow."""
    if gauge.maximum is None:
        return (str(gauge.value),)
    return (f"{gauge.value}/{gauge.maximum}", str(gauge.value))


def fitting(painter: QPainter, texts: tuple[str, ...], width: float) -> str:
    metrics = painter.fontMetrics()
    for text in texts:
        if metrics.horizontalAdvance(text) <= width:
            return text
    return metrics.elidedText(texts[-1], Qt.TextElideMode.ElideRight, int(width))


def cell_font(height: float) -> QFont:
    """The numbers' font for a cell of this inner height."""
    return style.label_font(max(8.0, min(11.0, height - 4)), bold=True)


def flags_width(metrics: QFontMetrics, flags: list[Gauge]) -> float:
    """The chip's width that shows its words whole."""
    words = ", ".join(g.label for g in flags)
    return metrics.horizontalAdvance(words) + PADDING if flags else 0.0


def needed_width(gauges: tuple[Gauge, ...], row_height: int) -> int:
    """The cell width that shows every bar's full number and the flags' words whole."""
    measured, flags = rows(gauges)
    metrics = QFontMetrics(cell_font(row_height - 2 * MARGIN))
    bars = sum(metrics.horizontalAdvance(gauge_numbers(g)[0]) + PADDING for g in measured)
    gaps = GAP * max(0, len(measured) + bool(flags) - 1)
    return int(bars + gaps + flags_width(metrics, flags)) + 2 * MARGIN + 1


class HealthCellDelegate(QStyledItemDelegate):
    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        gauges = index.data(GAUGES_ROLE)
        if not gauges:
            super().paint(painter, option, index)
            return
        # The row's background and selection as usual, without the text.
        plain = QStyleOptionViewItem(option)
        self.initStyleOption(plain, index)
        plain.text = ""
        widget = plain.widget
        if widget is not None:
            item = QStyle.ControlElement.CE_ItemViewItem
            widget.style().drawControl(item, plain, painter, widget)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        inner = QRectF(option.rect).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
        paint_health(painter, tuple(gauges), inner)
        painter.restore()


def paint_health(painter: QPainter, gauges: tuple[Gauge, ...], rect: QRectF) -> None:
    measured, flags = rows(gauges)
    painter.setFont(cell_font(rect.height()))
    flag_width = 0.0
    if flags:
        # The words' own width when the cell has it, so the bars are not squeezed for
        # nothing; at most a share of a narrow cell.
        flag_width = rect.width()
        if measured:
            # The chip's words whole while the bars keep their short numbers ("38", not
            # "38/38"); squeezed further, the chip keeps a share of the cell.
            metrics = painter.fontMetrics()
            bars_least = sum(metrics.horizontalAdvance(gauge_numbers(g)[-1]) + PADDING + GAP
                             for g in measured)
            room = max(rect.width() - bars_least, rect.width() * FLAG_SHARE)
            flag_width = min(flags_width(metrics, flags), room)
        chip = QRectF(rect.right() - flag_width, rect.top(), flag_width, rect.height())
        painter.setPen(QPen(QColor(0, 0, 0, 200), 1))
        # Red when any flag is harm (Shaken); a count change alone is news, not harm.
        painter.setBrush(flag_fill(max(flags, key=lambda g: g.harm)))
        painter.drawRoundedRect(chip, 3, 3)
        words = ", ".join(g.label for g in flags)
        text = painter.fontMetrics().elidedText(
            words, Qt.TextElideMode.ElideRight, int(chip.width() - 4)
        )
        painter.setPen(QColor("#ffffff"))
        painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, text)
        flag_width += GAP
    if not measured:
        return
    share = (rect.width() - flag_width - GAP * (len(measured) - 1)) / len(measured)
    for number, gauge in enumerate(measured):
        bar = QRectF(rect.left() + number * (share + GAP), rect.top(), share, rect.height())
        paint_bar(painter, gauge, bar)
        text = fitting(painter, gauge_numbers(gauge), bar.width() - 4)
        painter.setPen(QColor(0, 0, 0))
        painter.drawText(bar.translated(1, 1), Qt.AlignmentFlag.AlignCenter, text)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(bar, Qt.AlignmentFlag.AlignCenter, text)
