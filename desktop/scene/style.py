"""Colours, sizes and fonts of the map, in one place so the look stays consistent.

Scene coordinates are square units times ``SQUARE`` (one square is 64 scene units),
so a square-unit point (x, y) sits at (x * SQUARE, y * SQUARE) in the scene.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QFont

from engine.battlemap import CoverGrade, PortalKind, PortalState, TerrainKind
from engine.grid import Point
from engine.tokens import Side

SQUARE = 64.0

# Z order: later layers draw on top.
Z_BACKGROUND = 0.0
Z_TERRAIN = 10.0
Z_GRID = 20.0
Z_COVER = 30.0
Z_WALLS = 40.0
Z_PORTALS = 45.0
Z_FOG = 50.0
Z_OVERLAY_BELOW_TOKENS = 60.0
Z_TOKENS = 70.0
Z_OVERLAY = 80.0
Z_LABELS = 90.0

FLOOR = QColor("#3b3f45")
GRID_LINE = QColor(0, 0, 0, 70)
GRID_LINE_MAJOR = QColor(0, 0, 0, 110)

WALL = QColor("#101215")
WALL_EDGE = QColor("#e8e2d0")
WALL_SIGHT_ONLY = QColor("#7c5fc7")  # curtains, smoke screens: block sight, not feet
WALL_MOVE_ONLY = QColor("#a8b3bd")  # fences, railings: block feet, not sight

DOOR = QColor("#9a6a3a")
DOOR_LOCKED = QColor("#c0392b")
WINDOW = QColor("#7fd3ff")

SIDE_COLOURS: dict[Side, QColor] = {
    Side.PARTY: QColor("#3d8bfd"),
    Side.ALLY: QColor("#2fbf71"),
    Side.ENEMY: QColor("#e5484d"),
    Side.NEUTRAL: QColor("#e2b93b"),
}

COVER_FILL: dict[CoverGrade, QColor] = {
    CoverGrade.LIGHT: QColor(120, 190, 120, 80),
    CoverGrade.HALF: QColor(230, 180, 60, 95),
    CoverGrade.THREE_QUARTERS: QColor(235, 120, 50, 110),
    CoverGrade.TOTAL: QColor(60, 60, 70, 170),
}
COVER_LABEL: dict[CoverGrade, str] = {
    CoverGrade.LIGHT: "¼",
    CoverGrade.HALF: "½",
    CoverGrade.THREE_QUARTERS: "¾",
    CoverGrade.TOTAL: "■",
}

TERRAIN_FILL: dict[TerrainKind, QColor] = {
    TerrainKind.DIFFICULT: QColor(240, 170, 40, 70),
    TerrainKind.IMPASSABLE: QColor(200, 30, 30, 90),
}

ROUTE_OK = QColor("#3ddc84")
#: A drag's squares past the ordinary move, within what it may spend (a double move, a run).
ROUTE_LONG = QColor("#ffb02e")
#: Past that, within a third band (a triple move): the GM sees where the double ends.
ROUTE_LONGEST = QColor("#c77dff")
#: The ring round the token whose turn it is.
ACTING = QColor("#ffd54a")
#: The cross over a token out of the fight (its system's down condition).
DOWN_MARK = QColor("#e5484d")
ROUTE_BAD = QColor("#ff4d4f")
SIGHT_FILL = QColor(255, 255, 200, 40)
FOG = QColor(8, 10, 14, 235)


def portal_colour(kind: PortalKind, state: PortalState) -> QColor:
    if kind is PortalKind.WINDOW:
        return WINDOW
    return DOOR_LOCKED if state is PortalState.LOCKED else DOOR


def scene_point(point: Point) -> QPointF:
    """A point in square units as a scene point."""
    return QPointF(point[0] * SQUARE, point[1] * SQUARE)


def label_font(pixel_size: float, bold: bool = True) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(pixel_size)))
    font.setBold(bold)
    return font
