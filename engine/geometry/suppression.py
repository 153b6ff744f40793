"""Suppressive Fire areas in general: the value each system's rule fills, sight of an area,
and which squares are suppressed by whom (for route finding).

Each rule system works out its own area (one square, a 10 ft square, a blast template) with
its own numbers, in its package; nothing here knows a system.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from engine.encounter import EncounterState
from engine.geometry.los import squares_see_each_other
from engine.geometry.results import AffectedToken, Modifier
from engine.grid import Square
from engine.tokens import Token, are_opponents


@dataclass(frozen=True)
class SuppressionArea:
    """One Suppressive Fire: where, by whom, what it costs and what it does.

    ``tokens`` are those inside now, with their modifiers; ``movers`` are the modifiers
    for an opponent who enters or crosses the area while it lasts. ``attack`` holds what
    the shooter's roll needs (a target Defense, a penalty). ``reasons`` say why it is not
    allowed, when ``allowed`` is False. ``draws_final_attacks``: a mover crossing the area
    draws a final attack from the shooter (see ``engine.routes.suppression``).
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
    max_casualties: int | None = None
    draws_final_attacks: bool = False

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


def suppressed_squares(areas: Iterable[SuppressionArea]) -> Mapping[Square, tuple[str, ...]]:
    """Every suppressed square and the ids of the shooters suppressing it (allowed areas only)."""
    found: dict[Square, list[str]] = {}
    for area in areas:
        if not area.allowed:
            continue
        for square in area.squares:
            shooters = found.setdefault(square, [])
            if area.shooter_id not in shooters:
                shooters.append(area.shooter_id)
    return {square: tuple(ids) for square, ids in found.items()}


def suppression_against(
    encounter: EncounterState, areas: Iterable[SuppressionArea], mover_id: str, square: Square
) -> tuple[SuppressionArea, ...]:
    """The areas that would punish ``mover_id`` for moving through ``square`` (opponents only)."""
    mover = encounter.token(mover_id)
    hits = []
    for area in areas:
        if not area.allowed or square not in area.squares:
            continue
        try:
            shooter = encounter.token(area.shooter_id)
        except KeyError:
            continue  # the shooter has left the fight
        if are_opponents(shooter.side, mover.side):
            hits.append(area)
    return tuple(hits)
