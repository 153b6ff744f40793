"""Where a click lands on the grid: square corners, edge midpoints, squares, hit tests.

These are drawing questions (which corner is nearest the mouse), not rules.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF

from desktop.scene.style import SQUARE
from engine.grid import Point, Square


def to_point(scene_pos: QPointF) -> Point:
    """A scene position in square units."""
    return (scene_pos.x() / SQUARE, scene_pos.y() / SQUARE)


def snap(scene_pos: QPointF, fine: bool = False) -> Point:
    """The nearest grid corner, or with ``fine`` the nearest corner or edge midpoint."""
    step = 0.5 if fine else 1.0
    x, y = to_point(scene_pos)
    return (round(x / step) * step, round(y / step) * step)


def square_at(scene_pos: QPointF) -> Square:
    x, y = to_point(scene_pos)
    return Square(math.floor(x), math.floor(y))


def squares_between(a: Square, b: Square) -> frozenset[Square]:
    """Every square of the rectangle with corners ``a`` and ``b``."""
    return frozenset(
        Square(x, y)
        for x in range(min(a.x, b.x), max(a.x, b.x) + 1)
        for y in range(min(a.y, b.y), max(a.y, b.y) + 1)
    )


def distance_to_segment(point: Point, start: Point, end: Point) -> float:
    """How far a point is from a segment, in square units."""
    (px, py), (ax, ay), (bx, by) = point, start, end
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))
