"""desktop.shapes: Shapely geometry in square units becomes a QPainterPath in scene units."""

from __future__ import annotations

import shapely
from PySide6.QtCore import QPointF, QRectF

from desktop.scene.style import SQUARE
from desktop.shapes import is_geometry, to_painter_path


def test_a_polygon_scales_to_scene_units() -> None:
    path = to_painter_path(shapely.box(1, 2, 3, 5))
    assert path.boundingRect() == QRectF(1 * SQUARE, 2 * SQUARE, 2 * SQUARE, 3 * SQUARE)
    assert path.contains(QPointF(2 * SQUARE, 3 * SQUARE))


def test_holes_stay_empty() -> None:
    ring = shapely.box(0, 0, 4, 4).difference(shapely.box(1, 1, 3, 3))
    path = to_painter_path(ring)
    assert path.contains(QPointF(0.5 * SQUARE, 0.5 * SQUARE))
    assert not path.contains(QPointF(2 * SQUARE, 2 * SQUARE))


def test_multipart_and_lines_and_points() -> None:
    collection = shapely.GeometryCollection(
        [
            shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(5, 5, 6, 6)]),
            shapely.LineString([(0, 3), (2, 3)]),
            shapely.Point(8, 8),
        ]
    )
    path = to_painter_path(collection)
    bounds = path.boundingRect()
    assert bounds.left() == 0 and bounds.top() == 0
    assert bounds.right() >= 8 * SQUARE
    assert path.contains(QPointF(5.5 * SQUARE, 5.5 * SQUARE))


def test_empty_geometry_gives_an_empty_path() -> None:
    assert to_painter_path(shapely.Polygon()).isEmpty()
    assert is_geometry(shapely.Point(0, 0))
    assert not is_geometry((0, 0))
