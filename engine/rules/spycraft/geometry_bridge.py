"""The geometry and routes questions Spycraft asks, answered by engine.geometry / routes.

Kept in one module so the rules never reach into geometry internals, and so a missing
piece of geometry shows up in one place.
"""

from __future__ import annotations

import math

from engine.encounter import EncounterState
from engine.geometry import token_line_of_sight
from engine.grid import Square
from engine.tokens import Token

#: Named facings for Brace's 90-degree cone, in degrees clockwise from east (y down).
FACINGS = {
    "e": 0.0,
    "se": 45.0,
    "s": 90.0,
    "sw": 135.0,
    "w": 180.0,
    "nw": 225.0,
    "n": 270.0,
    "ne": 315.0,
}


def line_of_sight(state: EncounterState, viewer: Token, target: Token) -> bool:
    return token_line_of_sight(state.battlemap, viewer, target)


def direction_to(origin: Token, square: Square) -> float:
    """Angle in degrees (clockwise from east, y down) from a token's centre to a square."""
    ox = origin.square.x + origin.size / 2
    oy = origin.square.y + origin.size / 2
    cx, cy = square.centre
    return math.degrees(math.atan2(cy - oy, cx - ox)) % 360.0


def cone_facing(origin: Token, toward: Square) -> str:
    """The cone a Brace command names by a square it points at, stored as degrees."""
    return f"{direction_to(origin, toward):.1f}"


def in_cone(state: EncounterState, origin: Token, target: Token, facing: str) -> bool:
    """Is any of the target's squares within 45 degrees either side of the facing?"""
    centre = FACINGS.get(facing)
    heading = float(facing) if centre is None else centre
    for square in target.squares:
        delta = abs((direction_to(origin, square) - heading + 180.0) % 360.0 - 180.0)
        if delta <= 45.0 + 1e-9:
            return True
    return False
