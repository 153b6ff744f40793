"""Small encounters for the route tests."""

from __future__ import annotations

from collections.abc import Iterable

from engine.battlemap import BattleMap, CoverObject, Portal, TerrainKind, TerrainPatch, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT, GridScale, Square
from engine.routes import MovementGraph
from engine.rules.cities_without_number.tables import SCALE as METRIC
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from engine.tokens import Condition, Side, Token, Weapon

SCALES = {
    "spycraft": FIVE_FOOT,
    "d20-firearms": FIVE_FOOT,
    "savage-worlds": SAVAGE_INCH,
    "cities-without-number": METRIC,
}

KNIFE = Weapon("knife", "1d4", melee=True)


def token(
    token_id: str,
    side: Side,
    x: int,
    y: int,
    *,
    size: int = 1,
    speed: float = 30.0,
    conditions: Iterable[str] = (),
    weapons: tuple[Weapon, ...] = (),
    **stats: int | float | str | bool,
) -> Token:
    return Token(
        token_id,
        token_id.title(),
        side,
        Square(x, y),
        size=size,
        speed=speed,
        conditions=tuple(Condition(c) for c in conditions),
        weapons=weapons,
        stats=dict(stats),
    )


def encounter(
    width: int = 20,
    height: int = 20,
    *,
    tokens: Iterable[Token] = (),
    walls: Iterable[tuple[tuple[float, float], tuple[float, float]]] = (),
    portals: Iterable[Portal] = (),
    difficult: Iterable[tuple[int, int]] = (),
    impassable: Iterable[tuple[int, int]] = (),
    cover: Iterable[CoverObject] = (),
    system: str = "spycraft",
    scale: GridScale | None = None,
) -> EncounterState:
    terrain = []
    if difficult:
        terrain.append(
            TerrainPatch("rubble", TerrainKind.DIFFICULT, frozenset(Square(*s) for s in difficult))
        )
    if impassable:
        terrain.append(
            TerrainPatch("pit", TerrainKind.IMPASSABLE, frozenset(Square(*s) for s in impassable))
        )
    battlemap = BattleMap(
        width,
        height,
        walls=tuple(Wall(a, b) for a, b in walls),
        portals=tuple(portals),
        terrain=tuple(terrain),
        cover=tuple(cover),
    )
    return EncounterState("test", system, scale or SCALES[system], battlemap, tuple(tokens))


def hero_among(
    start: tuple[int, int],
    others: Iterable[tuple[tuple[int, int], bool]],
    *,
    size: int = 1,
    map_side: int | None = None,
) -> list[Token]:
    """The mover "hero" (party, ``size`` squares a side, moved back onto a map of
    ``map_side`` when given) at ``start`` and one token per other square (an enemy when its
    flag is true, else an ally), skipping squares already taken."""
    x, y = start
    if map_side is not None:
        x, y = min(x, map_side - size), min(y, map_side - size)
    taken = {(x + i, y + j) for i in range(size) for j in range(size)}
    tokens = [token("hero", Side.PARTY, x, y, size=size)]
    for number, (square, enemy) in enumerate(others):
        if square not in taken:
            taken.add(square)
            tokens.append(token(f"other{number}", Side.ENEMY if enemy else Side.ALLY, *square))
    return tokens


def graph(difficult_cost: int = 2, **kwargs: object) -> MovementGraph:
    """A graph of ``encounter(**kwargs)``; difficult terrain doubles unless told otherwise."""
    return MovementGraph(encounter(**kwargs), difficult_cost=difficult_cost)  # type: ignore[arg-type]


class FixedDice:
    """Fixed rolls in order; remembers which expressions were rolled."""

    def __init__(self, *values: int) -> None:
        self._values = list(values)
        self.asked: list[str] = []

    def __call__(self, expression: str) -> int:
        self.asked.append(expression)
        return self._values.pop(0)
