"""The map view: wheel zoom at the cursor, pan with the middle button or space-drag, tools."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QCursor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QWheelEvent,
)
from PySide6.QtWidgets import QGraphicsView, QToolTip, QWidget

from desktop.scene.map_scene import MapScene
from desktop.scene.token_item import TokenItem
from desktop.tools.action_tool import ActionTool
from desktop.tools.base import Tool

MIN_ZOOM = 0.05
MAX_ZOOM = 6.0
PING_KEY = Qt.Key.Key_P
ZOOM_STEP = 1.0015  # per wheel angle unit: one notch (120) is about 20 %


class DropTarget(Protocol):
    """Something that takes drags onto the map (the roster's characters)."""

    def accepts(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> bool: ...

    def drop(self, event: QDropEvent, scene_pos: QPointF) -> bool: ...


class MapView(QGraphicsView):
    """Shows a MapScene. Gestures go to the active tool first; the view pans and zooms."""

    status_message = Signal(str)
    zoom_changed = Signal(float)
    #: Right click: (scene position, global screen position) for the window's context menu.
    context_requested = Signal(QPointF, QPoint)
    #: A left double-click that the active tool did not take (scene position): the window
    #: opens the token editor there, or adds a token on an empty square.
    double_clicked = Signal(QPointF)
    #: P over the map (a key the active tool did not take): ping the square under the cursor.
    ping_requested = Signal(QPointF)
    #: The tool in use changed (the new tool, or None between documents).
    tool_changed = Signal(object)

    def __init__(self, scene: MapScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.map_scene = scene
        self.tool: Tool | None = None
        self._space_down = False
        self._pan_from: QPoint | None = None
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing
            | QPainter.RenderHint.SmoothPixmapTransform
            | QPainter.RenderHint.TextAntialiasing
        )
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        # The static map layers are painted as the background; cache them between frames.
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setMouseTracking(True)
        # File drops go to the main window; ``drop_target`` (the roster dock's) may take
        # its own drags onto the map.
        self.drop_target: DropTarget | None = None
        self.setAcceptDrops(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def set_scene(self, scene: MapScene) -> None:
        self.map_scene = scene
        self.setScene(scene)

    def set_tool(self, tool: Tool | None) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        if tool is not None:
            tool.activate()
            self.status_message.emit(tool.name)
        self.tool_changed.emit(tool)

    # ---- zoom and pan

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float, anchor: QPoint | None = None) -> None:
        """Zoom keeping the scene point under ``anchor`` (a viewport point) where it is."""
        target = max(MIN_ZOOM, min(MAX_ZOOM, self.zoom * factor))
        factor = target / self.zoom
        if anchor is None:
            anchor = self.viewport().rect().center()
        before = self.mapToScene(anchor)
        self.scale(factor, factor)
        # Scroll so the scene point that was under the anchor is under it again.
        moved = self.mapFromScene(before) - anchor
        self.pan_by(moved.x(), moved.y())
        self.zoom_changed.emit(self.zoom)

    def fit_map(self) -> None:
        self.fitInView(self.map_scene.map_rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.zoom_changed.emit(self.zoom)

    def pan_by(self, dx: float, dy: float) -> None:
        """Pan by a viewport distance in pixels."""
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + round(dx))
        v.setValue(v.value() + round(dy))

    # ---- events

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave and self.tool is not None:
            self.tool.mouse_left()
        tip = event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent)
        if tip and self.token_tip_hidden(event.pos()):  # type: ignore[attr-defined]
            QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def token_tip_hidden(self, point: QPoint) -> bool:
        """Whether a tooltip asked for at ``point`` (viewport) is held back: while an action
        is aimed, its card beside the cursor says what that token means for the action, and
        the token's own tooltip (health, weapons) popped up over the card. The overlay's
        tips (a refused square's reason) still show."""
        if not isinstance(self.tool, ActionTool):
            return False
        for item in self.items(point):
            if item.toolTip():  # the item whose tip Qt would show
                return isinstance(item, TokenItem)
        return False

    def _scene_pos(self, event: QMouseEvent | QWheelEvent) -> QPointF:
        return self.mapToScene(event.position().toPoint())

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.tool is not None and self.tool.wheel(event, self._scene_pos(event)):
            event.accept()
            return
        steps = event.angleDelta().y()
        if steps:
            self.zoom_by(ZOOM_STEP**steps, event.position().toPoint())
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space_down and event.button() == Qt.MouseButton.LeftButton
        ):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if self.tool is not None and self.tool.mouse_press(event, self._scene_pos(event)):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            point = event.position().toPoint()
            delta = point - self._pan_from
            self._pan_from = point
            self.pan_by(-delta.x(), -delta.y())
            event.accept()
            return
        if self.tool is not None and self.tool.mouse_move(event, self._scene_pos(event)):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.button() in (
            Qt.MouseButton.MiddleButton,
            Qt.MouseButton.LeftButton,
        ):
            self._pan_from = None
            self.viewport().setCursor(
                Qt.CursorShape.OpenHandCursor if self._space_down else Qt.CursorShape.ArrowCursor
            )
            event.accept()
            return
        if self.tool is not None and self.tool.mouse_release(event, self._scene_pos(event)):
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self.tool is not None and self.tool.mouse_double_click(event, self._scene_pos(event)):
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self.double_clicked.emit(self._scene_pos(event))
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def set_drop_target(self, target: DropTarget | None) -> None:
        self.drop_target = target
        self.setAcceptDrops(target is not None)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self._drag_over(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self._drag_over(event)

    def _drag_over(self, event: QDragMoveEvent) -> None:
        if self.drop_target is not None and self.drop_target.accepts(event):
            event.acceptProposedAction()
        else:
            event.ignore()  # a file: the main window opens it

    def dropEvent(self, event: QDropEvent) -> None:
        if self.drop_target is not None and self.drop_target.accepts(event):
            self.drop_target.drop(event, self.mapToScene(event.position().toPoint()))
            event.acceptProposedAction()
        else:
            event.ignore()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        self.context_requested.emit(self.mapToScene(event.pos()), event.globalPos())
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and self.tool is not None and self.tool.key_press(event):
            event.accept()  # the tool uses Space (the ruler's waypoint) instead of panning
            return
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        if self.tool is not None and self.tool.key_press(event):
            event.accept()
            return
        if event.key() == PING_KEY and not event.isAutoRepeat():
            cursor = self.viewport().mapFromGlobal(QCursor.pos())
            if self.viewport().rect().contains(cursor):
                self.ping_requested.emit(self.mapToScene(cursor))
                event.accept()
                return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_down = False
            if self._pan_from is None:
                self.viewport().setCursor(Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        if self.tool is not None and self.tool.key_release(event):
            event.accept()
            return
        super().keyReleaseEvent(event)
