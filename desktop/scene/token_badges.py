"""What a token shows around its initials, laid out so the initials stay readable.

The badge row runs along the token's top edge, right to left: its flags (a state its rule
system reports as on or off, such as being shaken) as chips, red for harm, then its
conditions as dots, then "+N" for what does not fit. A condition a flag already shows is
not repeated. Text is drawn only where it can be read (``TEXT_MIN_PIXELS_PER_SQUARE``);
below that the badges are plain coloured marks and the token's tooltip says them in full.
A flag's text is fitted to the room it has: whole on one line, else a little smaller or
on two lines ("Mortally" over "Wounded"), else each long word cut after its first syllable
("Incap.", "Mort. Wound."), else cut with an ellipsis (its first two letters at least);
every badge keeps its full words for its tooltip. The initials sit in the disc above the
gauge bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF

from desktop.scene import style
from desktop.scene.fit_text import wrap_to
from desktop.scene.gauge_paint import flag_fill
from engine.rules.gauges import Gauge
from engine.tokens import Condition

#: Below this many screen pixels a square, badge text would be under 6 px tall.
TEXT_MIN_PIXELS_PER_SQUARE = 40.0
DOT = 18.0  # a condition's dot, scene units
ROW_TOP = -6.0
MORE_FILL = QColor("#f5f5f5")
BADGE_FONT_SIZE = 10.0
#: The smallest a flag's words are drawn to fit (at the least zoom that shows text, about
#: 6 screen pixels), and the most lines a flag chip takes.
FLAG_FONT_SMALLEST = 9.0
FLAG_LINES = 2
#: A chip's room round its words (scene units), and a two-line chip's room above and below.
CHIP_PADDING = 8.0
CHIP_LINE_PADDING = 2.0
#: Words no longer than this are never cut ("Prone", "Dazed").
SHORT_WORD = 5
VOWELS = frozenset("aeiouyAEIOUY")
#: The initials' height as a share of the disc's, and of the room left above the gauges.
INITIALS_SHARE = 0.38
INITIALS_ROOM_SHARE = 0.75


@dataclass(frozen=True, slots=True)
class Badge:
    """One badge: where it is (scene units, token-local), what it says (lines joined by
    a newline) at what pixel size, its fill, whether it is a chip (a flag) or a dot (a
    condition, or "+N"), and its full words for the tooltip."""

    rect: QRectF
    text: str
    fill: QColor
    chip: bool = False
    size: float = BADGE_FONT_SIZE
    full: str = ""


def condition_tag(condition: Condition) -> str:
    return condition.name[:2].capitalize()


def badge_font_metrics(size: float = BADGE_FONT_SIZE) -> QFontMetricsF:
    return QFontMetricsF(style.label_font(size))


def shortened_word(word: str) -> str:
    """A long word cut after its first syllable or so, with a full stop: "Incapacitated"
    reads "Incap.", "Mortally" "Mort."; a short word, or one the cut would not shorten,
    stays whole. Used only where the whole words do not fit."""
    if len(word) <= SHORT_WORD or not word.isalpha():
        return word
    cut = SHORT_WORD - 1
    while cut < len(word) and word[cut] not in VOWELS:
        cut += 1  # end on the consonants before the next vowel: "Incap", not "Inca"
    return word if cut >= len(word) - 1 else f"{word[:cut]}."


def abbreviated(label: str) -> str:
    return " ".join(shortened_word(word) for word in label.split())


@dataclass(frozen=True, slots=True)
class FittedLabel:
    """A flag's words as they fit its room: the lines and the pixel size."""

    lines: tuple[str, ...]
    size: float

    @property
    def width(self) -> float:
        metrics = badge_font_metrics(self.size)
        return max(metrics.horizontalAdvance(line) for line in self.lines) + CHIP_PADDING

    @property
    def height(self) -> float:
        if len(self.lines) == 1:
            return DOT
        return badge_font_metrics(self.size).height() * len(self.lines) + CHIP_LINE_PADDING


def fitted_label(label: str, room: float) -> FittedLabel | None:
    """``label`` in ``room`` scene units: whole on one line, then smaller, then on two
    lines, then the same with its long words cut; None when nothing of that fits."""
    sizes = (BADGE_FONT_SIZE, FLAG_FONT_SMALLEST)
    for words in dict.fromkeys((label, abbreviated(label))):
        for lines in (1, FLAG_LINES):
            for size in sizes:
                metrics = badge_font_metrics(size)
                wrapped = [words] if lines == 1 else wrap_to(words, room - CHIP_PADDING, metrics)
                wide = max(metrics.horizontalAdvance(line) for line in wrapped)
                if len(wrapped) <= lines and wide <= room - CHIP_PADDING:
                    return FittedLabel(tuple(wrapped), size)
    return None


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
            width, height, size, text = DOT, DOT, BADGE_FONT_SIZE, ""
            if readable:
                fitted = fitted_label(entry.label, room)
                if fitted is not None:
                    width, height = max(DOT, fitted.width), fitted.height
                    size, text = fitted.size, "\n".join(fitted.lines)
                else:
                    width = max(DOT, min(metrics.horizontalAdvance(entry.label) + 8, room))
                    text = _shortened(entry.label, width - 6, metrics)
            if width > room:
                _more(badges, len(entries) - index, x, left, readable, entries[index:])
                break
            badges.append(Badge(QRectF(x - width, ROW_TOP, width, height), text,
                                flag_fill(entry), True, size, entry.label))
            x -= width - 2  # badges overlap a little, as stacked counters do
        else:
            if x - DOT < left + keep:
                _more(badges, len(entries) - index, x, left, readable, entries[index:])
                break
            fill = (colour_of or {}).get(entry.name, MORE_FILL)
            text = condition_tag(entry) if readable else ""
            badges.append(Badge(QRectF(x - DOT, ROW_TOP, DOT, DOT), text, fill,
                                full=entry.name))
            x -= DOT - 2
    return badges


def _shortened(label: str, width: float, metrics: QFontMetricsF) -> str:
    """``label`` cut to ``width`` with an ellipsis; its first two letters when that would
    leave less than two (as a condition's dot says it)."""
    text = metrics.elidedText(label, Qt.TextElideMode.ElideRight, width)
    return text if len(text.rstrip("…")) >= 2 else label[:2]


def _more(badges: list[Badge], count: int, x: float, left: float, readable: bool,
          rest: Sequence[Gauge | Condition]) -> None:
    """A "+N" dot for the ``count`` entries that did not fit (over the last one if need be);
    its tooltip names them."""
    names = [entry.label if isinstance(entry, Gauge) else entry.name for entry in rest]
    if x - DOT < left and badges:
        count += 1
        hidden = badges.pop()
        names.insert(0, hidden.full)
        x = hidden.rect.right()
    text = f"+{count}" if readable else ""
    badges.append(Badge(QRectF(x - DOT, ROW_TOP, DOT, DOT), text, MORE_FILL,
                        full="\n".join(names)))


def initials_rect(disc: QRectF, gauges_top: float | None) -> QRectF:
    """Where the initials go: the disc, or its part above the gauge bars."""
    if gauges_top is None or gauges_top >= disc.bottom():
        return QRectF(disc)
    return QRectF(disc.left(), disc.top() + 2, disc.width(), gauges_top - disc.top() - 3)


def initials_size(disc: QRectF, room: QRectF) -> float:
    """The initials' pixel size: a share of the disc, smaller if the room is short."""
    return min(disc.height() * INITIALS_SHARE, room.height() * INITIALS_ROOM_SHARE)
