"""Flags and conditions along the token's edge leave its initials readable, at fit zoom too;
their text is shortened to the room it has, and dropped where it could not be read."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QGraphicsSceneHoverEvent, QStyleOptionGraphicsItem

from desktop.scene import style
from desktop.scene.ammo_chip import ammo_chip_rect
from desktop.scene.gauge_paint import HARM_FLAG, NEUTRAL_FLAG
from desktop.scene.style import SQUARE
from desktop.scene.token_badges import (
    DOT,
    FLAG_FONT_SMALLEST,
    badge_font_metrics,
    initials_rect,
    initials_size,
    layout_badges,
    shortened_word,
)
from desktop.scene.token_item import TokenItem, initials
from engine.grid import Square
from engine.rules.gauges import Gauge, GaugeStyle
from engine.tokens import Condition, Side, Token, Weapon

PISTOL = Weapon("pistol", "2d6", range_increment=30.0, ammo=9, capacity=15)
SHAKEN = Gauge("Shaken", "Shaken", 1, 1, GaugeStyle.FLAG, harm=True)
PIPS = (
    Gauge("wounds", "Wounds", 1, 3, GaugeStyle.PIPS, harm=True),
    Gauge("fatigue", "Fatigue", 0, 2, GaugeStyle.PIPS, harm=True),
)
BARS = (
    Gauge("vitality", "Vitality", 30, 45),
    Gauge("wounds", "Wounds", 14, 14),
    Gauge("action_dice", "Action Dice", 3, 3),
)
CONDITIONS = (Condition("Shaken"), Condition("Stunned"), Condition("Prone"))


def _item(gauges: tuple[Gauge, ...]) -> TokenItem:
    token = Token("dv", "Det. Rosa Vega", Side.PARTY, Square(0, 0), conditions=CONDITIONS,
                  weapons=(PISTOL,))
    item = TokenItem(token)
    item.set_token(token, gauges)
    return item


def _glyphs(item: TokenItem) -> QRectF:
    """Where the initials' letters are drawn, token-local scene units."""
    s = item.side_length
    disc = QRectF(5, 5, s - 10, s - 10)
    room = initials_rect(disc, item._gauges_top())
    metrics = QFontMetricsF(style.label_font(initials_size(disc, room)))
    box = metrics.tightBoundingRect(initials(item.token.name))
    box.moveCenter(room.center())
    return box


def _render(item: TokenItem, pixels_per_square: float) -> tuple[QImage, float]:
    factor = pixels_per_square / SQUARE
    size = round(2 * SQUARE * factor)
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#3b3f45"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(factor, factor)
    painter.translate(SQUARE / 2, SQUARE / 2)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return image, factor


def _pixels_in(image: QImage, factor: float, box: QRectF) -> list[QColor]:
    shifted = box.translated(SQUARE / 2, SQUARE / 2)
    left, top = int(shifted.left() * factor) + 1, int(shifted.top() * factor) + 1
    right, bottom = int(shifted.right() * factor) - 1, int(shifted.bottom() * factor) - 1
    return [QColor(image.pixel(x, y)) for y in range(top, bottom + 1)
            for x in range(left, right + 1)]


@pytest.mark.parametrize("gauges", [(*PIPS, SHAKEN), (*BARS, SHAKEN)], ids=["pips", "bars"])
@pytest.mark.parametrize("pixels", [25.0, 64.0], ids=["fit-zoom", "table-zoom"])
def test_nothing_covers_the_initials(qtbot, gauges, pixels) -> None:  # type: ignore[no-untyped-def]
    item = _item(gauges)
    image, factor = _render(item, pixels)
    seen = _pixels_in(image, factor, _glyphs(item))
    assert seen, "the initials' box is empty"
    red = [c for c in seen if c.red() > 170 and c.green() < 100 and c.blue() < 100]
    dark = [c for c in seen if max(c.red(), c.green(), c.blue()) < 45]  # a bar's or a pip's
    white = [c for c in seen if min(c.red(), c.green(), c.blue()) > 170]
    assert not red, "a flag covers the initials"
    assert not dark, "a gauge covers the initials"
    assert white, "the initials are not drawn"


def test_the_flag_is_a_badge_on_the_edge_with_its_text_only_where_readable(qapp) -> None:  # type: ignore[no-untyped-def]
    flags, conditions = [SHAKEN], list(CONDITIONS)
    readable = layout_badges(flags, conditions, -6, 66, readable=True)
    assert readable[0].chip and readable[0].text == "Shaken"
    # Shaken is the flag: its condition dot is not drawn twice; the rest are counted.
    assert [b.text for b in readable[1:]] == ["+2"]
    wide = layout_badges(flags, conditions, -6, 130, readable=True)  # a large token
    assert [b.text for b in wide] == ["Shaken", "St", "Pr"]
    assert all(b.rect.bottom() <= 12 and b.rect.left() >= -6 and b.rect.right() <= 66
               for b in readable)
    small = layout_badges(flags, conditions, -6, 66, readable=False)
    assert [b.text for b in small] == ["", "", ""]
    # Beside an ammunition badge the row is short: the flag says its first letters.
    beside_ammo = layout_badges(flags, conditions, 32, 66, readable=True)
    assert beside_ammo[0].chip and beside_ammo[0].text == "Sh"


