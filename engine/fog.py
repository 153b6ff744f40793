"""Fog the GM sets by hand, over the automatic fog of what the party sees.

The player view fogs every square no party token sees. The GM may reveal squares anyway
(a lit hall the party knows, a map handed over) or keep squares hidden though seen (a
secret the players must not spot yet). Both are sets of squares kept in the encounter,
changed by the ``set_fog`` command (engine.rules.edit_fog), so they save, load and undo.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from engine.grid import Square


class FogMode(StrEnum):
    """What the GM does to squares: show them, hide them, or leave them to sight again."""

    REVEAL = "reveal"
    HIDE = "hide"
    AUTOMATIC = "automatic"


@dataclass(frozen=True, slots=True)
class ManualFog:
    """Squares the GM revealed and squares the GM hid (a square is in one set at most)."""

    revealed: frozenset[Square] = frozenset()
    hidden: frozenset[Square] = frozenset()

    def __post_init__(self) -> None:
        both = self.revealed & self.hidden
        if both:
            raise ValueError(f"square {min(both)} is both revealed and hidden by hand")

    @property
    def empty(self) -> bool:
        return not self.revealed and not self.hidden

    def marked(self, squares: Iterable[Square], mode: FogMode) -> ManualFog:
        """The fog with ``squares`` revealed, hidden or handed back to sight."""
        chosen = frozenset(squares)
        revealed, hidden = self.revealed - chosen, self.hidden - chosen
        if mode is FogMode.REVEAL:
            revealed |= chosen
        elif mode is FogMode.HIDE:
            hidden |= chosen
        return ManualFog(revealed, hidden)

    def over(self, seen: frozenset[Square]) -> frozenset[Square]:
        """What the players see: what sight gives, plus the revealed, less the hidden."""
        return (seen | self.revealed) - self.hidden
