"""Line of sight: who a token sees, cover to the token under the mouse, fog while V is held.

The viewer is the acting or selected token. Every other token gets a ring: green when
the engine says the viewer sees it, red dashed when not. Hovering a token draws the
engine's cover lines to it (clear ones green, blocked ones red) and names the cover and
its modifier in the system in play; hovering an empty square says whether it is seen.
Holding V darkens everything the viewer does not see (the engine's visibility shape).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem

from desktop.scene import style
from desktop.scene.rule_overlays import AREA_BAD, GOOD, FogItem, TokenRingItem
from desktop.scene.style import SQUARE
from desktop.shapes import to_painter_path
from desktop.sight import sight_radius
from desktop.tools.base import ToolHost, square_at
from desktop.tools.rule_tool import RuleTool
from engine.geometry import cover_between, has_line_of_sight, token_line_of_sight, visible_squares
from engine.grid import Square
from engine.tokens import Token

FOG_KEY = Qt.Key.Key_V


def segments(lines: object) -> list[tuple[QPointF, QPointF]]:
    """First and last point of each line of an engine line geometry, in scene units."""
    path = to_painter_path(lines)
    found: list[tuple[QPointF, QPointF]] = []
    for index in range(path.elementCount()):
        element = path.elementAt(index)
        point = QPointF(element.x, element.y)
        if element.isMoveTo():
            found.append((point, point))
        elif found:
            found[-1] = (found[-1][0], point)
    return found


class SightTool(RuleTool):
    name = "Line of sight"

    def __init__(self, host: ToolHost, actor_id: str | None = None) -> None:
        super().__init__(host, actor_id)
        self.seen_ids: set[str] = set()
        self.hidden_ids: set[str] = set()
        self.fog: FogItem | None = None
        self.hover: Square | None = None
        self.fog_squares: frozenset[Square] = frozenset()
        self._asked: tuple[object, str] | None = None
        self._hover_items: list[QGraphicsItem] = []

    # ---- gestures

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        square = square_at(scene_pos)
        if square != self.hover:
            self.hover = square
            self.refresh()
        return False  # the view may still pan

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
        if self.fog is not None:
            if self.fog.scene() is not None:
                self.fog.scene().removeItem(self.fog)
            self.fog = None
            self.fog_squares = frozenset()
        viewer = self.actor()
        if not on or viewer is None:
            return
        state = self.state
        seen = visible_squares(state.battlemap, viewer, sight_radius(state))
        self.fog_squares = seen.squares
        self.fog = FogItem(self.host.scene.map_rect, to_painter_path(seen.shape), 190)
        self.fog.setParentItem(self.host.scene.overlay_layer)
        self.fog.setZValue(-1)  # under the rest of the overlay

    def deactivate(self) -> None:
        self.show_fog(False)
        super().deactivate()

    # ---- drawing

    def refresh(self) -> None:
        viewer = self.actor()
        if viewer is None:
            self.clear_overlay()
            return
        state = self.state
        if self._asked is None or self._asked[0] is not state or self._asked[1] != viewer.id:
            # Line of sight to every token, and its rings, once per state and viewer; a
            # mouse move only redraws the hover part.
            self.clear_overlay()
            self.seen_ids = {
                o.id
                for o in state.others(viewer.id)
                if token_line_of_sight(state.battlemap, viewer, o)
            }
            self.hidden_ids = {o.id for o in state.others(viewer.id)} - self.seen_ids
            self._asked = (state, viewer.id)
            self._draw_rings(viewer)
        for item in self._hover_items:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self._hover_items = []
        lines = [f"{viewer.name} sees {len(self.seen_ids)} of {len(state.tokens) - 1} tokens"]
        hover = self.hover
        anchor = QRectF(viewer.square.x * SQUARE, viewer.square.y * SQUARE, SQUARE, SQUARE)
        if hover is not None and state.battlemap.in_bounds(hover):
            target = state.token_at(hover)
            if target is not None and target.id != viewer.id:
                lines += self._cover_lines(viewer, target)
            elif target is None:
                sees = any(has_line_of_sight(state.battlemap, s, hover) for s in viewer.squares)
                lines.append(f"square {hover}: {'in sight' if sees else 'out of sight'}")
                self._line(viewer, hover, GOOD if sees else AREA_BAD)
            anchor = QRectF(hover.x * SQUARE, hover.y * SQUARE, SQUARE, SQUARE)
        lines.append("hold V: fog over what it does not see; click a token to look from it")
        self.show_info(lines, anchor)

    def _draw_rings(self, viewer: Token) -> None:
        state = self.state
        for other in state.others(viewer.id):
            sees = other.id in self.seen_ids
            self.add_overlay(
                TokenRingItem(
                    other.square,
                    other.size,
                    GOOD if sees else AREA_BAD,
                    f"{viewer.name} {'sees' if sees else 'does not see'} {other.name}",
                    dashed=not sees,
                )
            )
        self.add_overlay(TokenRingItem(viewer.square, viewer.size, QColor("#ffffff")))

    def clear_overlay(self) -> None:
        super().clear_overlay()
        self._asked = None  # the rings are gone: draw them again next time
        self._hover_items = []

    def _hover(self, item: QGraphicsItem) -> None:
        self._hover_items.append(self.add_overlay(item))

    def _cover_lines(self, viewer: Token, target: Token) -> list[str]:
        state = self.state
        cover = cover_between(state.battlemap, viewer, target, self.system.cover_table)
        for (start, end), blocked in zip(segments(cover.lines), cover.blocked, strict=False):
            item = QGraphicsLineItem(start.x(), start.y(), end.x(), end.y())
            colour = AREA_BAD if blocked else GOOD
            dash = Qt.PenStyle.DashLine if blocked else Qt.PenStyle.SolidLine
            item.setPen(QPen(colour, 2.5, dash))
            item.setZValue(style.Z_OVERLAY)
            self._hover(item)
        text = f"{target.name}: cover {cover.level.name.lower().replace('_', ' ')}"
        if cover.modifier is not None:
            text += f" ({cover.modifier})"
        return [text, *cover.reasons]

    def _line(self, viewer: Token, square: Square, colour: QColor) -> None:
        half = viewer.size / 2
        item = QGraphicsLineItem(
            (viewer.square.x + half) * SQUARE,
            (viewer.square.y + half) * SQUARE,
            (square.x + 0.5) * SQUARE,
            (square.y + 0.5) * SQUARE,
        )
        item.setPen(QPen(colour, 3))
        item.setZValue(style.Z_OVERLAY)
        self._hover(item)
