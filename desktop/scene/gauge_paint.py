"""Drawing a token's gauges (engine.rules.gauges) in its disc: bars and pips.

Nothing here knows a rule system: a gauge says its label, value, maximum and style, and
whether the value counts harm or what is left; the colour follows how well the token is.
Sizes are in scene units (a square is 64), so at table zoom a bar is about a square wide.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from engine.rules.gauges import Gauge, GaugeStyle

BAR_HEIGHT = 7.0
ROW_GAP = 2.0
PIP_SIZE = 9.0


def health_colour(health: float) -> QColor:
    """Green when well, amber when hurt, red when nearly out (0 = worst, 1 = unharmed)."""
    if health > 0.5:
        return QColor("#2ecc71")
    if health > 0.25:
        return QColor("#f0a020")
    return QColor("#e03131")


def fill_colour(gauge: Gauge) -> QColor:
    """A gauge's fill: by how well the token is, but harm taken (a Wound, a level of
    Fatigue) is never "good" green however little of it there is."""
    return health_colour(min(gauge.health, 0.5) if gauge.harm else gauge.health)


#: A flag that is news, not harm (a coming change of initiative count): slate, not red.
NEUTRAL_FLAG = QColor("#4a5a6e")
HARM_FLAG = QColor("#e03131")


def flag_fill(gauge: Gauge) -> QColor:
    """A flag chip's fill: red for harm (Shaken), a quiet slate for news."""
    return HARM_FLAG if gauge.harm else NEUTRAL_FLAG


def rows(gauges: tuple[Gauge, ...]) -> tuple[list[Gauge], list[Gauge]]:
    """Bars and pips (one row each), and flags (one row of chips)."""
    measured = [g for g in gauges if g.style is not GaugeStyle.FLAG]
    flags = [g for g in gauges if g.style is GaugeStyle.FLAG]
    return measured, flags


def _row_height(gauge: Gauge) -> float:
    return PIP_SIZE if gauge.style is GaugeStyle.PIPS else BAR_HEIGHT


def stack_height(gauges: tuple[Gauge, ...]) -> float:
    """How tall the bars and pips of ``gauges`` stand (flags are badges, not rows)."""
    measured, _flags = rows(gauges)
    return sum(_row_height(g) for g in measured) + ROW_GAP * max(0, len(measured) - 1)


def paint_gauges(painter: QPainter, gauges: tuple[Gauge, ...], left: float, bottom: float,
                 width: float) -> None:
    """Draw the bars and pips stacked upwards from ``bottom`` across ``width`` (the flags
    are the token's badges: desktop.scene.token_badges)."""
    measured, _flags = rows(gauges)
    y = bottom
    for gauge in reversed(measured):
        y -= _row_height(gauge)
        if gauge.style is GaugeStyle.PIPS and gauge.maximum:
            _paint_pips(painter, gauge, QRectF(left, y, width, PIP_SIZE))
        else:
            paint_bar(painter, gauge, QRectF(left, y, width, BAR_HEIGHT))
        y -= ROW_GAP


def paint_bar(painter: QPainter, gauge: Gauge, rect: QRectF) -> None:
    painter.setPen(QPen(QColor(0, 0, 0, 220), 1.2))
    painter.setBrush(QColor(20, 22, 26, 220))
    painter.drawRoundedRect(rect, 2.5, 2.5)
    filled = QRectF(rect)
    filled.setWidth(rect.width() * gauge.fraction)
    if filled.width() > 0:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill_colour(gauge))
        painter.drawRoundedRect(filled.adjusted(0.8, 0.8, -0.8, -0.8), 2, 2)


def _paint_pips(painter: QPainter, gauge: Gauge, rect: QRectF) -> None:
    count = int(gauge.maximum or 0)
    step = min(PIP_SIZE + 3, rect.width() / max(count, 1))
    fill = fill_colour(gauge)
    for index in range(count):
        centre = QPointF(rect.left() + step * index + PIP_SIZE / 2, rect.center().y())
        on = index < gauge.value
        painter.setPen(QPen(QColor(0, 0, 0, 230), 1.2))
        painter.setBrush(fill if on else QColor(20, 22, 26, 200))
        painter.drawEllipse(centre, PIP_SIZE / 2, PIP_SIZE / 2)
