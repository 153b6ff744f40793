"""Token items: a disc in the side's colour with initials, name plate, condition and ammo badges.

The badges along the top edge and the initials above the gauges are laid out by
desktop.scene.token_badges, so a flag or a condition never covers the initials.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from typing import Any, overload

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHoverEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from desktop.scene import style
from desktop.scene.ammo_chip import ammo_chip_rect, ammo_words, paint_ammo_chip
from desktop.scene.detail import pixels_per_square, shows_details
from desktop.scene.gauge_paint import paint_gauges, rows, stack_height
from desktop.scene.style import SQUARE
from desktop.scene.token_badges import (
    TEXT_MIN_PIXELS_PER_SQUARE,
    Badge,
    initials_rect,
    initials_size,
    layout_badges,
)
from engine.rules.gauges import Gauge
from engine.tokens import Side, Token, Weapon

#: The gauge bars stand on this far above the token's bottom edge (scene units).
GAUGE_BOTTOM_INSET = 8.0


def initials(name: str) -> str:
    words = ["".join(c for c in w if c.isalnum()) for w in name.replace("-", " ").split()]
    words = [w for w in words if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].upper()
    return (words[0][0] + words[-1][0]).upper()


def condition_colour(name: str) -> QColor:
    """A stable colour per condition name, so Shaken always looks the same."""
    hue = int(hashlib.md5(name.lower().encode()).hexdigest()[:4], 16) % 360
    return QColor.fromHsv(hue, 170, 215)


def ammo_weapon(token: Token) -> Weapon | None:
    """The first weapon that uses ammunition: the one whose magazine the GM watches."""
    return next((w for w in token.weapons if w.uses_ammunition), None)


def describe_token(
    token: Token, gauges: tuple[Gauge, ...] = (), endings: Mapping[str, str] | None = None
) -> str:
    """The tooltip: name, health in the system's words, conditions with their end, weapons."""
    lines = [f"<b>{token.name}</b> ({token.side.value})", f"speed {token.speed:g}"]
    if gauges:
        lines.append(" · ".join(gauge.text for gauge in gauges))
    for condition in token.conditions:
        end = (endings or {}).get(condition.name, "")
        lines.append(f"• {condition.name}" + (f" — {end}" if end else ""))
    for weapon in token.weapons:
        ammo = f" {weapon.ammo}/{weapon.capacity} rounds" if weapon.uses_ammunition else ""
        lines.append(f"⚔ {weapon.name}{ammo}")
    return "<br>".join(lines)


