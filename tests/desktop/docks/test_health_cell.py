"""The tracker's Health cell: bars with their numbers, coloured by how well the token is."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication

from desktop.docks.health_cell import (
    GAUGES_ROLE,
    HealthCellDelegate,
    cell_font,
    fitting,
    gauge_numbers,
    needed_width,
    paint_health,
)
from desktop.scene.gauge_paint import HARM_FLAG, NEUTRAL_FLAG, health_colour
from engine.rules.base import Command
from engine.rules.gauges import Gauge, GaugeStyle
from tests.desktop.test_fight import open_map

pytestmark = pytest.mark.gui


def _painted(gauges: tuple[Gauge, ...], width: int = 200, height: int = 16) -> QImage:
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor(255, 255, 255))
    painter = QPainter(image)
    paint_health(painter, gauges, QRectF(0, 0, width, height))
    painter.end()
    return image


def test_a_bar_fills_to_its_share_in_the_colour_of_how_well_the_token_is(
    qapp: QApplication,
) -> None:
    image = _painted((Gauge("vitality", "Vitality", 6, 30),))
    # 6 of 30 is a fifth: the first tenth is filled red, the far end is the empty bar.
    assert image.pixelColor(10, 2) == health_colour(0.2)
    assert image.pixelColor(190, 2).red() < 80


def test_two_gauges_share_the_cell_and_a_flag_is_a_red_chip(qapp: QApplication) -> None:
    gauges = (
        Gauge("vitality", "Vitality", 30, 30),
        Gauge("wounds", "Wounds", 3, 12),
        Gauge("shaken", "Shaken", 1, 1, GaugeStyle.FLAG, harm=True),
    )
    image = _painted(gauges, 300)
    assert image.pixelColor(5, 2) == health_colour(1.0)  # full vitality: green from the start
    # The wounds bar starts after the first bar's share and is a quarter full: red.
    assert image.pixelColor(125, 2) == health_colour(0.25)
    assert image.pixelColor(296, 8).name() == "#e03131"  # the flag chip, at the right
    # The chip is as wide as "Shaken" needs, not 40% of the cell: the bars keep the rest.
    assert image.pixelColor(300 * 6 // 10 + 5, 2) != image.pixelColor(296, 8)


def test_the_cell_asks_for_every_number_and_the_flags_words_whole(qapp: QApplication) -> None:
    gauges = (
        Gauge("vitality", "Vitality", 30, 30),
        Gauge("wounds", "Wounds", 12, 12),
        Gauge("fluid", "Count -2", 1, style=GaugeStyle.FLAG),
    )
    metrics = QFontMetrics(cell_font(16))
    words = ("30/30", "12/12", "Count -2")
    assert needed_width(gauges, 22) > sum(metrics.horizontalAdvance(w) for w in words)


def test_the_tracker_draws_each_combatants_gauges_with_their_numbers(qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    win = open_map(qtbot, tmp_path, "warehouse")
    win.controller.apply(Command("start_combat"))
    table = win.initiative.table
    column = win.initiative.COLUMNS.index("Health")
    assert isinstance(table.itemDelegateForColumn(column), HealthCellDelegate)
    state = win.controller.state
    for row in range(table.rowCount()):
        item = table.item(row, column)
        token = state.token(item.data(Qt.ItemDataRole.UserRole))
        assert item.data(GAUGES_ROLE) == win.controller.system.gauges(state, token)
    QApplication.processEvents()
    cell = table.visualItemRect(table.item(0, column))
    shot = table.viewport().grab(cell).toImage()
    greens = sum(
        shot.pixelColor(x, cell.height() // 2) == health_colour(1.0) for x in range(shot.width())
    )
    assert greens > cell.width() // 4  # an unhurt combatant: green bars, not elided words


def test_a_narrow_bar_drops_the_maximum_before_it_elides_the_value(qapp: QApplication) -> None:
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.setFont(QFont("DejaVu Sans", 9))
    gauge = Gauge("vitality", "Vitality", 22, 30)
    wide = painter.fontMetrics().horizontalAdvance("22/30") + 1
    assert fitting(painter, gauge_numbers(gauge), wide) == "22/30"
    assert fitting(painter, gauge_numbers(gauge), wide - 4) == "22"
    painter.end()


def test_a_bar_of_harm_taken_is_never_good_green(qapp: QApplication) -> None:
    # One Wound of three: a third of the bar filled, amber (not the green of "well").
    image = _painted((Gauge("wounds", "Wounds", 1, 3, harm=True),), 300)
    assert image.pixelColor(10, 2) == health_colour(0.5)
    assert image.pixelColor(10, 2) != health_colour(1.0)


def test_a_count_change_is_a_quiet_chip_and_harm_a_red_one(qapp: QApplication) -> None:
    """Spycraft's coming count change was a red chip, read at the table as a wound."""
    vitality = Gauge("vitality", "Vitality", 30, 30)
    count = Gauge("fluid", "Count -2", 1, style=GaugeStyle.FLAG, detail="at round's end")
    assert _painted((vitality, count), 300).pixelColor(296, 8) == NEUTRAL_FLAG
    shaken = Gauge("shaken", "Shaken", 1, 1, GaugeStyle.FLAG, harm=True)
    assert _painted((vitality, count, shaken), 300).pixelColor(296, 8) == HARM_FLAG


def test_the_count_chip_keeps_its_words_while_the_bars_can_drop_their_maximum(
    qapp: QApplication,
) -> None:
    """The count chip was held to 40% of the cell and elided to "Coun...", losing the number,
    while the bars beside it still had room to spare."""
    bars = (Gauge("vitality", "Vitality", 38, 38), Gauge("wounds", "Wounds", 12, 12))
    count = Gauge("fluid", "Count -3", 1, style=GaugeStyle.FLAG, detail="at round's end")
    metrics = QFontMetrics(cell_font(16))
    chip = metrics.horizontalAdvance("Count -3") + 8
    width = chip + 2 * (metrics.horizontalAdvance("38") + 8 + 3) + 4
    image = _painted((*bars, count), width)
    assert image.pixelColor(width - chip + 2, 8) == NEUTRAL_FLAG
