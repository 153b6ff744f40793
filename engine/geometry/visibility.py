"""What a point or a token sees: the visibility polygon and the squares inside it.

The polygon is exact for straight walls: rays go to every wall end within the radius (and
a hair either side of it, to slip past corners) and to points around the circle, each ray
stops at the nearest thing that blocks sight, and the stops, taken in angle order, outline
the region. The region is clipped to the map.

A token sees a square when, by the line-of-sight rule of ``engine.geometry.los``, some
corner of one of its squares sees some corner of that square: that is, when a corner of
the square lies in the region seen from one of the token's sight corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from engine.battlemap import BattleMap
from engine.geometry._index import sight_index
from engine.geometry._march import first_hits
from engine.geometry.los import check_square, sight_corners
from engine.grid import Point, Square
from engine.tokens import Token

#: Angle either side of a wall end at which extra rays pass it, in radians.
_SLIP = 1e-7
#: Rays around the circle, so that arcs of the radius come out round.
_ARC_RAYS = 180


def visibility_polygon(battlemap: BattleMap, origin: Point, radius: float) -> shapely.Polygon:
    """The region seen from ``origin`` within ``radius`` squares, clipped to the map."""
    if not (np.isfinite(radius) and radius > 0):
        raise ValueError(f"vision radius must be a positive number of squares, not {radius}")
    ox, oy = float(origin[0]), float(origin[1])
    if not (0 <= ox <= battlemap.width and 0 <= oy <= battlemap.height):
        raise ValueError(f"viewpoint {origin} lies outside the map")
    index = sight_index(battlemap)
    disc_box = shapely.box(ox - radius, oy - radius, ox + radius, oy + radius)
    near = index.tree.query(disc_box)
    ends = index.segments[near].reshape(-1, 2)
    dx, dy = ends[:, 0] - ox, ends[:, 1] - oy
    inside = (dx * dx + dy * dy <= radius * radius) & ((dx != 0) | (dy != 0))
    wall_angles = np.arctan2(dy[inside], dx[inside])
    angles = np.concatenate(
        [
            wall_angles - _SLIP,
            wall_angles,
            wall_angles + _SLIP,
            np.linspace(-np.pi, np.pi, _ARC_RAYS, endpoint=False),
        ]
    )
    angles = np.unique(angles)
    far = np.column_stack([ox + radius * np.cos(angles), oy + radius * np.sin(angles)])
    starts = np.broadcast_to(np.array([ox, oy]), far.shape)
    t, _ = first_hits(index.grid, np.ascontiguousarray(starts), far, nearest=True)
    t = np.where(np.isfinite(t), t, 1.0)[:, None]
    outline = starts + (far - starts) * t
    polygon = shapely.make_valid(shapely.Polygon(outline))
    return shapely.intersection(polygon, index.bounds)


@dataclass(frozen=True)
class VisibleSquares:
    """What a token sees: the union of the regions seen from its sight corners, and squares."""

    shape: shapely.Geometry
    squares: frozenset[Square]


def visible_squares(battlemap: BattleMap, token: Token, radius: float) -> VisibleSquares:
    """The squares ``token`` sees whose centres lie within ``radius`` squares of its centre."""
    for square in token.squares:
        check_square(battlemap, square, f"token {token.id!r} square")
    corners = sight_corners(_outer_squares(token))
    reach = radius + token.size / 2 + 1.5  # corners of squares at the edge of the radius
    regions = [visibility_polygon(battlemap, (x, y), reach) for x, y in corners]
    shape = shapely.union_all(regions)
    centre_x = token.square.x + token.size / 2
    centre_y = token.square.y + token.size / 2
    lo_x = max(0, int(np.floor(centre_x - radius)))
    hi_x = min(battlemap.width - 1, int(np.ceil(centre_x + radius)))
    lo_y = max(0, int(np.floor(centre_y - radius)))
    hi_y = min(battlemap.height - 1, int(np.ceil(centre_y + radius)))
    grid_x, grid_y = np.meshgrid(np.arange(lo_x, hi_x + 1), np.arange(lo_y, hi_y + 1))
    xs, ys = grid_x.ravel(), grid_y.ravel()
    within = (xs + 0.5 - centre_x) ** 2 + (ys + 0.5 - centre_y) ** 2 <= radius * radius
    xs, ys = xs[within], ys[within]
    corners_x = (xs[:, None] + _INSET_X).ravel()
    corners_y = (ys[:, None] + _INSET_Y).ravel()
    shapely.prepare(shape)
    seen = shapely.intersects_xy(shape, corners_x, corners_y).reshape(-1, 4).any(axis=1)
    seen_squares = frozenset(
        Square(int(x), int(y)) for x, y in zip(xs[seen], ys[seen], strict=True)
    )
    return VisibleSquares(shape, seen_squares | frozenset(token.squares))


_CORNERS = sight_corners([Square(0, 0)])
_INSET_X = _CORNERS[:, 0]
_INSET_Y = _CORNERS[:, 1]


def _outer_squares(token: Token) -> list[Square]:
    """The squares of a token on its rim; inner squares see nothing the rim does not."""
    last = token.size - 1
    return [
        s
        for s in token.squares
        if s.x in (token.square.x, token.square.x + last)
        or s.y in (token.square.y, token.square.y + last)
    ]