class TokenItem(QGraphicsItem):
    """One token. Its position is its top-left square; ``set_token`` redraws it from a new value."""

    def __init__(self, token: Token, portrait: QImage | None = None, gm: bool = True) -> None:
        super().__init__()
        self.gm = gm
        self.selected = False
        #: True while it is this token's turn: a gold ring says who acts, as on any tracker.
        self.acting = False
        self.token = token
        self._portrait = portrait
        #: The token's health and state as its rule system reports them (drawn under the disc).
        self.gauges: tuple[Gauge, ...] = ()
        #: Condition name -> when it ends, in words (the tooltip shows them).
        self.endings: Mapping[str, str] = {}
        #: False hides the gauges (an enemy's health on the players' screen).
        self.show_gauges = True
        #: The rule system's conditions that take a token out of the fight (none: never).
        self.down_conditions: tuple[str, ...] = ()
        self.setZValue(style.Z_TOKENS)
        self.setAcceptHoverEvents(True)
        #: Where each badge was last drawn and its full words, for its own tooltip.
        self.badge_tips: tuple[tuple[QRectF, str], ...] = ()
        self.label = TokenLabelItem(self)
        self.set_token(token)

    @property
    def token_id(self) -> str:
        return self.token.id

    @property
    def is_down(self) -> bool:
        """Out of the fight by its system's word (drawn crossed out, as a defeated token)."""
        return any(self.token.has_condition(name) for name in self.down_conditions)

    def set_token(
        self,
        token: Token,
        gauges: tuple[Gauge, ...] | None = None,
        endings: Mapping[str, str] | None = None,
    ) -> None:
        """Show a new value of the token (and, when given, its gauges and condition ends)."""
        self.prepareGeometryChange()
        self.token = token
        if gauges is not None:
            self.gauges = gauges
        if endings is not None:
            self.endings = endings
        self.setPos(token.square.x * SQUARE, token.square.y * SQUARE)
        if self.gm:
            self.setToolTip(describe_token(token, self.gauges, self.endings))
        self.label.refresh()
        self.update()

    def set_selected(self, selected: bool) -> None:
        self.selected = selected
        self.update()

    def set_acting(self, acting: bool) -> None:
        if acting != self.acting:
            self.acting = acting
            self.update()

    def _paint_acting(self, painter: QPainter, disc: QRectF) -> None:
        """A soft gold glow and ring just outside the disc, under everything else."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        glow = QColor(style.ACTING)
        glow.setAlpha(90)
        painter.setPen(QPen(glow, 7))
        painter.drawEllipse(disc.adjusted(-3, -3, 3, 3))
        painter.setPen(QPen(style.ACTING, 2.5))
        painter.drawEllipse(disc.adjusted(-3, -3, 3, 3))

    def set_lifted(self, lifted: bool) -> None:
        """While a drag holds the token, keep its drawing (and its name plate's) as a pixmap
        at the view's scale: each mouse move repaints the token on a new square, and a blit
        costs far less than its dozen antialiased shapes (about 1 ms a frame). Not kept
        otherwise: a zoom would draw every cached token twice, into its pixmap and onto the
        view, which made a wheel step over the whole 100-token map 15 % slower."""
        mode = (
            QGraphicsItem.CacheMode.DeviceCoordinateCache
            if lifted
            else QGraphicsItem.CacheMode.NoCache
        )
        self.setCacheMode(mode)
        self.label.setCacheMode(mode)

    def set_portrait(self, portrait: QImage | None) -> None:
        self._portrait = portrait
        self.update()

    @overload
    def setPos(self, pos: QPointF | QPoint | QPainterPath.Element, /) -> None: ...

    @overload
    def setPos(self, x: float, y: float, /) -> None: ...

    def setPos(self, *args: Any) -> None:
        """Move the token, and its name label with it."""
        super().setPos(*args)
        self.label.follow()

    @property
    def side_length(self) -> float:
        return self.token.size * SQUARE

    def boundingRect(self) -> QRectF:
        s = self.side_length
        return QRectF(-6, -10, s + 16, s + 16)

    def shape(self) -> QPainterPath:
        """The disc and its badges (a badge's tooltip needs the hover over it)."""
        path = QPainterPath()
        inset = 4.0
        s = self.side_length
        path.addEllipse(QRectF(inset, inset, s - 2 * inset, s - 2 * inset))
        for rect, _words in self.badge_tips:
            path.addRect(rect)
        return path

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        """Over a badge, the tooltip is its full words ("Mortally Wounded", the rifle's
        rounds); elsewhere, the whole token's."""
        here = event.pos()
        words = next((words for rect, words in self.badge_tips if rect.contains(here)), "")
        whole = describe_token(self.token, self.gauges, self.endings) if self.gm else ""
        self.setToolTip(words or whole)  # the players' view tells nothing more
        super().hoverMoveEvent(event)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not shows_details(painter):
            self._paint_simple(painter)
            return
        self._paint_full(painter)

    def _disc(self) -> QRectF:
        s = self.side_length
        inset = 5.0
        return QRectF(inset, inset, s - 2 * inset, s - 2 * inset)

    def _paint_simple(self, painter: QPainter) -> None:
        """Zoomed far out: one disc in the side's colour (white-edged while selected)."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.acting:  # three device pixels at any zoom, outside the disc
            ring = QPen(style.ACTING, 3)
            ring.setCosmetic(True)
            painter.setPen(ring)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(self._disc().adjusted(-6, -6, 6, 6))
        if self.selected:
            painter.setPen(QPen(QColor("#ffffff"), 0))  # cosmetic: one pixel at any zoom
        else:
            painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.SIDE_COLOURS[self.token.side])
        painter.drawEllipse(self._disc())
        if self.is_down:
            self._paint_down(painter, self._disc())

    def _paint_full(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        token = self.token
        s = self.side_length
        disc = self._disc()
        colour = style.SIDE_COLOURS[token.side]
        if self.acting:
            self._paint_acting(painter, disc)
        # Drop shadow lifts the token off busy backgrounds.
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 110))
        painter.drawEllipse(disc.translated(2.5, 3.5))
        painter.setBrush(colour.darker(260))
        painter.drawEllipse(disc)
        if self._portrait is not None and not self._portrait.isNull():
            clip = QPainterPath()
            clip.addEllipse(disc)
            painter.save()
            painter.setClipPath(clip)
            painter.drawImage(disc, self._portrait)
            painter.restore()
        else:
            room = initials_rect(disc, self._gauges_top())
            painter.setPen(QColor("#ffffff"))
            painter.setFont(style.label_font(initials_size(disc, room)))
            painter.drawText(room, Qt.AlignmentFlag.AlignCenter, initials(token.name))
        ring = max(4.0, s * 0.075)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colour, ring))
        painter.drawEllipse(disc.adjusted(ring / 2, ring / 2, -ring / 2, -ring / 2))
        painter.setPen(QPen(QColor(0, 0, 0, 160), 1.2))
        painter.drawEllipse(disc)
        if self.selected:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor("#ffffff"), 3, Qt.PenStyle.DashLine))
            painter.drawEllipse(disc.adjusted(-3, -3, 3, 3))
        self._paint_facing(painter, disc, colour)
        if self.is_down:
            self._paint_down(painter, disc)
        if self.show_gauges and self.gauges:
            margin = s * 0.12
            paint_gauges(painter, self.gauges, margin, s - GAUGE_BOTTOM_INSET, s - 2 * margin)
        self._paint_badges(painter, s)
        self._paint_ammo(painter, s)

    def _gauges_top(self) -> float | None:
        """The top of the gauge bars in the disc (None when none are drawn)."""
        if not (self.show_gauges and self.gauges):
            return None
        height = stack_height(self.gauges)
        return self.side_length - GAUGE_BOTTOM_INSET - height if height else None

    def _paint_down(self, painter: QPainter, disc: QRectF) -> None:
        """Out of the fight: the disc dimmed and crossed out, so a glance at the map tells
        who is still up (a condition badge alone reads like any other condition)."""
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 150))
        painter.drawEllipse(disc)
        cross = disc.adjusted(disc.width() * 0.2, disc.height() * 0.2,
                              -disc.width() * 0.2, -disc.height() * 0.2)
        for width, colour in ((max(6.0, disc.width() * 0.16), QColor(0, 0, 0, 200)),
                              (max(3.0, disc.width() * 0.1), style.DOWN_MARK)):
            pen = QPen(colour, width)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawLine(cross.topLeft(), cross.bottomRight())
            painter.drawLine(cross.topRight(), cross.bottomLeft())

    def _paint_facing(self, painter: QPainter, disc: QRectF, colour: QColor) -> None:
        # Facing is in degrees, 0 = towards +x (east), growing clockwise on screen (y down).
        angle = math.radians(self.token.facing)
        centre = disc.center()
        r = disc.width() / 2
        tip = centre + QPointF(math.cos(angle), math.sin(angle)) * (r + 7)
        left = centre + QPointF(math.cos(angle + 0.28), math.sin(angle + 0.28)) * (r - 2)
        right = centre + QPointF(math.cos(angle - 0.28), math.sin(angle - 0.28)) * (r - 2)
        painter.setPen(QPen(QColor(0, 0, 0, 200), 1.2))
        painter.setBrush(colour.lighter(130))
        painter.drawPolygon([tip, left, right])

    def _paint_badges(self, painter: QPainter, s: float) -> None:
        """Flags and conditions along the top edge (desktop.scene.token_badges)."""
        flags = rows(self.gauges)[1] if self.show_gauges else []
        ammo = self._ammo_rect()
        left = ammo.right() - 2 if ammo is not None else -6.0
        readable = pixels_per_square(painter) >= TEXT_MIN_PIXELS_PER_SQUARE
        colours = {c.name: condition_colour(c.name) for c in self.token.conditions}
        badges = layout_badges(flags, self.token.conditions, left, s + 2, readable, colours)
        for badge in badges:
            self._paint_badge(painter, badge)
        tips = [(badge.rect, badge.full) for badge in badges if badge.full]
        weapon = ammo_weapon(self.token)
        if ammo is not None and weapon is not None:
            tips.append((ammo, ammo_words(weapon)))
        self.badge_tips = tuple(tips)  # inside the bounding rectangle: no geometry change

    @staticmethod
    def _paint_badge(painter: QPainter, badge: Badge) -> None:
        painter.setPen(QPen(QColor(0, 0, 0, 220), 1.5))
        painter.setBrush(badge.fill)
        if badge.chip:
            painter.drawRoundedRect(badge.rect, 5, 5)
        else:
            painter.drawEllipse(badge.rect)
        if badge.text:
            painter.setFont(style.label_font(badge.size))
            painter.setPen(QColor("#ffffff") if badge.chip else QColor("#101010"))
            painter.drawText(badge.rect, Qt.AlignmentFlag.AlignCenter, badge.text)

    def _ammo_rect(self) -> QRectF | None:
        """Where the ammunition chip goes (top-left), if the token shows one."""
        weapon = ammo_weapon(self.token)
        if weapon is None or (not self.gm and self.token.side is not Side.PARTY):
            return None
        return ammo_chip_rect(weapon)

    def _paint_ammo(self, painter: QPainter, s: float) -> None:
        weapon = ammo_weapon(self.token)
        if weapon is not None and self._ammo_rect() is not None:
            paint_ammo_chip(painter, weapon)


class TokenLabelItem(QGraphicsItem):
    """The name plate under a token; a separate item so it stays above neighbouring tokens."""

    def __init__(self, owner: TokenItem) -> None:
        super().__init__()
        self._owner = owner
        self._text = ""
        self._rect = QRectF()
        self.setZValue(style.Z_LABELS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def refresh(self) -> None:
        self.prepareGeometryChange()
        self._text = self._owner.token.name
        font = style.label_font(12)
        width = QFontMetricsF(font).horizontalAdvance(self._text) + 10
        self._rect = QRectF(-width / 2, 0, width, 17)
        self.follow()
        self.update()

    def follow(self) -> None:
        owner = self._owner
        s = owner.token.size * SQUARE
        self.setPos(owner.pos() + QPointF(s / 2, s - 7))
        self.setVisible(owner.isVisible())

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not shows_details(painter):
            return  # too small to read; the token's disc alone says where it stands
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = style.SIDE_COLOURS[self._owner.token.side]
        painter.setPen(QPen(colour, 1.5))
        painter.setBrush(QBrush(QColor(15, 17, 20, 215)))
        painter.drawRoundedRect(self._rect, 5, 5)
        painter.setFont(style.label_font(12))
        painter.setPen(QColor("#ffffff"))
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self._text)
