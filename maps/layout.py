"""Small helpers that turn a plan drawn in squares into walls, portals and cover objects.

Everything here is map data (engine values); the painter later reads the same values, so
the picture and the rules can never disagree about where a wall or a crate is.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from engine.battlemap import CoverGrade, CoverObject, Portal, PortalKind, PortalState, Wall
from engine.grid import Point, Square

#: Tolerance for "this point lies on that wall" in square units.
_EPS = 1e-6


def polyline(points: Sequence[Point], *, closed: bool = False) -> list[tuple[Point, Point]]:
    """The straight pieces of a polyline (a closed one also joins the last point to the first)."""
    pairs = list(itertools.pairwise(points))
    if closed:
        pairs.append((points[-1], points[0]))
    return pairs


def rectangle(x0: float, y0: float, x1: float, y1: float) -> list[tuple[Point, Point]]:
    """The four sides of an axis-aligned rectangle, clockwise from the top-left corner."""
    return polyline([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], closed=True)


def _along(start: Point, end: Point, point: Point) -> float | None:
    """Where ``point`` lies on the segment as a fraction 0..1, or None when it is off it."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length2 = dx * dx + dy * dy
    t = ((point[0] - start[0]) * dx + (point[1] - start[1]) * dy) / length2
    px, py = start[0] + t * dx, start[1] + t * dy
    if math.hypot(px - point[0], py - point[1]) > _EPS or t < -_EPS or t > 1 + _EPS:
        return None
    return min(max(t, 0.0), 1.0)


def walls_around(
    pieces: Iterable[tuple[Point, Point]],
    portals: Iterable[Portal] = (),
    *,
    blocks_sight: bool = True,
    blocks_movement: bool = True,
) -> tuple[Wall, ...]:
    """Walls along ``pieces``, leaving a gap wherever a portal lies on a piece.

    A door or window is a portal *instead of* a stretch of wall, so the wall segments stop
    at its ends; this is what keeps an open door passable.
    """
    portal_list = list(portals)
    walls: list[Wall] = []
    for start, end in pieces:
        gaps: list[tuple[float, float]] = []
        for portal in portal_list:
            a, b = _along(start, end, portal.start), _along(start, end, portal.end)
            if a is not None and b is not None:
                gaps.append((min(a, b), max(a, b)))
        cursor = 0.0
        for a, b in sorted(gaps):
            if a - cursor > _EPS:
                walls.append(_wall(start, end, cursor, a, blocks_sight, blocks_movement))
            cursor = max(cursor, b)
        if 1.0 - cursor > _EPS:
            walls.append(_wall(start, end, cursor, 1.0, blocks_sight, blocks_movement))
    return tuple(walls)


def _wall(start: Point, end: Point, a: float, b: float, sight: bool, move: bool) -> Wall:
    def at(t: float) -> Point:
        return (
            round(start[0] + t * (end[0] - start[0]), 6),
            round(start[1] + t * (end[1] - start[1]), 6),
        )

    return Wall(at(a), at(b), blocks_sight=sight, blocks_movement=move)


def door(
    portal_id: str, start: Point, end: Point, state: PortalState = PortalState.CLOSED
) -> Portal:
    return Portal(portal_id, start, end, PortalKind.DOOR, state)


def window(portal_id: str, start: Point, end: Point) -> Portal:
    return Portal(portal_id, start, end, PortalKind.WINDOW, PortalState.CLOSED)


def windows_along(
    prefix: str, start: Point, end: Point, *, pane: int = 3, pillar: int = 1
) -> list[Portal]:
    """A curtain wall: window panes of ``pane`` squares between ``pillar``-square piers.

    Only axis-aligned runs whose length is whole squares are supported. The piers are left
    as ordinary wall by ``walls_around``.
    """
    length = round(math.hypot(end[0] - start[0], end[1] - start[1]))
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    portals: list[Portal] = []
    position = pillar
    while position + pane <= length - pillar:
        a = (start[0] + ux * position, start[1] + uy * position)
        b = (start[0] + ux * (position + pane), start[1] + uy * (position + pane))
        portals.append(window(f"{prefix}-{len(portals) + 1}", a, b))
        position += pane + pillar
    return portals


def box(
    cover_id: str,
    name: str,
    centre: Point,
    size: tuple[float, float],
    *,
    angle: float = 0.0,
    grade: CoverGrade = CoverGrade.HALF,
    height_ft: float = 3.0,
    blocks_sight: bool = False,
    blocks_movement: bool = True,
) -> CoverObject:
    """A rectangular cover object of ``size`` (along, across) squares, turned ``angle`` degrees.

    The outline starts at the rear-left corner and goes clockwise, so the painter can read
    the object's length, width and heading back from it (front = the ``along`` direction).
    """
    cx, cy = centre
    half_l, half_w = size[0] / 2, size[1] / 2
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    corners = [(-half_l, -half_w), (half_l, -half_w), (half_l, half_w), (-half_l, half_w)]
    outline = tuple(
        (round(cx + x * cos - y * sin, 6), round(cy + x * sin + y * cos, 6)) for x, y in corners
    )
    return CoverObject(
        cover_id, name, outline, grade=grade, height_ft=height_ft,
        blocks_sight=blocks_sight, blocks_movement=blocks_movement,
    )


def block(
    cover_id: str, name: str, x0: float, y0: float, x1: float, y1: float, **options: object
) -> CoverObject:
    """A cover object filling the axis-aligned rectangle from (x0, y0) to (x1, y1)."""
    along, across = x1 - x0, y1 - y0
    if across > along:  # keep the long side as "along" so props are drawn lengthwise
        return box(cover_id, name, ((x0 + x1) / 2, (y0 + y1) / 2), (across, along),
                   angle=90.0, **options)  # type: ignore[arg-type]
    return box(cover_id, name, ((x0 + x1) / 2, (y0 + y1) / 2), (along, across),
               **options)  # type: ignore[arg-type]


def squares(x0: int, y0: int, x1: int, y1: int) -> frozenset[Square]:
    """Every square with x0 <= x < x1 and y0 <= y < y1."""
    return frozenset(Square(x, y) for y in range(y0, y1) for x in range(x0, x1))


def glass_run(
    prefix: str,
    start: Point,
    end: Point,
    *,
    pane: int = 2,
    door_at: int | None = None,
    door_id: str | None = None,
) -> list[Portal]:
    """An all-glass partition: window panes of up to ``pane`` squares and, optionally, a
    one-square glass door ``door_at`` squares from ``start``. Axis-aligned whole squares."""
    length = round(math.hypot(end[0] - start[0], end[1] - start[1]))
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length

    def at(offset: float) -> Point:
        return (start[0] + ux * offset, start[1] + uy * offset)

    portals: list[Portal] = []
    position = 0
    while position < length:
        if door_at is not None and position == door_at:
            portals.append(door(door_id or f"glassdoor-{prefix}", at(position), at(position + 1)))
            position += 1
            continue
        stop = min(position + pane, length)
        if door_at is not None and position < door_at < stop:
            stop = door_at
        portals.append(window(f"{prefix}-{len(portals) + 1}", at(position), at(stop)))
        position = stop
    return portals
