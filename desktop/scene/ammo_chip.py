"""The ammunition chip at a token's top-left: a cartridge and the rounds left ("30").

"30/30" read like hit points beside the health bars; a cartridge drawn before the count
says ammunition at a glance, and the tooltip names the weapon and its magazine.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen

from desktop.scene import style
from desktop.scene.token_badges import BADGE_FONT_SIZE, badge_font_metrics
from engine.tokens import Weapon

#: The cartridge's size and the gap before the count (scene units).
CARTRIDGE_WIDTH = 4.5
CARTRIDGE_HEIGHT = 10.0
CARTRIDGE_GAP = 2.0
#: The chip's room round the cartridge and count, its top and height.
PADDING = 3.0
TOP = -9.0
HEIGHT = 15.0
EMPTY_FILL = QColor("#d63031")
LOW_FILL = QColor("#f0a020")
FILL = QColor("#1f2328")


def ammo_words(weapon: Weapon) -> str:
    """The chip's tooltip: "Rifle: 12 of 30 rounds"."""
    return f"{weapon.name}: {weapon.ammo} of {weapon.capacity} rounds"


def ammo_chip_rect(weapon: Weapon) -> QRectF:
    count = badge_font_metrics().horizontalAdvance(str(weapon.ammo))
    width = PADDING + CARTRIDGE_WIDTH + CARTRIDGE_GAP + count + PADDING
    return QRectF(-6, TOP, width, HEIGHT)


def ammo_fill(weapon: Weapon) -> QColor:
    """Red when empty, amber at a quarter or less: the GM sees a reload coming."""
    if weapon.ammo == 0:
        return EMPTY_FILL
    if weapon.ammo * 4 <= weapon.capacity:
        return LOW_FILL
    return FILL


def paint_ammo_chip(painter: QPainter, weapon: Weapon) -> None:
    rect = ammo_chip_rect(weapon)
    painter.setPen(QPen(QColor(255, 255, 255, 180), 1))
    painter.setBrush(ammo_fill(weapon))
    painter.drawRoundedRect(rect, 4, 4)
    # A cartridge standing up: a case with a rounded bullet on top.
    left = rect.left() + PADDING
    top = rect.center().y() - CARTRIDGE_HEIGHT / 2
    cartridge = QPainterPath()
    tip = CARTRIDGE_WIDTH
    cartridge.moveTo(left, top + CARTRIDGE_HEIGHT)
    cartridge.lineTo(left, top + tip / 2 + 1)
    cartridge.quadTo(left + tip / 2, top - 1, left + tip, top + tip / 2 + 1)
    cartridge.lineTo(left + tip, top + CARTRIDGE_HEIGHT)
    cartridge.closeSubpath()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#e8c170"))  # brass
    painter.drawPath(cartridge)
    text = QRectF(left + CARTRIDGE_WIDTH + CARTRIDGE_GAP, rect.top(),
                  rect.right() - PADDING - left - CARTRIDGE_WIDTH - CARTRIDGE_GAP, rect.height())
    painter.setFont(style.label_font(BADGE_FONT_SIZE))
    painter.setPen(QColor("#ffffff"))
    painter.drawText(text, Qt.AlignmentFlag.AlignCenter, str(weapon.ammo))
