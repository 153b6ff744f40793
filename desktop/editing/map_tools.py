"""The map tools: walls, doors and windows, terrain, cover, lights, erase and move wall points.

Each gesture becomes one engine editing command (desktop/editing/commands.py), so each is one
undo step, autosaved and saved with the file. The engine checks every edit; a refused one
leaves the map as it was and the reason goes to the status bar.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QMouseEvent, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsPathItem

from desktop.editing import commands
from desktop.editing.snapping import distance_to_segment, snap, square_at, squares_between, to_point
from desktop.scene import style
from desktop.scene.square_outline import squares_path
from desktop.scene.style import scene_point
from desktop.tools.base import Tool, ToolHost
from engine.battlemap import TerrainKind, Wall
from engine.grid import Point, Square
from engine.rules.base import Command, CommandError

#: The terrain kind set_terrain takes for plain ground again.
PLAIN_GROUND = "normal"

#: How near (in squares) a click must be to a wall, a wall end or a light to pick it.
PICK_DISTANCE = 0.3


@dataclass
class MapToolSettings:
    """What the Map toolbar's boxes say; the tools read it when they make a command."""

    wall_sight: bool = True
    wall_movement: bool = True
    portal_kind: str = "door"
    terrain_kind: str = "difficult"
    cover_grade: str = "half"
    cover_height_ft: float = 3.0
    cover_blocks_sight: bool = False
    light_range: float = 6.0


class EditTool(Tool):
    """A map tool: turns gestures into editing commands with the toolbar's settings."""

    def __init__(self, host: ToolHost, settings: MapToolSettings) -> None:
        super().__init__(host)
        self.settings = settings

    def submit(self, command: Command) -> bool:
        """Apply an edit; a refusal goes to the status bar with the engine's reason."""
        try:
            events = self.host.controller.apply(command)
        except CommandError as error:
            self.host.show_status(str(error))
            return False
        if events:
            self.host.show_status(events[-1].text)
        return True

    def _line_item(self, colour: QColor, width: float = 6.0) -> QGraphicsPathItem:
        item = QGraphicsPathItem()
        pen = QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        item.setPen(pen)
        item.setZValue(style.Z_OVERLAY)
        self.add_overlay(item)
        return item

    def _marker(self) -> QGraphicsEllipseItem:
        item = QGraphicsEllipseItem(-7, -7, 14, 14)
        item.setBrush(QColor("#ffcc33"))
        item.setPen(QPen(QColor("#101215"), 2))
        item.setZValue(style.Z_OVERLAY + 1)
        self.add_overlay(item)
        return item


def _fine(event: QMouseEvent) -> bool:
    """Ctrl snaps to edge midpoints as well as corners."""
    return bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)


def polyline_path(points: list[Point]) -> QPainterPath:
    path = QPainterPath()
    if points:
        path.moveTo(scene_point(points[0]))
        for point in points[1:]:
            path.lineTo(scene_point(point))
    return path


class WallTool(EditTool):
    """Click corner after corner; double-click, Enter or a right click ends the wall."""

    name = "Draw walls: click corners (Ctrl: edge midpoints), double-click or Enter ends"

    def __init__(self, host: ToolHost, settings: MapToolSettings) -> None:
        super().__init__(host, settings)
        self.points: list[Point] = []
        self._line: QGraphicsPathItem | None = None
        self._cursor: QGraphicsEllipseItem | None = None

    def _colour(self) -> QColor:
        if self.settings.wall_sight and not self.settings.wall_movement:
            return style.WALL_SIGHT_ONLY
        if self.settings.wall_movement and not self.settings.wall_sight:
            return style.WALL_MOVE_ONLY
        return style.WALL_EDGE

    def _draw(self, cursor: Point | None) -> None:
        if self._line is None or self._line.scene() is None:
            self._line = self._line_item(self._colour())
            self._cursor = self._marker()
        points = [*self.points, cursor] if cursor is not None and self.points else self.points
        self._line.setPath(polyline_path(points))
        if cursor is not None and self._cursor is not None:
            self._cursor.setPos(scene_point(cursor))

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() == Qt.MouseButton.RightButton and self.points:
            self.finish()
            return True
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        point = snap(scene_pos, _fine(event))
        if self.points and point == self.points[-1]:
            return True
        self.points.append(point)
        self._draw(point)
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        self._draw(snap(scene_pos, _fine(event)))
        return True

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        """The last corner (its press already added it, unless the press came unpaired)."""
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        point = snap(scene_pos, _fine(event))
        if not self.points or self.points[-1] != point:
            self.points.append(point)
        self.finish()
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.points:
            self.finish()
            return True
        return False

    def finish(self) -> bool:
        """Send the polyline drawn so far as one wall command (one undo step)."""
        points, self.points = self.points, []
        self.clear_overlay()
        if len(points) < 2:
            return False
        return self.submit(
            commands.add_walls(points, self.settings.wall_sight, self.settings.wall_movement)
        )

    def cancel(self) -> bool:
        had = bool(self.points)
        self.points = []
        self.clear_overlay()
        return had


