"""Charge: the engine's legal targets ringed green, the others red with its reasons.

Hovering a legal target draws the Charge path the engine found; clicking it runs the
session's ``charge`` action at that target (one undo step). A refused target's ring
carries the reasons as its tooltip, and they are listed in the tag.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from desktop.scene.overlay_items import RouteItem
from desktop.scene.rule_overlays import AREA_BAD, GOOD, TokenRingItem
from desktop.scene.style import SQUARE
from desktop.tools.base import ToolHost
from desktop.tools.rule_tool import RuleTool
from engine.routes import RouteError
from engine.routes.charge import ChargeReport, charge_options
from engine.rules.base import Command
from engine.turns.combat import Phase


class ChargeTool(RuleTool):
    name = "Charge"
    action_key = "charge"

    def __init__(self, host: ToolHost, actor_id: str | None = None) -> None:
        super().__init__(host, actor_id)
        self.report: ChargeReport | None = None
        self.hover: str | None = None
        self.route = RouteItem()
        self._asked: tuple[object, ChargeReport] | None = None

    @property
    def legal_targets(self) -> frozenset[str]:
        return frozenset(o.target_id for o in self.report.allowed) if self.report else frozenset()

    @property
    def refused_targets(self) -> frozenset[str]:
        return frozenset(o.target_id for o in self.report.refused) if self.report else frozenset()

    def mouse_move(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        item = self.host.scene.token_item_at(scene_pos)
        hover = item.token_id if item is not None else None
        if hover != self.hover:
            self.hover = hover
            self.refresh()
        return False

    def mouse_press(self, event: QMouseEvent, scene_pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        item = self.host.scene.token_item_at(scene_pos)
        actor = self.actor()
        if item is None or actor is None or item.token_id == actor.id:
            return True
        if item.token_id not in self.legal_targets:
            reasons = self.report.option(item.token_id).reasons if self.report else ()
            self.host.show_status("No Charge: " + "; ".join(reasons or ("not an opponent",)))
            return True
        if self.system_has("charge"):
            self.confirm(Command("charge", actor.id, (item.token_id,)))
        return True

    def cancel(self) -> bool:
        had = self.report is not None
        self.report, self.hover = None, None
        self.clear_overlay()
        return had

    def refresh(self) -> None:
        self.clear_overlay()
        self.report = None
        actor = self.actor()
        if actor is None:
            return
        state = self.state
        cached = self._asked
        if cached is not None and cached[0] is state and cached[1].charger_id == actor.id:
            report = cached[1]
        else:  # ask the engine once per state and charger, not on every mouse move
            try:
                report = charge_options(
                    self.movement(), actor.id, surprise_round=state.combat.phase is Phase.SURPRISE
                )
            except RouteError as error:
                self.host.show_status(str(error))
                return
            self._asked = (state, report)
        self.report = report
        lines = [f"Charge by {actor.name}"]
        for option in report.allowed:
            target = state.token(option.target_id)
            cost = f", {option.route.cost}" if option.route else ""
            self.add_overlay(TokenRingItem(target.square, target.size, GOOD, f"Charge{cost}"))
            lines.append(f"✓ {target.name}{cost}")
        for option in report.refused:
            target = state.token(option.target_id)
            why = "; ".join(option.reasons)
            self.add_overlay(TokenRingItem(target.square, target.size, AREA_BAD, why, True))
            more = len(option.reasons) - 1
            short = option.reasons[0] + (f" (+{more} more: see its tooltip)" if more > 0 else "")
            lines.append(f"✗ {target.name}: {short}")
        if self.hover in self.legal_targets:
            option = report.option(self.hover)
            if option.route is not None:
                self.add_overlay(self.route)
                offset = (actor.size - 1) * SQUARE / 2  # big tokens route by their centre
                self.route.set_route(option.route.squares, True, offset)
        anchor = self.host.scene.token_items[actor.id].sceneBoundingRect()
        self.show_info(lines, anchor)
