"""What a token drag in combat may spend: the bands of reach a rule system allows.

A GM used to a VTT's drag ruler drags a token as far as it should go and expects the move
to spend what that takes when the rules allow it: a second move with the rest of the turn,
a run. A rule system answers through ``RuleSystem.drag_bands`` with its bands, nearest
first: each says how far (in squares) a route may cost within it, the options its ordinary
move command then carries (none for the ordinary move itself) and what it spends, in the
system's words. A drag's route falls in the first band that reaches its cost; past the last
it is out of reach. The move's own check still decides: a band is what the drag sends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: An option a band puts on the move command, as (name, value) (``Command.options``).
BandOption = tuple[str, bool | int]


@dataclass(frozen=True, slots=True)
class DragBand:
    """One band of a drag's reach.

    ``name`` reads in the preview ("move", "double move", "run"); ``reach`` is the most
    squares a route in it may cost; ``options`` go on the ordinary move command for a
    route in it; ``spends`` says what it costs ("both half actions"); ``rolled`` names the
    roll that decides how far it really goes, when one does ("the running die"), so the
    desktop can say the end is not sure.
    """

    name: str
    reach: int
    spends: str
    options: tuple[BandOption, ...] = ()
    rolled: str = ""

    def __post_init__(self) -> None:
        if self.reach < 0:
            raise ValueError(f"drag band {self.name!r}: reach {self.reach} is below 0")


def band_for(bands: Sequence[DragBand], cost: int) -> int | None:
    """The index of the first band whose reach covers ``cost`` squares, or None (out of
    reach)."""
    return next((i for i, band in enumerate(bands) if cost <= band.reach), None)


def ordinary_band(allowance: int | None, spends: str = "") -> tuple[DragBand, ...]:
    """The one band of a system that knows only its ordinary move's allowance (none when
    it names no bound)."""
    return () if allowance is None else (DragBand("move", allowance, spends),)
