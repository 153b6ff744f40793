"""Large, deterministic encounters for benchmarks.

``make_big_encounter``: 200x200 squares, 2,000 segments, 100 tokens. ``make_huge_encounter``:
400x400 squares, 8,000 segments, 200 tokens. The segments lie on grid lines, one to six
squares long: one in twenty is a door (every other door open), the rest walls. Tokens stand
on distinct squares, sides alternating party and enemy, each carrying an automatic rifle.
The same seed always gives the same encounter.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.battlemap import BattleMap, Portal, PortalKind, PortalState, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token, Weapon

MAP_SIZE = 200
SEGMENTS = 2_000
DOORS = 100
TOKENS = 100

RIFLE = Weapon("assault rifle", "2d8", range_increment=70.0, ammo=30, capacity=30, modes=("auto",))


HUGE_MAP_SIZE = 400
HUGE_SEGMENTS = 8_000
HUGE_DOORS = 400
HUGE_TOKENS = 200


def _segment(
    rng: random.Random, size: int = MAP_SIZE
) -> tuple[tuple[float, float], tuple[float, float]]:
    length = rng.randint(1, 6)
    if rng.random() < 0.5:
        x, y = rng.randint(0, size), rng.randint(0, size - length)
        return (float(x), float(y)), (float(x), float(y + length))
    x, y = rng.randint(0, size - length), rng.randint(0, size)
    return (float(x), float(y)), (float(x + length), float(y))


def make_big_map(
    seed: int = 0, size: int = MAP_SIZE, segments: int = SEGMENTS, doors: int = DOORS
) -> BattleMap:
    rng = random.Random(seed)
    walls = tuple(Wall(*_segment(rng, size)) for _ in range(segments - doors))
    portals = []
    for number in range(doors):
        x, y = rng.randint(0, size - 1), rng.randint(0, size)
        state = PortalState.OPEN if number % 2 else PortalState.CLOSED
        portals.append(
            Portal(
                f"door-{number}",
                (float(x), float(y)),
                (float(x + 1), float(y)),
                PortalKind.DOOR,
                state,
            )
        )
    return BattleMap(size, size, walls=walls, portals=tuple(portals))


def make_big_encounter(
    seed: int = 0,
    size: int = MAP_SIZE,
    segments: int = SEGMENTS,
    doors: int = DOORS,
    tokens: int = TOKENS,
) -> EncounterState:
    """The benchmark encounter: a 200x200 map, 2,000 segments, 100 tokens on free squares."""
    rng = random.Random(seed + 1)
    battlemap = make_big_map(seed, size, segments, doors)
    chosen: set[Square] = set()
    while len(chosen) < tokens:
        chosen.add(Square(rng.randrange(size), rng.randrange(size)))
    placed = tuple(
        Token(
            f"t{number}",
            f"Token {number}",
            Side.PARTY if number % 2 == 0 else Side.ENEMY,
            square,
            weapons=(RIFLE,),
        )
        for number, square in enumerate(sorted(chosen))
    )
    return EncounterState("benchmark", "spycraft", FIVE_FOOT, battlemap, placed)


def make_huge_encounter(seed: int = 0) -> EncounterState:
    """The large benchmark encounter: a 400x400 map, 8,000 segments, 200 tokens."""
    return make_big_encounter(seed, HUGE_MAP_SIZE, HUGE_SEGMENTS, HUGE_DOORS, HUGE_TOKENS)


def with_sealed_room(state: EncounterState, corner: Square, side: int) -> EncounterState:
    """The encounter with a square room of ``side`` squares walled shut (no door) at
    ``corner``, tokens inside it left out: a drag into it can never arrive."""
    x, y = float(corner.x), float(corner.y)
    far_x, far_y = x + side, y + side
    walls = (
        Wall((x, y), (far_x, y)),
        Wall((far_x, y), (far_x, far_y)),
        Wall((far_x, far_y), (x, far_y)),
        Wall((x, far_y), (x, y)),
    )
    battlemap = replace(state.battlemap, walls=state.battlemap.walls + walls)
    outside = tuple(
        t
        for t in state.tokens
        if not (corner.x <= t.square.x < far_x and corner.y <= t.square.y < far_y)
    )
    return replace(state, battlemap=battlemap, tokens=outside)
