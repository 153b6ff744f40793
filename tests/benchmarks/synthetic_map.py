"""A large, deterministic encounter for benchmarks: 200x200 squares, 2,000 segments, 100 tokens.

The segments lie on grid lines, one to six squares long: 1,900 walls and 100 doors (every
other door open). Tokens stand on distinct squares, sides alternating party and enemy, each
carrying an automatic rifle. The same seed always gives the same encounter.
"""

from __future__ import annotations

import random

from engine.battlemap import BattleMap, Portal, PortalKind, PortalState, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token, Weapon

MAP_SIZE = 200
SEGMENTS = 2_000
DOORS = 100
TOKENS = 100

RIFLE = Weapon("assault rifle", "2d8", range_increment=70.0, ammo=30, capacity=30, modes=("auto",))


def _segment(rng: random.Random) -> tuple[tuple[float, float], tuple[float, float]]:
    length = rng.randint(1, 6)
    if rng.random() < 0.5:
        x, y = rng.randint(0, MAP_SIZE), rng.randint(0, MAP_SIZE - length)
        return (float(x), float(y)), (float(x), float(y + length))
    x, y = rng.randint(0, MAP_SIZE - length), rng.randint(0, MAP_SIZE)
    return (float(x), float(y)), (float(x + length), float(y))


def make_big_map(seed: int = 0) -> BattleMap:
    rng = random.Random(seed)
    walls = tuple(Wall(*_segment(rng)) for _ in range(SEGMENTS - DOORS))
    portals = []
    for number in range(DOORS):
        x, y = rng.randint(0, MAP_SIZE - 1), rng.randint(0, MAP_SIZE)
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
    return BattleMap(MAP_SIZE, MAP_SIZE, walls=walls, portals=tuple(portals))


def make_big_encounter(seed: int = 0) -> EncounterState:
    """The benchmark encounter: a 200x200 map, 2,000 segments, 100 tokens on free squares."""
    rng = random.Random(seed + 1)
    battlemap = make_big_map(seed)
    chosen: set[Square] = set()
    while len(chosen) < TOKENS:
        chosen.add(Square(rng.randrange(MAP_SIZE), rng.randrange(MAP_SIZE)))
    tokens = tuple(
        Token(
            f"t{number}",
            f"Token {number}",
            Side.PARTY if number % 2 == 0 else Side.ENEMY,
            square,
            weapons=(RIFLE,),
        )
        for number, square in enumerate(sorted(chosen))
    )
    return EncounterState("benchmark", "spycraft", FIVE_FOOT, battlemap, tokens)
