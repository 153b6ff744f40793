"""The default tool: click a token to select it, drag it to move it.

While dragging, the token follows the cursor snapped to the grid, and the map draws the
overlay of the engine's preview of the command the drag stands for (in combat, the rule
system's ordinary move along the engine's route): the route, the end square refused and
why, the shooters the move draws fire from, with the same painter as the targeting mode.
The route's squares are tinted by what the drag spends to reach them, as a drag ruler's
bands (the ordinary move, a double move or run the rules allow, out of reach). A tag adds
the cost, the band and the reasons, and dashed lines go to the opponents the token would
see from there. Releasing applies the command once (one undo step); an illegal drop puts
the token back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QGraphicsItem

from desktop import doors
from desktop.movement import DragPlan, plan_drag
from desktop.scene import style
from desktop.scene.door_button import DoorButtonItem
from desktop.scene.drag_bands import band_colour, band_items
from desktop.scene.labels import wrap_lines
from desktop.scene.overlay_items import SightLinesItem, TagItem, detach
from desktop.scene.preview_overlay import DrawnPreview, draw_preview
from desktop.scene.style import SQUARE
from desktop.tools.base import Tool, ToolHost
from engine.battlemap import BattleMap
from engine.geometry import squares_see_each_other
from engine.grid import Square
from engine.rules.base import CommandError, Need, Preview
from engine.tokens import Token, are_opponents

DRAG_THRESHOLD = 4.0  # pixels before a press becomes a drag


@dataclass
class _Drag:
    token: Token
    grab: QPointF  # where inside the token it was grabbed, scene units
    press_view: QPointF
    started: bool = False
    target: Square | None = None
    plan: DragPlan | None = None
    preview: Preview | None = None
    #: Plans and previews by square: a drag often passes the same squares again.
    seen: dict[Square, tuple[DragPlan, Preview]] = field(default_factory=dict)


class SelectMoveTool(Tool):
    name = "Select and move"

    def __init__(self, host: ToolHost) -> None:
        super().__init__(host)
        self._drag: _Drag | None = None
        #: The door whose button the last press toggled (its double click's second press).
        self._pressed_door: str | None = None
        #: What the map draws of the hovered square's preview (replaced on each new square).
        self.drawn = DrawnPreview()
        #: The route's squares tinted by band (beside the preview's own drawing).
        self.band_marks: list[QGraphicsItem] = []
        self.tag = TagItem()
        self.sight = SightLinesItem()
        self.show_sight = True
        self._sight_cache: dict[Square, list[Token]] = {}
        #: The opponents near enough to draw sight lines to, found once per drag.
        self._near_opponents: list[Token] | None = None

    def activate(self) -> None:
        super().activate()
        self.host.scene.show_door_buttons(True)

    def deactivate(self) -> None:
        super().deactivate()
        self.host.scene.show_door_buttons(False)

    # ---- gestures

    def door_button_at(self, scene_pos: QPointF) -> DoorButtonItem | None:
        return self.host.scene.door_button_at(scene_pos, self.host.view.transform())

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        button = self.door_button_at(scene_pos)
        self._pressed_door = button.portal.id if button else None
        if button is not None:  # a door's button before the token standing in the doorway
            self.host.show_status(doors.toggle(self.host.controller, button.portal))
            return True
        item = self.host.scene.token_item_at(scene_pos)
        self.host.controller.select(item.token_id if item else None)
        if item is None:
            return False
        self._drag = _Drag(item.token, scene_pos - item.pos(), event.position())
        self._sight_cache = {}
        self._near_opponents = None
        return True

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        drag = self._drag
        if drag is None:
            return False
        if not drag.started:
            moved = event.position() - drag.press_view
            if math.hypot(moved.x(), moved.y()) < DRAG_THRESHOLD:
                return True
            drag.started = True
            self.host.scene.token_items[drag.token.id].set_lifted(True)
            self.add_overlay(self.sight)
            self.add_label(self.tag)
        self.drag_to(scene_pos)
        return True

    def mouse_release(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        drag = self._drag
        if drag is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        self._drag = None
        if drag.started:
            self.drop(drag)
        return True

    def mouse_double_click(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        """Double-click a door or window (not under a token) to open or close it."""
        scene = self.host.scene
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        button = self.door_button_at(scene_pos)
        if button is not None:
            # The press before a double click toggled the door already: one toggle in all.
            if self._pressed_door != button.portal.id:
                self.host.show_status(doors.toggle(self.host.controller, button.portal))
            self._pressed_door = None
            return True
        if scene.token_item_at(scene_pos):
            return False
        item = scene.portal_item_at(scene_pos)
        if item is None:
            return False
        self.host.show_status(doors.toggle(self.host.controller, item.portal))
        return True

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self._drag is not None:
            return self.cancel()
        return False

    def cancel(self) -> bool:
        drag = self._drag
        self._drag = None
        if drag is None:
            return super().cancel()
        self._put_back(drag.token)
        self._set_down(drag)
        self.clear_overlay()
        return True

    def clear_overlay(self) -> None:
        super().clear_overlay()
        self.drawn = DrawnPreview()
        self.band_marks = []

    def state_changed(self) -> None:
        if self._drag is not None:
            self.cancel()

    # ---- the live preview

    def drag_to(self, scene_pos: QPointF) -> None:
        """One mouse-move update: snap, ask the engine, redraw the overlay."""
        drag = self._drag
        if drag is None:
            return
        corner = scene_pos - drag.grab + QPointF(SQUARE / 2, SQUARE / 2)
        target = Square(math.floor(corner.x() / SQUARE), math.floor(corner.y() / SQUARE))
        if target == drag.target:
            return
        drag.target = target
        controller = self.host.controller
        item = self.host.scene.token_items[drag.token.id]
        item.setPos(target.x * SQUARE, target.y * SQUARE)
        cached = drag.seen.get(target)
        if cached is None:
            plan = plan_drag(controller.state, controller.system, drag.token.id, target)
            try:
                preview = controller.preview(plan.command)
            except CommandError as error:
                preview = Preview(plan.command, False, reasons=(str(error),))
            drag.seen[target] = (plan, preview)
        else:
            plan, preview = cached
        drag.plan, drag.preview = plan, preview
        self._draw(preview, plan)
        self._update_tag(plan, preview, target, drag.token)
        if self.show_sight:
            self._update_sight(drag.token.moved_to(target))

    def _draw(self, preview: Preview, plan: DragPlan) -> None:
        """Replace the drawn preview with ``preview``'s overlay (the action tool's painter)
        and the route's squares tinted by band."""
        for item in (*self.drawn.items, *self.band_marks):
            detach(item)
        self.drawn = draw_preview(preview, self.host.controller.state)
        self.band_marks = list(band_items(plan.route[1:], plan.square_bands)) if plan.found else []
        for item in (*self.drawn.items, *self.band_marks):
            self.add_overlay(item)

    def _update_tag(self, plan: DragPlan, preview: Preview, target: Square, token: Token) -> None:
        if plan.command.action == "place":
            lines = [f"place at {target}"]
        elif not plan.found:
            lines = [plan.no_route_text]
        else:
            # Of the band's reach ("50 ft of 60 ft · double move"), else of the speed.
            reach = (self.host.controller.state.scale.describe(plan.spent.reach)
                     if plan.spent is not None else plan.budget)
            distance = f"{plan.cost} of {reach}" if reach else plan.cost
            # The band's name once the drag spends more than the ordinary move.
            band = plan.spent.name if plan.spent is not None and plan.band else ""
            lines = [" · ".join(t for t in (distance, band, preview.cost) if t) or "move"]
            if plan.spent is not None and plan.spent.rolled:
                lines.append(f"how far: {plan.spent.rolled}")
        if not preview.legal and plan.found:
            # Without a route, the preview only judged a one-square jump to the target; its
            # "the squares do not touch" would say nothing the line above does not.
            lines += list(preview.reasons) or ["not allowed"]
        lines += list(preview.notes)  # what the route draws (final attacks...), before the drop
        legal = preview.legal and plan.found
        colour = band_colour(plan.band if plan.bands else 0) if legal else style.ROUTE_BAD
        self.tag.set_text(wrap_lines(lines), colour)
        self.tag.setPos((target.x + token.size) * SQUARE + 6, target.y * SQUARE - 4)

    def _update_sight(self, token: Token) -> None:
        """Dashed lines to every opponent the token would see from where it is held."""
        seen = self._sight_cache.get(token.square)
        if seen is None:
            state = self.host.controller.state
            if self._near_opponents is None:
                # Once per drag: nobody else moves while one token is dragged.
                near = self._near_view()
                self._near_opponents = [
                    other
                    for other in state.others(token.id)
                    if are_opponents(token.side, other.side)
                    and near.intersects(self.host.scene.token_items[other.id].sceneBoundingRect())
                ]
            seen = opponents_seen(state.battlemap, token, self._near_opponents)
            self._sight_cache[token.square] = seen
        origin = QPointF(
            (token.square.x + token.size / 2) * SQUARE, (token.square.y + token.size / 2) * SQUARE
        )
        self.sight.set_lines(
            origin,
            [
                QPointF((o.square.x + o.size / 2) * SQUARE, (o.square.y + o.size / 2) * SQUARE)
                for o in seen
            ],
        )

    def _near_view(self) -> QRectF:
        """The visible part of the map and as much again around it: lines to tokens further
        away would leave the screen anyway, and skipping them keeps a drag smooth."""
        view = self.host.view
        visible = view.mapToScene(view.viewport().rect()).boundingRect()
        return visible.adjusted(
            -visible.width() / 2, -visible.height() / 2, visible.width() / 2, visible.height() / 2
        )

    def drop(self, drag: _Drag) -> None:
        self._set_down(drag)
        self.clear_overlay()
        controller = self.host.controller
        if drag.plan is None or drag.preview is None or drag.target == drag.token.square:
            self._put_back(drag.token)
            return
        if not drag.plan.found:
            self._put_back(drag.token)
            self.host.show_status(f"Not moved: {drag.plan.no_route_text}{self._longer(drag)}")
            return
        if not drag.preview.legal:
            self._put_back(drag.token)
            reasons = "; ".join(drag.preview.reasons)
            self.host.show_status(f"Not moved: {reasons}{self._longer(drag)}")
            return
        try:
            events = controller.apply(drag.plan.command)
        except CommandError as error:
            self._put_back(drag.token)
            self.host.show_status(f"Not moved: {error}")
            return
        self.host.show_status(" ".join(e.text for e in events))

    def _longer(self, drag: _Drag) -> str:
        """The mover's other moves that the engine allows to the dropped-on square (Run, a
        double move...), which its right-click menu offers; "" when none or not a move. A
        GM from Foundry VTT drags as far as the token should go, and the bare refusal left
        the longer move to be found in the Actions dock."""
        from desktop.tools.offers import square_offers

        move_key = self.host.controller.system.ordinary_move_key
        if drag.plan is None or drag.target is None or drag.plan.command.action != move_key:
            return ""
        names = [
            offer.label
            for offer in square_offers(self.host, drag.token.id, drag.target)
            if offer.allowed and offer.spec.key != move_key and Need.PATH in offer.spec.needs
        ]
        return f"; right-click the square for {', '.join(names)}" if names else ""

    def _set_down(self, drag: _Drag) -> None:
        item = self.host.scene.token_items.get(drag.token.id)
        if item is not None and drag.started:
            item.set_lifted(False)

    def _put_back(self, token: Token) -> None:
        item = self.host.scene.token_items.get(token.id)
        if item is not None:
            item.set_token(self.host.controller.state.token(token.id))


def opponents_seen(battlemap: BattleMap, viewer: Token, opponents: list[Token]) -> list[Token]:
    """The opponents ``viewer`` sees: one bulk line-of-sight question to engine.geometry."""
    pairs = [
        (mine, theirs) for other in opponents for mine in viewer.squares for theirs in other.squares
    ]
    if not pairs:
        return []
    owners = [
        index
        for index, other in enumerate(opponents)
        for _ in range(viewer.size**2 * other.size**2)
    ]
    sees = squares_see_each_other(battlemap, [a for a, _ in pairs], [b for _, b in pairs])
    seen = {owners[i] for i, flag in enumerate(sees.tolist()) if flag}
    return [opponents[i] for i in sorted(seen)]
