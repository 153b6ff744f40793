"""Gauges: the health and state a rule system reports for a token, for any screen to draw.

A system says what matters about a token's condition in its own terms (vitality and
wounds, a count of wounds and fatigue and a shaken flag, hit points) as a tuple of
:class:`Gauge` values from :meth:`engine.rules.base.RuleSystem.gauges`. The desktop draws
them generically (a bar, pips or a flag) and never knows which system it is showing.

>>> g = Gauge("vitality", "Vitality", 22, 30)
>>> g.text, round(g.fraction, 2)
('Vitality 22/30', 0.73)
>>> Gauge("wounds", "Wounds", 2, 3, GaugeStyle.PIPS, harm=True).text
'Wounds 2/3'
>>> Gauge("shaken", "Shaken", 1, 1, GaugeStyle.FLAG, harm=True).text
'Shaken'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.tokens import Token

if TYPE_CHECKING:
    from engine.rules.stat_block import DeclaredStat, StatBlock


class GaugeStyle(StrEnum):
    """How a gauge is best drawn: a bar (many points), pips (a few steps), a flag (on/off)."""

    BAR = "bar"
    PIPS = "pips"
    FLAG = "flag"


@dataclass(frozen=True, slots=True)
class Gauge:
    """One number about a token's state, with its range.

    ``key`` names the stat or condition it reads (the GM's overrides change it by that
    name). ``harm`` is True when the value counts harm taken (a count of wounds: more is
    worse) and False when it counts what is left (vitality: less is worse); a flag with
    ``harm`` False is news, not harm (a change of initiative count), and is drawn neutral.
    ``maximum`` is None when the token's file does not say it; the value is then shown
    alone.
    """

    key: str
    label: str
    value: int
    maximum: int | None = None
    style: GaugeStyle = GaugeStyle.BAR
    harm: bool = False
    #: More words for a flag, after its label where there is room (a tooltip): the chip
    #: says "Count -2", the tooltip "Count -2 at round's end (moved)".
    detail: str = ""

    @property
    def fraction(self) -> float:
        """How full the gauge is, 0..1 (a value with no maximum counts as full)."""
        if not self.maximum or self.maximum <= 0:
            return 1.0 if self.value > 0 else 0.0
        return max(0.0, min(1.0, self.value / self.maximum))

    @property
    def health(self) -> float:
        """How well the token is by this gauge, 0 (worst) to 1 (unharmed)."""
        return 1.0 - self.fraction if self.harm else self.fraction

    @property
    def text(self) -> str:
        if self.style is GaugeStyle.FLAG:
            return f"{self.label} {self.detail}" if self.detail else self.label
        if self.maximum is None:
            return f"{self.label} {self.value}"
        return f"{self.label} {self.value}/{self.maximum}"


def maximum_of(stats: StatBlock[DeclaredStat], token: Token, name: str) -> int | None:
    """The ``max_<name>`` stat the token's file gives (None when it gives none: the value
    is then shown alone, whatever default a new token's form would write)."""
    key = f"max_{name}"
    return stats.number(token, key) if stats.given(token, key) else None


def maximum_pairs(names: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(stat, its ``max_<stat>``) for each of ``names`` whose maximum is among them too: the
    points a form keeps full while the GM types the maximum of a new token."""
    names = tuple(names)
    return tuple((name, f"max_{name}") for name in names if f"max_{name}" in names)


def points_gauge(stats: StatBlock[DeclaredStat], token: Token, name: str, label: str) -> Gauge:
    """A bar of points left (vitality, hit points) from ``name`` and ``max_<name>``."""
    return Gauge(name, label, stats.number(token, name), maximum_of(stats, token, name))


def condition_flag(token: Token, name: str, label: str | None = None) -> Gauge | None:
    """A flag when the token has the condition ``name`` (None otherwise)."""
    if not token.has_condition(name):
        return None
    return Gauge(name, label or name, 1, 1, GaugeStyle.FLAG, harm=True)
