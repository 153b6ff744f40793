"""Suppressive Fire areas in general: the value each system's rule fills, and sight of an
area.

Each rule system works out its own area (one square, a 10 ft square, a blast template) with
its own numbers, in its package, and decides what the area does to those in it or crossing
it while it lasts; nothing here knows a system.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from engine.encounter import EncounterState
from engine.geometry.los import squares_see_each_other
from engine.geometry.results import AffectedToken, Modifier
from engine.grid import Square
from engine.tokens import Token


@dataclass(frozen=True)
class SuppressionArea:
    """One Suppressive Fire: where, by whom, what it costs and what it does.

    ``tokens`` are those inside now, with their modifiers; ``movers`` are the modifiers
    for an opponent who enters or crosses the area while it lasts. ``attack`` holds what
    the shooter's roll needs (a target Defense, a penalty). ``reasons`` say why it is not
    allowed, when ``allowed`` is False.
    """

    shooter_id: str
    weapon: str
    shape: shapely.Geometry
    squares: frozenset[Square]
    shots: int
    tokens: tuple[AffectedToken, ...]
    movers: tuple[Modifier, ...]
    attack: tuple[Modifier, ...]
    reasons: tuple[str, ...]

    @property
    def allowed(self) -> bool:
        return not self.reasons


def sight_reasons(encounter: EncounterState, shooter: Token, squares: list[Square]) -> list[str]:
    """Why the shooter cannot fire at the area: it sees none of its squares."""
    sees = np.zeros(len(squares), dtype=bool)
    for own in shooter.squares:
        sees |= squares_see_each_other(encounter.battlemap, [own] * len(squares), squares)
    if sees.any():
        return []
    return ["the shooter cannot see the area"]

