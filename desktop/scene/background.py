"""The static layers of a map, painted as the scene background: floor or picture, terrain,
grid and walls.

They never change during play, so the view caches them (QGraphicsView.CacheBackground)
and a token drag repaints only tokens and overlays. Every layer paints only the part of
the map inside the exposed rectangle, which keeps a 200x200 map as cheap as a small one.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
)

from desktop.scene import style
from desktop.scene.detail import pixels_per_square, shows_details
from desktop.scene.square_outline import squares_path
from desktop.scene.style import SQUARE, scene_point
from engine.battlemap import BattleMap, TerrainKind, TerrainPatch, Wall
from engine.grid import Square

#: Walls are grouped into tiles of this many squares, so a repaint visits only nearby walls.
WALL_TILE = 12

#: Grid lines closer than this many screen pixels are left out: a grid that dense is noise
#: (Foundry and MapTool fade it out too), and drawing it made zooming out over a big map slow.
#: The lines every fifth square stay while they are this far apart.
GRID_MIN_PIXELS_APART = 6.0


class _Terrain:
    def __init__(self, patch: TerrainPatch) -> None:
        self.patch = patch
        self.path = squares_path(patch.squares)
        first = min(patch.squares, key=lambda sq: (sq.y, sq.x)) if patch.squares else Square(0, 0)
        self.caption = f"{patch.name} · {patch.kind.value}"
        width = QFontMetricsF(style.label_font(10)).horizontalAdvance(self.caption) + 8
        self.caption_rect = QRectF(first.x * SQUARE + 3, first.y * SQUARE + 3, width, 15)
        self.bounds = self.path.boundingRect().united(self.caption_rect)

    def paint(self, painter: QPainter) -> None:
        """Amber hatching for difficult ground, red cross-hatching for impassable, a caption."""
        if not self.patch.squares:
            return
        fill = style.TERRAIN_FILL[self.patch.kind]
        edge = QColor(fill)
        edge.setAlpha(200)
        painter.setPen(QPen(edge, 2, Qt.PenStyle.DashLine))
        painter.setBrush(fill)
        painter.drawPath(self.path)
        hatch = QColor(fill)
        hatch.setAlpha(150)
        pattern = (
            Qt.BrushStyle.DiagCrossPattern
            if self.patch.kind is TerrainKind.IMPASSABLE
            else Qt.BrushStyle.BDiagPattern
        )
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(hatch, pattern))
        painter.drawPath(self.path)
        painter.setBrush(QColor(15, 17, 20, 190))
        painter.drawRoundedRect(self.caption_rect, 3, 3)
        text = QColor(fill)
        text.setAlpha(255)
        painter.setPen(text.lighter(140))
        painter.setFont(style.label_font(10))
        painter.drawText(self.caption_rect, Qt.AlignmentFlag.AlignCenter, self.caption)


class _WallTile:
    """The walls whose midpoints fall in one tile, as three paths by what they block."""

    def __init__(self, walls: list[Wall]) -> None:
        self.solid = QPainterPath()
        self.sight_only = QPainterPath()
        self.move_only = QPainterPath()
        for wall in walls:
            if wall.blocks_sight and wall.blocks_movement:
                target = self.solid
            elif wall.blocks_sight:
                target = self.sight_only
            else:
                target = self.move_only
            target.moveTo(scene_point(wall.start))
            target.lineTo(scene_point(wall.end))
        self.bounds = (
            self.solid.boundingRect()
            .united(self.sight_only.boundingRect())
            .united(self.move_only.boundingRect())
            .adjusted(-8, -8, 8, 8)
        )

    def paint(self, painter: QPainter) -> None:
        """A pale edge under a dark core; dashed violet for sight-only, dotted for feet-only."""
        cap, join = Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(style.WALL_EDGE, 11, Qt.PenStyle.SolidLine, cap, join))
        painter.drawPath(self.solid)
        painter.setPen(QPen(style.WALL, 7, Qt.PenStyle.SolidLine, cap, join))
        painter.drawPath(self.solid)
        painter.setPen(QPen(style.WALL_SIGHT_ONLY, 6, Qt.PenStyle.DashLine, cap, join))
        painter.drawPath(self.sight_only)
        painter.setPen(QPen(style.WALL_MOVE_ONLY, 5, Qt.PenStyle.DotLine, cap, join))
        painter.drawPath(self.move_only)


class MapBackground:
    """Paints the static layers of one map into any rectangle of the scene."""

    def __init__(self, battlemap: BattleMap, picture: QImage | None = None) -> None:
        self.width = battlemap.width
        self.height = battlemap.height
        self.rect = QRectF(0, 0, self.width * SQUARE, self.height * SQUARE)
        self.picture = QPixmap.fromImage(picture) if picture is not None else None
        #: Where the picture lies: its pixels a square and the grid's offset in its pixels.
        self.grid = battlemap.background
        self.terrain = [_Terrain(patch) for patch in battlemap.terrain]
        tiles: dict[tuple[int, int], list[Wall]] = {}
        for wall in battlemap.walls:
            mid_x = (wall.start[0] + wall.end[0]) / 2
            mid_y = (wall.start[1] + wall.end[1]) / 2
            tiles.setdefault((int(mid_x // WALL_TILE), int(mid_y // WALL_TILE)), []).append(wall)
        self.wall_tiles = [_WallTile(walls) for _key, walls in sorted(tiles.items())]

    def paint(self, painter: QPainter, exposed: QRectF) -> None:
        area = exposed.intersected(self.rect.adjusted(-16, -16, 16, 16))
        if area.isEmpty():
            return
        painter.save()
        self._paint_floor(painter, exposed.intersected(self.rect))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for terrain in self.terrain:
            if terrain.bounds.intersects(area):
                terrain.paint(painter)
        self._paint_grid(painter, exposed.intersected(self.rect))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        tiles = [tile for tile in self.wall_tiles if tile.bounds.intersects(area)]
        if shows_details(painter):
            for tile in tiles:
                tile.paint(painter)
        else:
            self._paint_walls_simply(painter, tiles)
        painter.restore()

    @staticmethod
    def _paint_walls_simply(painter: QPainter, tiles: list[_WallTile]) -> None:
        """Zoomed far out: one thin line a wall, in the colour of what it blocks (solid walls
        in the pale edge colour, which reads on the floor and on pictures alike).

        The full strokes would be under a pixel wide there; wide rounded antialiased
        strokes of thousands of walls were most of the cost of a zoom step. One pen per
        kind of wall for all tiles, as hundreds of tiles are in view.
        """
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        kinds = (
            (style.WALL_EDGE, [tile.solid for tile in tiles]),
            (style.WALL_SIGHT_ONLY, [tile.sight_only for tile in tiles]),
            (style.WALL_MOVE_ONLY, [tile.move_only for tile in tiles]),
        )
        for colour, paths in kinds:
            painter.setPen(QPen(colour, 0))  # cosmetic: one device pixel at any zoom
            for path in paths:
                if not path.isEmpty():
                    painter.drawPath(path)

    def _paint_floor(self, painter: QPainter, area: QRectF) -> None:
        if area.isEmpty():
            return
        if self.picture is None or self.picture.isNull():
            painter.fillRect(area, style.FLOOR)
            return
        # Draw just the part of the picture under the exposed area, placed by its grid.
        if self.grid is None:
            scale, left, top = self.picture.width() / self.rect.width(), 0.0, 0.0
        else:
            scale = self.grid.pixels_per_square / SQUARE
            left, top = self.grid.offset_x, self.grid.offset_y
            painter.fillRect(area, style.FLOOR)  # under any part the picture does not reach
        source = QRectF(
            left + area.x() * scale, top + area.y() * scale,
            area.width() * scale, area.height() * scale,
        )
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        painter.drawPixmap(area, self.picture, source)

    def _paint_grid(self, painter: QPainter, area: QRectF) -> None:
        if area.isEmpty():
            return
        spacing = pixels_per_square(painter)
        if spacing * 5 < GRID_MIN_PIXELS_APART:
            return
        with_minor = spacing >= GRID_MIN_PIXELS_APART
        x0 = max(0, math.floor(area.left() / SQUARE))
        x1 = min(self.width, math.ceil(area.right() / SQUARE))
        y0 = max(0, math.floor(area.top() / SQUARE))
        y1 = min(self.height, math.ceil(area.bottom() / SQUARE))
        minor: list[QLineF] = []
        major: list[QLineF] = []
        for x in range(x0, x1 + 1):
            if x % 5 == 0 or with_minor:
                (major if x % 5 == 0 else minor).append(
                    QLineF(x * SQUARE, y0 * SQUARE, x * SQUARE, y1 * SQUARE)
                )
        for y in range(y0, y1 + 1):
            if y % 5 == 0 or with_minor:
                (major if y % 5 == 0 else minor).append(
                    QLineF(x0 * SQUARE, y * SQUARE, x1 * SQUARE, y * SQUARE)
                )
        # Axis-aligned hairlines: antialiasing only blurs them and costs time.
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(QPen(style.GRID_LINE, 0))  # cosmetic: one device pixel at any zoom
        painter.drawLines(minor)
        painter.setPen(QPen(style.GRID_LINE_MAJOR, 0))
        painter.drawLines(major)
