"""Spycraft Bull Rush into an obstacle: its Damage save and what breaking it does to the map.

The text: an object or piece of scenery in the pushed opponent's path makes a Damage save
against damage equal to the pusher's Athletics result; if it fails, the opponent smashes
through and keeps going (either way the opponent takes the pusher's unarmed damage).

Our readings where the texts are silent (object statistics are not among them):

- The save is 1d20 + the obstacle's Damage save bonus against a DC equal to that damage; the
  bonus comes from ``obstacle_saves.json`` by kind (door, window, wall, cover, terrain), or
  from the GM for one Bull Rush (option ``obstacle_save``).
- Breaking: a door or window is gone from its wall; a cover object is gone; an impassable
  terrain square becomes open ground; a wall gets a gap where the opponent went through
  (the part of the wall inside the squares the opponent stepped between).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon, box

from engine.battlemap import BattleMap, PortalKind, TerrainKind, Wall
from engine.grid import Square, squares_of_footprint

KINDS = ("door", "window", "wall", "cover", "terrain")


@lru_cache(maxsize=1)
def save_bonuses() -> dict[str, int]:
    """Damage save bonus per kind of obstacle (``obstacle_saves.json``)."""
    text = resources.files(__package__).joinpath("obstacle_saves.json").read_text("utf-8")
    where = "engine/rules/spycraft/obstacle_saves.json"
    try:
        table = json.loads(text)["bonus"]
    except (ValueError, KeyError) as error:
        raise ValueError(f"{where}: no 'bonus' table ({error})") from None
    missing = [k for k in KINDS if k not in table]
    wrong = [k for k, v in table.items() if isinstance(v, bool) or not isinstance(v, int)]
    if missing or wrong:
        raise ValueError(f"{where}: bonus needs a whole number for each of {', '.join(KINDS)}"
                         f" (missing {missing}, not whole numbers {wrong})")
    return {k: int(table[k]) for k in KINDS}


@dataclass(frozen=True, slots=True)
class Obstruction:
    """What stops a footprint stepping from ``here`` to ``there``, as map parts."""

    here: Square
    there: Square
    size: int
    walls: tuple[int, ...] = ()  # indices into BattleMap.walls
    portals: tuple[str, ...] = ()
    cover: tuple[str, ...] = ()
    terrain: tuple[Square, ...] = ()
    windows_only: bool = False  # the only parts in the way are windows

    @property
    def kind(self) -> str:
        """The sturdiest kind among the parts (the one that makes the save)."""
        if self.walls:
            return "wall"
        if self.terrain:
            return "terrain"
        if self.cover:
            return "cover"
        return "window" if self.windows_only else "door"

    @property
    def found(self) -> bool:
        return bool(self.walls or self.portals or self.cover or self.terrain)


def _centre(square: Square) -> tuple[float, float]:
    return square.x + 0.5, square.y + 0.5


def _steps(here: Square, there: Square, size: int) -> list[LineString]:
    dx, dy = there.x - here.x, there.y - here.y
    return [LineString([_centre(s), _centre(Square(s.x + dx, s.y + dy))])
            for s in squares_of_footprint(here, size)]


def obstruction(battlemap: BattleMap, here: Square, there: Square, size: int) -> Obstruction:
    """The walls, doors, windows, cover and impassable terrain in the way of the step."""
    steps = _steps(here, there, size)
    landing = set(squares_of_footprint(there, size))
    walls = tuple(i for i, w in enumerate(battlemap.walls) if w.blocks_movement and any(
        LineString([w.start, w.end]).intersects(step) for step in steps))
    portals = [p for p in battlemap.portals if p.blocks_movement and any(
        LineString([p.start, p.end]).intersects(step) for step in steps)]
    cover = tuple(c.id for c in battlemap.cover if c.blocks_movement and any(
        Polygon(c.outline).intersects(step) for step in steps))
    terrain = tuple(sorted((s for patch in battlemap.terrain if patch.kind is
                            TerrainKind.IMPASSABLE for s in patch.squares if s in landing),
                           key=lambda s: (s.y, s.x)))
    return Obstruction(here, there, size, walls, tuple(p.id for p in portals), cover, terrain,
                       windows_only=bool(portals) and all(p.kind is PortalKind.WINDOW
                                                          for p in portals))


def save_bonus(found: Obstruction, typed: int | None = None) -> int:
    return typed if typed is not None else save_bonuses()[found.kind]


def broken(battlemap: BattleMap, found: Obstruction) -> BattleMap:
    """The map after the opponent smashed through ``found``."""
    gap = _gap(found)
    walls: list[Wall] = []
    for index, wall in enumerate(battlemap.walls):
        if index not in found.walls:
            walls.append(wall)
            continue
        walls.extend(_pieces(wall, gap))
    gone = set(found.terrain)
    terrain = tuple(replace(p, squares=p.squares - gone) if p.kind is TerrainKind.IMPASSABLE
                    else p for p in battlemap.terrain)
    return replace(
        battlemap,
        walls=tuple(walls),
        portals=tuple(p for p in battlemap.portals if p.id not in found.portals),
        cover=tuple(c for c in battlemap.cover if c.id not in found.cover),
        terrain=tuple(p for p in terrain if p.squares),
    )


def _gap(found: Obstruction) -> Polygon:
    squares = [*squares_of_footprint(found.here, found.size),
               *squares_of_footprint(found.there, found.size)]
    return box(min(s.x for s in squares), min(s.y for s in squares),
               max(s.x for s in squares) + 1, max(s.y for s in squares) + 1)


def _pieces(wall: Wall, gap: Polygon) -> list[Wall]:
    """What is left of a wall once the part inside ``gap`` is broken away."""
    left = LineString([wall.start, wall.end]).difference(gap)
    lines = list(left.geoms) if isinstance(left, MultiLineString) else [left]
    pieces = []
    for line in lines:
        if not isinstance(line, LineString) or line.is_empty or shapely.length(line) < 1e-9:
            continue
        (x1, y1), (x2, y2) = line.coords[0], line.coords[-1]
        pieces.append(replace(wall, start=(float(x1), float(y1)), end=(float(x2), float(y2))))
    return pieces
