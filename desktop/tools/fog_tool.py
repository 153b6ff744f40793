"""Fog by hand: drag a rectangle to reveal it to the players, Shift-drag to hide it from
them, Ctrl-drag to hand it back to the party's sight. One drag, one ``set_fog`` command
(one undo step, saved with the fight)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from desktop.editing.snapping import squares_between
from desktop.scene import style
from desktop.scene.square_outline import squares_path
from desktop.tools.base import Tool, ToolHost, square_at
from engine.fog import FogMode
from engine.grid import Square
from engine.rules.base import Command, CommandError

COLOURS = {
    FogMode.REVEAL: QColor(120, 230, 255, 90),
    FogMode.HIDE: QColor(200, 120, 255, 110),
    FogMode.AUTOMATIC: QColor(230, 230, 230, 70),
}


def mode_for(event: QMouseEvent) -> FogMode:
    modifiers = event.modifiers()
    if modifiers & Qt.KeyboardModifier.ShiftModifier:
        return FogMode.HIDE
    if modifiers & Qt.KeyboardModifier.ControlModifier:
        return FogMode.AUTOMATIC
    return FogMode.REVEAL


class FogTool(Tool):
    name = "Fog by hand: drag reveals, Shift-drag hides, Ctrl-drag gives back to sight"

    def __init__(self, host: ToolHost) -> None:
        super().__init__(host)
        self.anchor: Square | None = None
        self.mode = FogMode.REVEAL
        self.squares: frozenset[Square] = frozenset()
        self._item: QGraphicsPathItem | None = None

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self.anchor = square_at(scene_pos)
        self.mode = mode_for(event)
        self._mark(self.anchor)
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.anchor is None:
            return False
        self._mark(square_at(scene_pos))
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if self.anchor is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        self._mark(square_at(scene_pos))
        squares = sorted(self.squares)
        self.cancel()
        if squares:
            command = Command.build(
                "set_fog", squares=[(s.x, s.y) for s in squares], mode=self.mode.value
            )
            try:
                events = self.host.controller.apply(command)
            except CommandError as error:
                self.host.show_status(str(error))
                return True
            self.host.show_status(" ".join(event.text for event in events))
        return True

    def _mark(self, corner: Square) -> None:
        assert self.anchor is not None
        battlemap = self.host.controller.state.battlemap
        self.squares = frozenset(
            s for s in squares_between(self.anchor, corner) if battlemap.in_bounds(s)
        )
        if self._item is None or self._item.scene() is None:
            self._item = QGraphicsPathItem()
            self._item.setZValue(style.Z_OVERLAY)
            self.add_overlay(self._item)
        colour = COLOURS[self.mode]
        self._item.setBrush(colour)
        self._item.setPen(QPen(colour.lighter(150), 2))
        self._item.setPath(squares_path(self.squares))

    def cancel(self) -> bool:
        had = self.anchor is not None
        self.anchor, self.squares, self._item = None, frozenset(), None
        self.clear_overlay()
        return had
