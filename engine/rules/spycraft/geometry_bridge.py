"""The geometry and routes questions Spycraft asks, answered by engine.geometry / routes.

Kept in one module so the rules never reach into geometry internals, and so a missing
piece of geometry shows up in one place.
"""

from __future__ import annotations

import functools
import itertools
import math

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry import token_line_of_sight
from engine.grid import Square
from engine.routes.cuts import Cuts
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


def strafe_chain_reasons(
    state: EncounterState, shooter: Token, squares: tuple[Square, ...]
) -> list[str]:
    """The Strafe area rules: a chain of adjacent squares, none twice, none directly
    behind another strafed square as seen from the shooter.

    engine.geometry will offer ``check_strafe``; until it lands this answers with Shapely.
    """
    import shapely

    reasons: list[str] = []
    if len(set(squares)) != len(squares):
        reasons.append("a Strafe may not target a square twice")
    for a, b in itertools.pairwise(squares):
        if max(abs(a.x - b.x), abs(a.y - b.y)) != 1:
            reasons.append(f"the Strafe skips squares between {a} and {b}")
            break
    ox = shooter.square.x + shooter.size / 2
    oy = shooter.square.y + shooter.size / 2
    for far in squares:
        ray = shapely.LineString([(ox, oy), far.centre])
        for near in squares:
            if near == far:
                continue
            box = shapely.box(near.x + 0.05, near.y + 0.05, near.x + 0.95, near.y + 0.95)
            if ray.intersects(box) and _dist(ox, oy, near) < _dist(ox, oy, far):
                reasons.append(f"{far} lies directly behind {near} from the shooter")
                return reasons
    for square in squares:
        if square in shooter.squares:
            reasons.append("the shooter cannot strafe his own square")
    return reasons


def _dist(ox: float, oy: float, square: Square) -> float:
    cx, cy = square.centre
    return math.hypot(cx - ox, cy - oy)


def square_line_of_sight(state: EncounterState, viewer: Token, square: Square) -> bool:
    from engine.geometry import has_line_of_sight

    return any(has_line_of_sight(state.battlemap, s, square) for s in viewer.squares)


def step_blocked(state: EncounterState, a: Square, b: Square) -> bool:
    """Does a wall, blocking cover or a closed door stop a one-square step from a to b?"""
    from engine.grid import NEIGHBOUR_STEPS
    from engine.routes.cuts import edge_key

    cuts = _cuts(state.battlemap)
    if not (0 <= a.x < cuts.width and 0 <= a.y < cuts.height):
        return True
    if b in cuts.impassable:
        return True
    k = NEIGHBOUR_STEPS.index((b.x - a.x, b.y - a.y))
    if not (cuts.open_bits[a.y * cuts.width + a.x] >> k) & 1:
        return True
    doors = cuts.portal_edges.get(edge_key(a, b), ())
    return any(state.battlemap.portal(door).blocks_movement for door in doors)


@functools.lru_cache(maxsize=16)
def _cuts(battlemap: BattleMap) -> Cuts:
    from engine.routes.cuts import compute_cuts

    return compute_cuts(battlemap)
