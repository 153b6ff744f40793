"""Shapely geometry to QPainterPath: the only module in desktop/ that knows Shapely.

Engine geometry is in square units; paths come out in scene units (``style.SQUARE``).
"""

from __future__ import annotations

import numpy as np
import shapely
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath, QPolygonF

from desktop.scene.style import SQUARE


def _polygon(coords: np.ndarray) -> QPolygonF:
    scaled = coords[:, :2] * SQUARE
    return QPolygonF([QPointF(float(x), float(y)) for x, y in scaled])


def to_painter_path(geometry: object) -> QPainterPath:
    """Any Shapely geometry (polygons with holes, lines, points, collections) as one path.

    Polygons are filled with the odd-even rule so holes stay empty; lines become open
    subpaths; points become small circles.
    """
    path = QPainterPath()
    path.setFillRule(path.fillRule().OddEvenFill)
    _add(path, geometry)
    return path


def _add(path: QPainterPath, geometry: object) -> None:
    if geometry is None or shapely.is_empty(geometry):
        return
    if isinstance(geometry, shapely.Polygon):
        for ring in (geometry.exterior, *geometry.interiors):
            path.addPolygon(_polygon(np.asarray(ring.coords)))
            path.closeSubpath()
    elif isinstance(geometry, shapely.LineString):  # a LinearRing is one too
        coords = np.asarray(geometry.coords)
        path.moveTo(QPointF(coords[0, 0] * SQUARE, coords[0, 1] * SQUARE))
        for x, y in coords[1:, :2] * SQUARE:
            path.lineTo(QPointF(float(x), float(y)))
    elif isinstance(geometry, shapely.Point):
        path.addEllipse(QPointF(geometry.x * SQUARE, geometry.y * SQUARE), 4.0, 4.0)
    else:  # Multi* and GeometryCollection
        for part in shapely.get_parts(geometry):
            _add(path, part)


def is_geometry(value: object) -> bool:
    """True for a Shapely geometry (previews carry shapes as plain objects)."""
    return isinstance(value, shapely.Geometry)


def is_line(geometry: object) -> bool:
    """True for a line or lines (a line of sight), which have no inside to fill."""
    return isinstance(geometry, shapely.LineString | shapely.MultiLineString)