class PortalTool(EditTool):
    """Drag along a wall from one corner to another to put a door or window there."""

    name = "Doors and windows: drag along a wall from corner to corner"

    def __init__(self, host: ToolHost, settings: MapToolSettings) -> None:
        super().__init__(host, settings)
        self.start: Point | None = None
        self._line: QGraphicsPathItem | None = None

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.start = snap(scene_pos, _fine(event))
        colour = style.WINDOW if self.settings.portal_kind == "window" else style.DOOR
        self._line = self._line_item(colour, 10)
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.start is None or self._line is None:
            return False
        self._line.setPath(polyline_path([self.start, snap(scene_pos, _fine(event))]))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.start is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        start, self.start = self.start, None
        end = snap(scene_pos, _fine(event))
        self.clear_overlay()
        if end != start:
            self.submit(commands.add_portal(start, end, self.settings.portal_kind))
        return True

    def cancel(self) -> bool:
        had = self.start is not None
        self.start = None
        self.clear_overlay()
        return had


class TerrainTool(EditTool):
    """Paint squares by dragging; Shift-drag paints a rectangle. One stroke, one command."""

    name = "Terrain: drag to paint squares, Shift-drag for a rectangle"

    def __init__(self, host: ToolHost, settings: MapToolSettings) -> None:
        super().__init__(host, settings)
        self.stroke: set[Square] = set()
        self._anchor: Square | None = None
        self._rectangle = False
        self._item: QGraphicsPathItem | None = None

    def _show(self) -> None:
        if self._item is None or self._item.scene() is None:
            self._item = QGraphicsPathItem()
            self._item.setZValue(style.Z_OVERLAY)
            self.add_overlay(self._item)
        kind = self.settings.terrain_kind
        plain = kind == PLAIN_GROUND
        fill = QColor("#5ab0ff") if plain else QColor(style.TERRAIN_FILL[TerrainKind(kind)])
        fill.setAlpha(120)
        self._item.setBrush(QBrush(fill))
        self._item.setPen(QPen(fill.darker(150), 2))
        self._item.setPath(squares_path(self.stroke))

    def _in_map(self, squares: frozenset[Square] | set[Square]) -> set[Square]:
        battlemap = self.host.controller.state.battlemap
        return {square for square in squares if battlemap.in_bounds(square)}

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._anchor = square_at(scene_pos)
        self._rectangle = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.stroke = self._in_map({self._anchor})
        self._show()
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self._anchor is None:
            return False
        here = square_at(scene_pos)
        if self._rectangle:
            self.stroke = self._in_map(squares_between(self._anchor, here))
        else:
            self.stroke |= self._in_map({here})
        self._show()
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self._anchor is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        squares, self.stroke, self._anchor = self.stroke, set(), None
        self.clear_overlay()
        if squares:
            self.submit(commands.set_terrain(squares, self.settings.terrain_kind))
        return True

    def cancel(self) -> bool:
        had = self._anchor is not None
        self._anchor, self.stroke = None, set()
        self.clear_overlay()
        return had


class CoverTool(EditTool):
    """Drag a rectangle of squares: a cover object with the toolbar's grade and height."""

    name = "Cover: drag a rectangle of squares"

    def __init__(self, host: ToolHost, settings: MapToolSettings) -> None:
        super().__init__(host, settings)
        self._anchor: Square | None = None
        self._item: QGraphicsPathItem | None = None
        self._squares: frozenset[Square] = frozenset()

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._anchor = square_at(scene_pos)
        self._item = QGraphicsPathItem()
        self._item.setZValue(style.Z_OVERLAY)
        self._item.setBrush(QBrush(QColor(230, 180, 60, 110)))
        self._item.setPen(QPen(QColor("#e6b43c"), 3))
        self.add_overlay(self._item)
        self._set(self._anchor)
        return True

    def _set(self, here: Square) -> None:
        assert self._anchor is not None and self._item is not None
        self._squares = squares_between(self._anchor, here)
        self._item.setPath(squares_path(self._squares))

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self._anchor is None:
            return False
        self._set(square_at(scene_pos))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self._anchor is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        self._set(square_at(scene_pos))
        squares, self._anchor = self._squares, None
        self.clear_overlay()
        left = min(s.x for s in squares)
        top = min(s.y for s in squares)
        right = max(s.x for s in squares) + 1
        bottom = max(s.y for s in squares) + 1
        outline: list[Point] = [(left, top), (right, top), (right, bottom), (left, bottom)]
        number = len(self.host.controller.state.battlemap.cover) + 1
        settings = self.settings
        self.submit(
            commands.add_cover(
                outline,
                f"Cover {number}",
                settings.cover_grade,
                settings.cover_height_ft,
                settings.cover_blocks_sight,
            )
        )
        return True

    def cancel(self) -> bool:
        had = self._anchor is not None
        self._anchor = None
        self.clear_overlay()
        return had


