"""What a token shows around its initials, laid out so the initials stay readable.

The badge row runs along the token's top edge, right to left: its flags (a state its rule
system reports as on or off, such as being shaken) as chips, red for harm, then its
conditions as dots, then "+N" for what does not fit. A condition a flag already shows is
not repeated. Text is drawn only where it can be read (``TEXT_MIN_PIXELS_PER_SQUARE``);
below that the badges are plain coloured marks and the token's tooltip says them in full.
A flag's text is shortened to the room it has (its first two letters at least). The
initials sit in the disc above the gauge bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF

from desktop.scene import style
from desktop.scene.gauge_paint import flag_fill
from engine.rules.gauges import Gauge
from engine.tokens import Condition

#: Below this many screen pixels a square, badge text would be under 6 px tall.
TEXT_MIN_PIXELS_PER_SQUARE = 40.0
DOT = 18.0  # a condition's dot, scene units
ROW_TOP = -6.0
MORE_FILL = QColor("#f5f5f5")
BADGE_FONT_SIZE = 10.0
#: The initials' height as a share of the disc's, and of the room left above the gauges.
INITIALS_SHARE = 0.38
INITIALS_ROOM_SHARE = 0.75


@dataclass(frozen=True, slots=True)
class Badge:
    """One badge: where it is (scene units, token-local), what it says, its fill, and
    whether it is a chip (a flag) or a dot (a condition, or "+N")."""

    rect: QRectF
    text: str
    fill: QColor
    chip: bool = False


def condition_tag(condition: Condition) -> str:
    return condition.name[:2].capitalize()


def badge_font_metrics() -> QFontMetricsF:
    return QFontMetricsF(style.label_font(BADGE_FONT_SIZE))


def layout_badges(
    flags: Sequence[Gauge],
    conditions: Sequence[Condition],
    left: float,
    right: float,
    readable: bool,
    colour_of: dict[str, QColor] | None = None,
) -> list[Badge]:
    """The badges between ``left`` and ``right`` (scene x, token-local), right first."""
    shown_by_flag = {name.lower() for flag in flags for name in (flag.key, flag.label)}
    dots = [c for c in conditions if c.name.lower() not in shown_by_flag]
    metrics = badge_font_metrics()
    badges: list[Badge] = []
    x = right
    entries: list[Gauge | Condition] = [*flags, *dots]
    for index, entry in enumerate(entries):
        rest = len(entries) - index - 1
        keep = DOT - 2 if rest else 0.0  # room for "+N" should the next not fit
        if isinstance(entry, Gauge):
            room = x - left - keep
            width = DOT
            if readable:
                width = max(DOT, min(metrics.horizontalAdvance(entry.label) + 8, room))
            if width > room:
                _more(badges, len(entries) - index, x, left, readable)
                break
            text = _shortened(entry.label, width - 6, metrics) if readable else ""
            badges.append(Badge(QRectF(x - width, ROW_TOP, width, DOT), text, flag_fill(entry),
                                True))
            x -= width - 2  # badges overlap a little, as stacked counters do
        else:
            if x - DOT < left + keep:
                _more(badges, len(entries) - index, x, left, readable)
                break
            fill = (colour_of or {}).get(entry.name, MORE_FILL)
            text = condition_tag(entry) if readable else ""
            badges.append(Badge(QRectF(x - DOT, ROW_TOP, DOT, DOT), text, fill))
            x -= DOT - 2
    return badges


def _shortened(label: str, width: float, metrics: QFontMetricsF) -> str:
    """``label`` cut to ``width`` with an ellipsis; its first two letters when that would
    leave less than two (as a condition's dot says it)."""
    text = metrics.elidedText(label, Qt.TextElideMode.ElideRight, width)
    return text if len(text.rstrip("…")) >= 2 else label[:2]


def _more(badges: list[Badge], count: int, x: float, left: float, readable: bool) -> None:
    """A "+N" dot for the ``count`` entries that did not fit (over the last one if need be)."""
    if x - DOT < left and badges:
        count += 1
        x = badges.pop().rect.right()
    text = f"+{count}" if readable else ""
    badges.append(Badge(QRectF(x - DOT, ROW_TOP, DOT, DOT), text, MORE_FILL))


def initials_rect(disc: QRectF, gauges_top: float | None) -> QRectF:
    """Where the initials go: the disc, or its part above the gauge bars."""
    if gauges_top is None or gauges_top >= disc.bottom():
        return QRectF(disc)
    return QRectF(disc.left(), disc.top() + 2, disc.width(), gauges_top - disc.top() - 3)


def initials_size(disc: QRectF, room: QRectF) -> float:
    """The initials' pixel size: a share of the disc, smaller if the room is short."""
    return min(disc.height() * INITIALS_SHARE, room.height() * INITIALS_ROOM_SHARE)
