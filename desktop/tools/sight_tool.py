"""Line of sight: who a token sees, cover to the token under the mouse, fog while V is held.

The viewer is the acting or selected token. The engine (``engine.rules.measuring``) says
whom it sees (each other token ringed: seen, or refused and dashed), the cover lines to the
token under the mouse (clear or blocked) with its cover under the system's table, whether
an empty square under the mouse is seen, and, while V is held, the region it sees (the map
darkens the rest). This tool draws those overlays and their label, and decides nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from desktop.scene.overlay_items import detach
from desktop.scene.preview_overlay import DrawnPreview, draw_overlay
from desktop.scene.style import SQUARE
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.grid import Square
from engine.overlay import Role, Tone
from engine.rules.measuring import Measured, sight_fog, sight_rings, sight_to

FOG_KEY = Qt.Key.Key_V


class SightTool(RuleTool):
    name = "Line of sight"

    def __init__(self, host: ToolHost, actor_id: str | None = None) -> None:
        super().__init__(host, actor_id)
        #: The fog while V is held (the engine's), and what the painter made of it.
        self.fog: Measured | None = None
        self.fog_held = False
        self._fog_drawn = DrawnPreview()
        self.hover: Square | None = None
        #: Whom the viewer sees (once per state and viewer: a mouse move only redraws the
        #: hover part), and what the square under the mouse shows.
        self.rings: Measured | None = None
        self.hovered: Measured | None = None
        self._asked: tuple[object, str] | None = None
        self._hover_drawn = DrawnPreview()

    # ---- gestures

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if square != self.hover:
            self.hover = square
            self.refresh()
        return False  # the view may still pan

    def mouse_left(self) -> None:
        if self.hover is not None:
            self.hover = None
            self.refresh()

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        item = self.host.scene.token_item_at(scene_pos)
        if item is not None:  # pick another viewer
            self._actor_id = item.token_id
            self.host.controller.select(item.token_id)
            self.refresh()
            return True
        return False

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == FOG_KEY:
            if not event.isAutoRepeat():
                self.show_fog(True)
            return True
        return super().key_press(event)

    def key_release(self, event: QKeyEvent) -> bool:
        if event.key() == FOG_KEY:
            if not event.isAutoRepeat():
                self.show_fog(False)
            return True
        return False

    def cancel(self) -> bool:
        had = bool(self.overlay.childItems())
        self.hover = None
        self.show_fog(False)
        self.clear_overlay()
        return had

    # ---- fog

    def show_fog(self, on: bool) -> None:
        """Hold V: the engine's fog over what the viewer does not see, through the painter."""
        self.fog_held = on
        for item in self._fog_drawn.items:
            detach(item)
        self._fog_drawn = DrawnPreview()
        self.fog = None
        viewer = self.actor()
        if not on or viewer is None:
            return
        self.fog = sight_fog(self.state, viewer.id)
        self._fog_drawn = draw_overlay(self.fog.overlay, self.state)
        for item in self._fog_drawn.items:
            self.add_overlay(item)

    @property
    def fog_squares(self) -> frozenset[Square]:
        """The squares under the fog, as the engine gave them."""
        return self.fog.overlay.squares(Tone.UNSEEN) if self.fog else frozenset()

    def deactivate(self) -> None:
        self.show_fog(False)
        super().deactivate()

    # ---- drawing what the engine says

    @property
    def seen_ids(self) -> set[str]:
        """The tokens the viewer sees, as drawn."""
        return self._ringed(seen=True)

    @property
    def hidden_ids(self) -> set[str]:
        """The tokens the viewer does not see, as drawn."""
        return self._ringed(seen=False)

    def _ringed(self, seen: bool) -> set[str]:
        if self.rings is None:
            return set()
        return {
            t.token_id
            for t in self.rings.overlay.tokens
            if t.role is not Role.ACTOR and (t.tone is not Tone.REFUSED) == seen
        }

    def refresh(self) -> None:
        viewer = self.actor()
        if viewer is None:
            self.clear_overlay()
            return
        state = self.state
        if self._asked is None or self._asked[0] is not state or self._asked[1] != viewer.id:
            self.clear_overlay()
            self.rings = sight_rings(state, viewer.id)
            self._asked = (state, viewer.id)
            for item in draw_overlay(self.rings.overlay, state).items:
                self.add_overlay(item)
            if self.fog_held:  # V still held: the fog of the new state or viewer
                self.show_fog(True)
        for item in self._hover_drawn.items:
            if item.scene() is not None:
                item.scene().removeItem(item)
        hover = self.hover
        self.hovered = None if hover is None else sight_to(state, self.system, viewer.id, hover)
        self._hover_drawn = (
            draw_overlay(self.hovered.overlay, state) if self.hovered else DrawnPreview()
        )
        for item in self._hover_drawn.items:
            self.add_overlay(item)
        lines = list(self.rings.lines if self.rings else ())
        lines += list(self.hovered.lines if self.hovered else ())
        lines.append("hold V: fog over what it does not see; click a token to look from it")
        anchor = QRectF(viewer.square.x * SQUARE, viewer.square.y * SQUARE, SQUARE, SQUARE)
        if hover is not None and state.battlemap.in_bounds(hover):
            anchor = QRectF(hover.x * SQUARE, hover.y * SQUARE, SQUARE, SQUARE)
        self.show_info(lines, anchor)

    def clear_overlay(self) -> None:
        super().clear_overlay()
        self._asked = None  # the rings are gone: draw them again next time
        self._hover_drawn = DrawnPreview()
        self._fog_drawn = DrawnPreview()
