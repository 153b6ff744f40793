"""The player view's fog: darkness over the map except where the party sees.

The lit regions are the engine's visibility polygons (one ring per sight corner of each
party token), filled out of a fog picture of the map: Qt's scan converter unites them as it
fills, so no polygon union is worked out. Each token's path is made once per answer, written
straight into Qt's point buffers (no Python object per point). When only some tokens'
answers change, only the part of the picture their old and new regions cover is filled
again, and only the tiles of it whose pixels changed are repainted on screen.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import shiboken6
from numpy.typing import NDArray
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from desktop.scene import style
from desktop.scene.style import SQUARE
from engine.fog import ManualFog
from engine.grid import Square

#: Longest side of the fog picture, in pixels (a 200x200 map gets 4 pixels a square).
FOG_PICTURE_SIDE = 800
#: The side, in picture pixels, of the tiles repainted on screen when their pixels change.
DIRTY_TILE = 16


def ring_path(outlines: tuple[NDArray[np.float64], NDArray[np.float64], Any]) -> QPainterPath:
    """A token's visibility regions (map squares) as one winding-fill path, one closed ring
    per sight corner (``VisibleSquares.outlines``: all x, all y, and each ring's count)."""
    xs, ys, counts = outlines
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    start = 0
    for count in counts.tolist():
        polygon = QPolygonF()
        polygon.resize(count)
        if count:
            points = _point_buffer(polygon, count)
            points[:, 0] = xs[start : start + count]
            points[:, 1] = ys[start : start + count]
        path.addPolygon(polygon)
        path.closeSubpath()
        start += count
    return path


def _point_buffer(polygon: QPolygonF, count: int) -> NDArray[np.float64]:
    """The polygon's points as a (count, 2) array over its own storage (QPointF is two
    doubles, stored one after the other)."""
    address = shiboken6.getCppPointer(polygon.data())[0]
    memory = memoryview((ctypes.c_double * (2 * count)).from_address(address))
    return np.frombuffer(memory, dtype=np.float64).reshape(count, 2)


def squares_path(squares: frozenset[Square]) -> QPainterPath:
    """One path of unit squares (map squares), filled as their union."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for square in sorted(squares):
        path.addRect(QRectF(square.x, square.y, 1, 1))
    return path


class FogItem(QGraphicsItem):
    """The fog picture of the map, drawn scaled and smoothed over it (a soft edge).

    It keeps, per picture pixel, how many party tokens' regions cover it; a token whose
    answer changed takes its old region off the count and puts its new one on, so the
    other tokens' paths are not filled again.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(style.Z_FOG)
        self._image = QImage()
        self._scratch = QImage()
        self._rect = QRectF()
        self._map = (0, 0)
        #: Each party token's answer (by id) and its path.
        self._paths: dict[int, tuple[object, QPainterPath]] = {}
        #: How many of the paths cover each pixel of the picture.
        self._cover: NDArray[np.uint16] = np.zeros((0, 0), dtype=np.uint16)
        #: Whether the party's sight is known (None views: no sight fog, only the GM's).
        self._sight_known = False
        self._by_hand: ManualFog | None = None
        self._revealed: NDArray[np.bool_] | None = None
        self._hidden: NDArray[np.bool_] | None = None

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self._image.isNull():
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(self._rect, self._image)

    def set_lit(
        self, width: int, height: int, views: tuple[Any, ...] | None, by_hand: ManualFog
    ) -> None:
        """Fog the width x height map except the regions ``views`` (the party tokens'
        ``VisibleSquares``; None: the whole map) see, then the GM's hand-set fog over it
        (squares revealed cleared, squares hidden fogged)."""
        paths: dict[int, tuple[object, QPainterPath]] = {}
        for view in views or ():
            known = self._paths.get(id(view))
            if known is None or known[0] is not view:
                known = (view, ring_path(view.outlines))
            paths[id(view)] = known
        gone = [p for k, (v, p) in self._paths.items() if paths.get(k, (None,))[0] is not v]
        came = [p for k, (v, p) in paths.items() if self._paths.get(k, (None,))[0] is not v]
        self._paths = paths
        scale = FOG_PICTURE_SIDE / max(width, height, 1)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        if (
            self._image.size().toTuple() != size
            or self._map != (width, height)
            or self._sight_known != (views is not None)
            or self._by_hand != by_hand
        ):
            self._redraw(width, height, size, views is not None, by_hand)
            return
        area = self._bounds(gone + came)
        if area.isEmpty():
            return  # nobody in the party moved, the map and the hand fog are the same
        cover = self._cover[_rows(area), _columns(area)]
        for path in gone:
            cover -= self._mask(path, area)
        for path in came:
            cover += self._mask(path, area)
        sx, sy = size[0] / width, size[1] / height
        for tile in self._compose(area):
            # One picture pixel around: the smoothed drawing blends each with its neighbours.
            self.update(
                QRectF(
                    (tile.x() - 1) / sx * SQUARE,
                    (tile.y() - 1) / sy * SQUARE,
                    (tile.width() + 2) / sx * SQUARE,
                    (tile.height() + 2) / sy * SQUARE,
                )
            )

    def _redraw(
        self, width: int, height: int, size: tuple[int, int], sight_known: bool, by_hand: ManualFog
    ) -> None:
        """The whole picture afresh: a new map, picture size or hand-set fog."""
        self._map, self._sight_known = (width, height), sight_known
        if self._image.size().toTuple() != size:
            self._image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
            self._scratch = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
        whole = QRect(0, 0, *size)
        self._cover = np.zeros((size[1], size[0]), dtype=np.uint16)
        for _view, path in self._paths.values():
            self._cover += self._mask(path, whole)
        self._by_hand = by_hand
        self._revealed = (
            self._mask(squares_path(by_hand.revealed), whole) if by_hand.revealed else None
        )
        self._hidden = self._mask(squares_path(by_hand.hidden), whole) if by_hand.hidden else None
        self._compose(whole)
        rect = QRectF(0, 0, width * SQUARE, height * SQUARE)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
        self.update()

    def _bounds(self, paths: list[QPainterPath]) -> QRect:
        """The picture's pixels the paths may cover (empty for no paths)."""
        width, height = self._map
        sx, sy = self._image.width() / width, self._image.height() / height
        bounds = QRectF()
        for path in paths:
            bounds = bounds.united(path.boundingRect())
        if bounds.isNull():
            return QRect()
        return (
            QRectF(bounds.x() * sx, bounds.y() * sy, bounds.width() * sx, bounds.height() * sy)
            .toAlignedRect()
            .adjusted(-1, -1, 1, 1)
            .intersected(self._image.rect())
        )

    def _mask(self, path: QPainterPath, area: QRect) -> NDArray[np.bool_]:
        """Which pixels of ``area`` the path (map squares) covers, as Qt fills it."""
        width, height = self._map
        scratch = self._scratch
        painter = QPainter(scratch)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        painter.fillRect(area, Qt.GlobalColor.transparent)
        painter.setClipRect(area)
        painter.scale(scratch.width() / width, scratch.height() / height)
        painter.fillPath(path, Qt.GlobalColor.black)
        painter.end()
        covered: NDArray[np.bool_] = _pixels(scratch, area) != 0
        return covered

    def _compose(self, area: QRect) -> list[QRect]:
        """Write ``area`` of the picture from the cover counts and the hand-set fog; the
        runs of tiles whose pixels changed."""
        rows, columns = _rows(area), _columns(area)
        lit = self._cover[rows, columns] != 0
        if self._revealed is not None:
            lit |= self._revealed[rows, columns]
        fog = _premultiplied(style.FOG)
        fresh = np.where(lit, np.uint32(0), np.uint32(fog if self._sight_known else 0))
        if self._hidden is not None:
            fresh[self._hidden[rows, columns]] = fog
        pixels = _pixels(self._image, area)
        changed = _changed_tiles(pixels, fresh, area)
        pixels[...] = fresh
        return changed

    def fogged(self, point: QPointF) -> bool:
        """Whether the fog hides the scene point (more than half dark)."""
        if self._image.isNull() or not self._rect.contains(point):
            return False
        x = int(point.x() / self._rect.width() * self._image.width())
        y = int(point.y() / self._rect.height() * self._image.height())
        return self._image.pixelColor(x, y).alpha() > style.FOG.alpha() // 2

    def picture(self) -> QImage:
        """A copy of the fog picture (for tests and snapshots)."""
        return self._image.copy()


def _rows(area: QRect) -> slice:
    return slice(area.top(), area.bottom() + 1)


def _columns(area: QRect) -> slice:
    return slice(area.left(), area.right() + 1)


def _pixels(image: QImage, area: QRect) -> NDArray[np.uint32]:
    """The image's pixels in ``area``, a writable view of its memory (32-bit pixels)."""
    rows = np.frombuffer(image.bits(), dtype=np.uint32).reshape(
        image.height(), image.bytesPerLine() // 4
    )
    return rows[_rows(area), _columns(area)]


def _premultiplied(colour: QColor) -> int:
    """The colour as a premultiplied 32-bit pixel, exactly as Qt fills it."""
    pixel = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    pixel.fill(colour)
    return int(_pixels(pixel, QRect(0, 0, 1, 1))[0, 0])


def _changed_tiles(
    before: NDArray[np.uint32], after: NDArray[np.uint32], area: QRect
) -> list[QRect]:
    """The runs of DIRTY_TILE tiles (pixels of the picture) in ``area`` where ``after``
    differs from ``before``, one rectangle per run of changed tiles along a row."""
    height, width = before.shape
    rows, columns = -(-height // DIRTY_TILE), -(-width // DIRTY_TILE)
    differs = before != after
    if differs.shape != (rows * DIRTY_TILE, columns * DIRTY_TILE):
        padded = np.zeros((rows * DIRTY_TILE, columns * DIRTY_TILE), dtype=bool)
        padded[:height, :width] = differs
        differs = padded
    # Rows of tiles first, then columns: each reduction runs along contiguous memory.
    band = differs.reshape(rows, DIRTY_TILE, columns * DIRTY_TILE).any(axis=1)
    tiles = band.reshape(rows, columns, DIRTY_TILE).any(axis=2)
    marks = np.zeros((rows, columns + 2), dtype=np.int8)
    marks[:, 1:-1] = tiles
    edges = np.diff(marks, axis=1)  # 1 where a run starts, -1 just after it ends
    starts, stops = np.argwhere(edges == 1).tolist(), np.argwhere(edges == -1).tolist()
    runs = [
        QRect(
            area.left() + first * DIRTY_TILE,
            area.top() + row * DIRTY_TILE,
            (stop - first) * DIRTY_TILE,
            DIRTY_TILE,
        )
        for (row, first), (_, stop) in zip(starts, stops, strict=True)
    ]
    return runs
