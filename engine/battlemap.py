"""The battle map: bounds, walls, doors and windows, terrain, cover objects, lights, picture.

Every coordinate is in square units (see ``engine.grid``): a wall from (3, 0) to (3, 5)
runs along the left edge of column 3.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from engine.grid import Point, Square

_HEX_DIGITS = frozenset("0123456789abcdef")


def rgba_colour(text: str) -> str:
    """A colour as the model keeps it: CSS ``#rrggbbaa`` (``#rrggbb`` gains an opaque alpha).

    One convention everywhere in the model; readers and writers of other conventions (the
    Universal VTT ``AARRGGBB``) convert at the file's edge.
    """
    digits = text.strip().removeprefix("#").lower() if isinstance(text, str) else ""
    if len(digits) not in (6, 8) or not set(digits) <= _HEX_DIGITS:
        raise ValueError(f"a colour must be '#rrggbb' or '#rrggbbaa' in hex, not {text!r}"[:120])
    return "#" + (digits + "ff" if len(digits) == 6 else digits)


def _check_point(point: Point, what: str) -> None:
    if len(point) != 2 or not all(math.isfinite(v) for v in point):
        raise ValueError(f"{what} must be two finite numbers, not {point!r}")


@dataclass(frozen=True, slots=True)
class Wall:
    """A straight wall segment. Most walls block both; a curtain blocks sight only."""

    start: Point
    end: Point
    blocks_sight: bool = True
    blocks_movement: bool = True

    def __post_init__(self) -> None:
        _check_point(self.start, "wall start")
        _check_point(self.end, "wall end")
        if self.start == self.end:
            raise ValueError(f"wall from {self.start} to itself has no length")


class PortalKind(StrEnum):
    DOOR = "door"
    WINDOW = "window"


class PortalState(StrEnum):
    OPEN = "open"
    CLOSED = "closed"
    LOCKED = "locked"


@dataclass(frozen=True, slots=True)
class Portal:
    """A door or window in a wall, as a segment.

    A door blocks sight and movement unless open. A window never blocks sight and
    always blocks movement (climbing through is not a move, whatever its state).
    """

    id: str
    start: Point
    end: Point
    kind: PortalKind = PortalKind.DOOR
    state: PortalState = PortalState.CLOSED

    def __post_init__(self) -> None:
        _check_point(self.start, f"portal {self.id!r} start")
        _check_point(self.end, f"portal {self.id!r} end")

    @property
    def label(self) -> str:
        """The door or window in words people read, by the squares on either side of its
        middle: ``door between (11,3) and (12,3)`` (its id is for files, not for the log)."""
        (x1, y1), (x2, y2) = self.start, self.end
        mx, my = math.floor((x1 + x2) / 2), math.floor((y1 + y2) / 2)
        if x1 == x2:  # in a wall running north-south: the squares west and east of it
            return f"{self.kind.value} between ({mx - 1},{my}) and ({mx},{my})"
        if y1 == y2:  # in a wall running east-west: the squares north and south of it
            return f"{self.kind.value} between ({mx},{my - 1}) and ({mx},{my})"
        return f"{self.kind.value} at ({mx},{my})"

    @property
    def blocks_sight(self) -> bool:
        return self.kind is PortalKind.DOOR and self.state is not PortalState.OPEN

    @property
    def blocks_movement(self) -> bool:
        return self.kind is PortalKind.WINDOW or self.state is not PortalState.OPEN


class TerrainKind(StrEnum):
    DIFFICULT = "difficult"  # costs double to enter
    IMPASSABLE = "impassable"


@dataclass(frozen=True, slots=True)
class TerrainPatch:
    """A named set of squares with one kind of terrain (a stair, rubble, a pit)."""

    name: str
    kind: TerrainKind
    squares: frozenset[Square]


class CoverGrade(StrEnum):
    """How much an object shields whoever crouches behind it (the usual four grades: a
    system's cover table says what each is worth)."""

    LIGHT = "light"  # one quarter
    HALF = "half"
    THREE_QUARTERS = "three_quarters"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class CoverObject:
    """A crate, car or low wall: a polygon outline in square units with a cover grade.

    ``blocks_sight`` is for objects taller than a standing person (a stack of crates);
    a low object gives cover without hiding what stands beyond it.
    """

    id: str
    name: str
    outline: tuple[Point, ...]
    grade: CoverGrade = CoverGrade.HALF
    height_ft: float = 3.0
    blocks_sight: bool = False
    blocks_movement: bool = True

    def __post_init__(self) -> None:
        if len(self.outline) < 3:
            raise ValueError(f"cover object {self.id!r} needs at least 3 outline points")
        for point in self.outline:
            _check_point(point, f"cover object {self.id!r} outline point")


@dataclass(frozen=True, slots=True)
class Light:
    """A light source, drawn on the GM's map. None of the four rule texts ties sight or
    attacks to light, so no rule reads it.

    ``colour`` is CSS ``#rrggbbaa`` (see :func:`rgba_colour`).
    """

    position: Point
    range: float = 6.0
    colour: str = "#ffffffff"
    intensity: float = 1.0

    def __post_init__(self) -> None:
        _check_point(self.position, "light position")
        object.__setattr__(self, "colour", rgba_colour(self.colour))


@dataclass(frozen=True, slots=True)
class Background:
    """The map picture: an image entry of the encounter file, and its grid.

    ``pixels_per_square`` may be fractional (a scan at 70.4 px a square);
    ``offset_x``/``offset_y`` are where, in picture pixels, the map's top-left grid corner
    lies (negative: the picture starts inside the first square). Picture pixel (px, py) is
    the map point ((px - offset_x) / pixels_per_square, (py - offset_y) / pixels_per_square).
    """

    image: str
    pixels_per_square: float = 64.0
    offset_x: float = 0.0
    offset_y: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.pixels_per_square) and self.pixels_per_square > 0):
            raise ValueError(
                f"pixels per square must be a positive number, not {self.pixels_per_square}"
            )
        if not (math.isfinite(self.offset_x) and math.isfinite(self.offset_y)):
            raise ValueError("the picture's grid offset must be finite numbers")


