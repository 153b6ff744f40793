"""The geometry and routes questions Spycraft asks, answered by engine.geometry / routes.

Kept in one module so the rules never reach into geometry internals, and so a missing
piece of geometry shows up in one place.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry import token_line_of_sight
from engine.geometry.areas import map_reach, token_cone
from engine.geometry.cover import CoverResult, cover_between
from engine.geometry.results import Modifier, TemplateResult, opponents_inside
from engine.grid import NEIGHBOUR_STEPS, GridScale, Square
from engine.rules.spycraft import tables
from engine.rules.spycraft.tables import COVER, INCLUSION
from engine.tokens import Token

if TYPE_CHECKING:  # engine.routes is imported on the first question that needs it
    from engine.routes import MovementGraph
    from engine.routes.cuts import Cuts

#: Brace: a 90 degree cone reaching across the map; +1 to Standard Attack and Autofire
#: checks against opponents inside it.
BRACE_ANGLE = 90.0
BRACE_BONUS = 1

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


def cover(state: EncounterState, attacker: Token, target: Token) -> CoverResult:
    """The target's cover against the attacker, graded in Spycraft's numbers (cached: a
    preview asks it twice, for legality and for Defense, and a drag asks it again)."""
    return _cover(state.battlemap, attacker, target)


@functools.lru_cache(maxsize=256)
def _cover(battlemap: BattleMap, attacker: Token, target: Token) -> CoverResult:
    return cover_between(battlemap, attacker, target, COVER)


def brace_area(encounter: EncounterState, token_id: str, direction: float) -> TemplateResult:
    """Brace: the 90 degree cone a bracing shooter covers, reaching across the map.

    Opponents inside get the shooter's +1 (Standard Attack and Autofire checks against them).
    """
    shape, squares = token_cone(
        encounter, token_id, direction, map_reach(encounter), BRACE_ANGLE,
        inclusion=INCLUSION,
    )
    bonus = Modifier(
        "Brace",
        BRACE_BONUS,
        "to the bracing shooter's Standard Attack and Autofire checks against this target",
    )
    tokens = opponents_inside(encounter, token_id, squares, (bonus,))
    return TemplateResult(shape, squares, tokens)


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


def braced_cone(state: EncounterState, origin: Token, facing: str) -> TemplateResult:
    """The 90-degree Brace cone a stored facing names (a named facing or degrees)."""
    heading = FACINGS.get(facing)
    return brace_area(state, origin.id, float(facing) if heading is None else heading)


def in_cone(state: EncounterState, origin: Token, target: Token, facing: str) -> bool:
    """Is the target inside the 90-degree Brace cone (engine.geometry's ``brace_area``)?"""
    area = braced_cone(state, origin, facing)
    return any(square in area.squares for square in target.squares)


def step_blocked(state: EncounterState, a: Square, b: Square) -> bool:
    """Does a wall, blocking cover or a closed door stop a one-square step from a to b?"""
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


def _cuts(battlemap: BattleMap) -> Cuts:
    # Checked by identity first: hashing a map of thousands of walls on every step of a
    # path would cost more than the step test itself (a drag asks for the same map).
    if _LAST_CUTS and _LAST_CUTS[0][0] is battlemap:
        return _LAST_CUTS[0][1]
    cuts = _cuts_of(battlemap)
    _LAST_CUTS[:] = [(battlemap, cuts)]
    return cuts


_LAST_CUTS: list[tuple[BattleMap, Cuts]] = []


@functools.lru_cache(maxsize=16)
def _cuts_of(battlemap: BattleMap) -> Cuts:
    from engine.routes.cuts import compute_cuts

    return compute_cuts(battlemap)


def movement_graph(state: EncounterState) -> MovementGraph:
    """engine.routes' movement graph for this map and these tokens, cached for the
    read-only questions a preview asks (a drag previews the same state many times)."""
    from engine.routes import MovementGraph

    key = (state.battlemap, state.tokens, state.scale, state.system)
    graph = _GRAPHS.get(key)
    if graph is None:
        if len(_GRAPHS) >= _GRAPH_CACHE_SIZE:
            _GRAPHS.pop(next(iter(_GRAPHS)))
        graph = _GRAPHS[key] = MovementGraph(state, difficult_cost=tables.DIFFICULT_TERRAIN_COST)
    return graph


_GRAPH_CACHE_SIZE = 8
_GRAPHS: dict[tuple[BattleMap, tuple[Token, ...], GridScale, str], MovementGraph] = {}