def test_a_long_flag_is_shortened_and_the_rest_counted(qapp) -> None:  # type: ignore[no-untyped-def]
    long = Gauge("fluid", "Count +4 at round's end (Aim, Taunted, Suppressed)", 1,
                 style=GaugeStyle.FLAG)
    many = [Condition(name) for name in ("Prone", "Stunned", "Dazed", "Pinned", "Braced")]
    badges = layout_badges([long], many, -6, 66, readable=True)
    assert badges[0].text.endswith("…") and badges[0].rect.width() <= 72 - 16
    assert badges[-1].text.startswith("+")
    shown = sum(1 for b in badges[1:] if not b.text.startswith("+"))
    assert shown + int(badges[-1].text[1:]) == len(many)
    assert all(b.rect.left() >= -6 and b.rect.right() <= 66 for b in badges)
    assert all(b.rect.height() == DOT for b in badges)


def test_the_tooltip_keeps_the_full_words(qtbot) -> None:  # type: ignore[no-untyped-def]
    item = _item((*PIPS, SHAKEN))
    tip = item.toolTip()
    assert "Shaken" in tip and "Stunned" in tip and "Prone" in tip


def test_a_flag_of_harm_is_red_and_a_count_change_is_not(qapp) -> None:  # type: ignore[no-untyped-def]
    count = Gauge("fluid", "Count +2", 1, style=GaugeStyle.FLAG, detail="at round's end (Aim)")
    badges = layout_badges([SHAKEN, count], [], -6, 130, readable=True)
    assert [(b.text, b.fill) for b in badges] == [("Shaken", HARM_FLAG), ("Count +2", NEUTRAL_FLAG)]


@pytest.mark.parametrize(("word", "short"), [
    ("Incapacitated", "Incap."), ("Mortally", "Mort."), ("Wounded", "Wound."),
    ("Unconscious", "Unconsc."), ("Prone", "Prone"), ("Shaken", "Shak."), ("+2", "+2"),
])
def test_a_long_word_is_cut_after_its_first_syllable(word: str, short: str) -> None:
    assert shortened_word(word) == short


MORTALLY_WOUNDED = Gauge("down", "Mortally Wounded", 1, style=GaugeStyle.FLAG, harm=True)
INCAPACITATED = Gauge("down", "Incapacitated", 1, style=GaugeStyle.FLAG, harm=True)


def test_a_long_condition_beside_the_ammunition_is_read_not_cut(qapp) -> None:  # type: ignore[no-untyped-def]
    """Cities Without Number's "Mortally Wounded" chip read "Mo..." beside "30/30"."""
    ammo = ammo_chip_rect(replace(PISTOL, ammo=30, capacity=30))
    left = ammo.right() - 2
    badges = layout_badges([MORTALLY_WOUNDED], [], left, 66, readable=True)
    assert badges[0].text in ("Mortally\nWounded", "Mort.\nWound.")
    assert "…" not in badges[0].text and badges[0].full == "Mortally Wounded"
    metrics = QFontMetricsF(style.label_font(badges[0].size))
    assert badges[0].size >= FLAG_FONT_SMALLEST
    assert all(metrics.horizontalAdvance(line) <= badges[0].rect.width() - 4
               for line in badges[0].text.split("\n"))
    assert badges[0].rect.left() >= left and badges[0].rect.right() <= 66
    assert metrics.height() * 2 <= badges[0].rect.height()
    whole_row = layout_badges([MORTALLY_WOUNDED], [], -6, 66, readable=True)
    assert whole_row[0].text == "Mortally\nWounded"  # with room, the words are whole
    one_word = layout_badges([INCAPACITATED], [], left, 66, readable=True)
    assert one_word[0].text == "Incap." and one_word[0].full == "Incapacitated"


def _hover_tip(item: TokenItem, where: QPointF) -> str:
    event = QGraphicsSceneHoverEvent(QEvent.Type.GraphicsSceneHoverMove)
    event.setPos(where)
    item.hoverMoveEvent(event)
    return item.toolTip()


def test_the_ammunition_reads_as_rounds_with_its_weapon_in_the_tooltip(qtbot) -> None:  # type: ignore[no-untyped-def]
    """"9/15" on the token read like hit points: a cartridge and "9", the weapon and its
    magazine in the chip's own tooltip."""
    item = _item((*PIPS, SHAKEN))
    _render(item, 64.0)
    chip = ammo_chip_rect(PISTOL)
    assert chip.width() < badge_font_metrics().horizontalAdvance("9/15") + 8
    assert _hover_tip(item, chip.center()) == "pistol: 9 of 15 rounds"
    assert "Det. Rosa Vega" in _hover_tip(item, QPointF(32, 40))  # the disc: the whole token


def test_a_fitted_flag_has_its_full_words_in_its_own_tooltip(qtbot) -> None:  # type: ignore[no-untyped-def]
    item = _item((*PIPS, MORTALLY_WOUNDED))
    _render(item, 64.0)
    flag = next(rect for rect, words in item.badge_tips if words == "Mortally Wounded")
    assert _hover_tip(item, flag.center()) == "Mortally Wounded"
    assert item.shape().contains(flag.center())  # the hover reaches a chip past the disc