@dataclass(frozen=True, slots=True)
class BattleMap:
    """Everything static about the place where the fight happens."""

    width: int
    height: int
    walls: tuple[Wall, ...] = ()
    portals: tuple[Portal, ...] = ()
    terrain: tuple[TerrainPatch, ...] = ()
    cover: tuple[CoverObject, ...] = ()
    lights: tuple[Light, ...] = ()
    background: Background | None = None

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"map size must be positive, not {self.width}x{self.height}")
        # Counted once (list.count per id was quadratic: 15,000 ids took 10 s).
        ids = Counter([p.id for p in self.portals] + [c.id for c in self.cover])
        duplicates = sorted(i for i, n in ids.items() if n > 1)
        if duplicates:
            raise ValueError(f"duplicate portal or cover ids: {', '.join(duplicates)}")

    def in_bounds(self, square: Square) -> bool:
        return 0 <= square.x < self.width and 0 <= square.y < self.height

    def squares(self) -> Iterator[Square]:
        for y in range(self.height):
            for x in range(self.width):
                yield Square(x, y)

    def terrain_at(self, square: Square) -> TerrainKind | None:
        return _terrain_index(self.terrain).get(square)

    def portal(self, portal_id: str) -> Portal:
        for portal in self.portals:
            if portal.id == portal_id:
                return portal
        raise KeyError(f"no door or window {portal_id!r} on this map")

    def with_portal_state(self, portal_id: str, state: PortalState) -> BattleMap:
        """A copy of the map with one door opened, closed or locked."""
        self.portal(portal_id)
        portals = tuple(replace(p, state=state) if p.id == portal_id else p for p in self.portals)
        return replace(self, portals=portals)


@lru_cache(maxsize=64)
def _terrain_index(terrain: tuple[TerrainPatch, ...]) -> dict[Square, TerrainKind]:
    index: dict[Square, TerrainKind] = {}
    for patch in terrain:
        for square in patch.squares:
            # Impassable wins where patches overlap.
            if index.get(square) is not TerrainKind.IMPASSABLE:
                index[square] = patch.kind
    return index
