"""The Tool base class: how a gesture on the map becomes an engine preview and command.

A tool receives the map view's mouse, wheel and key events (with the scene position and
the square under the cursor). It draws only into its own ``overlay`` group, which is
emptied when the tool is deactivated or cancelled. A handler returns True when it used
the event; otherwise the view does its default (zoom, pan). Tools never decide a rule:
they build a Command, ask ``host.controller.preview`` and draw what comes back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsItem

from desktop.scene import style
from desktop.scene.overlay_items import LayerItem, detach
from desktop.scene.style import SQUARE
from engine.grid import Square

if TYPE_CHECKING:
    from desktop.controller import EncounterController
    from desktop.scene.map_scene import MapScene
    from desktop.view import MapView


def square_at(scene_pos: QPointF) -> Square:
    return Square(math.floor(scene_pos.x() / SQUARE), math.floor(scene_pos.y() / SQUARE))


class ToolHost:
    """What a tool may use: the view, its scene, the controller, and a status line."""

    def __init__(self, view: MapView, controller: EncounterController) -> None:
        self.view = view
        self.controller = controller
        #: Called by a one-shot tool whose work is done (the window hands back its default).
        self.tool_done: Callable[[Tool], None] = lambda tool: None

    @property
    def scene(self) -> MapScene:
        return self.view.map_scene

    def show_status(self, text: str) -> None:
        self.view.status_message.emit(text)


class Tool:
    """Base class: override the handlers you need. ``name`` is shown in menus and the status bar."""

    name = "Tool"
    #: Tools that end after one use (a roster character placed) hand back to the default
    #: tool when they call :meth:`hand_back`.
    one_shot = False

    def __init__(self, host: ToolHost) -> None:
        self.host = host
        self.overlay = LayerItem()
        #: Texts added by :meth:`add_label`, taken off with the overlay.
        self.labels: list[QGraphicsItem] = []

    # ---- life cycle

    def activate(self) -> None:
        self.overlay.setParentItem(self.host.scene.overlay_layer)

    def deactivate(self) -> None:
        self.clear_overlay()
        detach(self.overlay)

    def hand_back(self) -> None:
        """The tool's one use is done: a one-shot tool hands back to the default tool."""
        if self.one_shot:
            self.host.tool_done(self)

    def cancel(self) -> bool:
        """Escape: drop whatever is in progress. Returns True if something was cancelled."""
        had = bool(self.overlay.childItems() or self.labels)
        self.clear_overlay()
        return had

    def state_changed(self) -> None:
        """The encounter changed under the tool (undo, another window); refresh overlays."""

    # ---- overlay helpers

    def add_overlay(self, item: QGraphicsItem) -> QGraphicsItem:
        item.setParentItem(self.overlay)
        return item

    def add_label(self, item: QGraphicsItem) -> QGraphicsItem:
        """A text read over the tokens' name plates (a drag's cost): top level, since the
        overlay group sits below the plates and a child cannot rise above its group."""
        self.host.scene.addItem(item)
        item.setZValue(style.Z_LABELS + 5)
        self.labels.append(item)
        return item

    def clear_overlay(self) -> None:
        for child in (*self.overlay.childItems(), *self.labels):
            detach(child)
        self.labels = []

    # ---- events (return True when handled)

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        return False

    def wheel(self, event: QWheelEvent, scene_pos: QPointF) -> bool:
        return False

    def mouse_left(self) -> None:
        """The mouse left the map (for a dock, a menu, another window): what follows the
        hovered square (a preview of it, cover lines to it) should not stay behind."""

    def key_press(self, event: QKeyEvent) -> bool:
        return False

    def key_release(self, event: QKeyEvent) -> bool:
        return False

    def context_entries(self, scene_pos: QPointF) -> list[tuple[str, Callable[[], object]]]:
        """What a right click on the map offers for the tool's own work, first in the menu
        (a placed template: damage everyone it touches)."""
        return []