class LightTool(EditTool):
    """Click to place a light with the toolbar's range (Ctrl: edge midpoints too)."""

    name = "Lights: click to place a light"

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        point = to_point(scene_pos) if _fine(event) else _centre(square_at(scene_pos))
        self.submit(commands.add_light(point, self.settings.light_range))
        return True


def _centre(square: Square) -> Point:
    return (square.x + 0.5, square.y + 0.5)


class EraseTool(EditTool):
    """Click a door, window, light, cover object or wall to remove it (in that order)."""

    name = "Erase: click a wall, door, window, cover object or light"

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        command = self.command_at(scene_pos)
        if command is None:
            self.host.show_status("Nothing to erase here")
        else:
            self.submit(command)
        return True

    def command_at(self, scene_pos: QPointF) -> Command | None:
        """The removal of whatever map feature is under a scene point, nearest kinds first."""
        battlemap = self.host.controller.state.battlemap
        point = to_point(scene_pos)
        portal = self.host.scene.portal_item_at(scene_pos)
        if portal is not None:
            return commands.remove_portal(portal.portal.id)
        for light in battlemap.lights:
            if _distance(point, light.position) <= PICK_DISTANCE:
                return commands.remove_light(light.position)
        for cover in battlemap.cover:
            polygon = QPolygonF([QPointF(x, y) for x, y in cover.outline])
            if polygon.containsPoint(QPointF(*point), Qt.FillRule.OddEvenFill):
                return commands.remove_cover(cover.id)
        wall = _nearest_wall(point, battlemap.walls)
        if wall is not None:
            return commands.remove_wall(wall.start, wall.end)
        return None


def _distance(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def _nearest_wall(point: Point, walls: tuple[Wall, ...]) -> Wall | None:
    near = [(distance_to_segment(point, w.start, w.end), i) for i, w in enumerate(walls)]
    picked = [(gap, i) for gap, i in near if gap <= PICK_DISTANCE]
    return walls[min(picked)[1]] if picked else None


class WallPointTool(EditTool):
    """Drag a wall's end (or a corner two walls share) to another grid point."""

    name = "Move wall points: drag a wall end (Ctrl: edge midpoints)"

    def __init__(self, host: ToolHost, settings: MapToolSettings) -> None:
        super().__init__(host, settings)
        self.held: Point | None = None
        self._line: QGraphicsPathItem | None = None
        self._cursor: QGraphicsEllipseItem | None = None

    def point_at(self, scene_pos: QPointF) -> Point | None:
        """The wall end nearest a scene point, if one is near enough to pick."""
        here = to_point(scene_pos)
        ends = {
            p for wall in self.host.controller.state.battlemap.walls for p in (wall.start, wall.end)
        }
        near = [p for p in ends if _distance(here, p) <= PICK_DISTANCE]
        return min(near, key=lambda p: _distance(here, p)) if near else None

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.held = self.point_at(scene_pos)
        if self.held is None:
            self.host.show_status("No wall end here: press on the end of a wall")
            return True
        self._line = self._line_item(QColor("#ffcc33"), 3)
        self._cursor = self._marker()
        self._cursor.setPos(scene_point(self.held))
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.held is None or self._line is None or self._cursor is None:
            return False
        target = snap(scene_pos, _fine(event))
        path = QPainterPath()
        for wall in self.host.controller.state.battlemap.walls:
            for end, other in ((wall.start, wall.end), (wall.end, wall.start)):
                if end == self.held:
                    path.moveTo(scene_point(other))
                    path.lineTo(scene_point(target))
        self._line.setPath(path)
        self._cursor.setPos(scene_point(target))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.held is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        held, self.held = self.held, None
        self.clear_overlay()
        target = snap(scene_pos, _fine(event))
        if target != held:
            self.submit(commands.move_wall_point(held, target))
        return True

    def cancel(self) -> bool:
        had = self.held is not None
        self.held = None
        self.clear_overlay()
        return had
