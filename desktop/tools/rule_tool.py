"""Shared plumbing of the inspection tools (sight, templates, range bands, deviation).

A rule tool works for one token (given, else the selected token, else the one whose turn
it is) and, where it shoots, one weapon. It asks the engine every question and shows the
answer in its overlay plus an info tag (``lines`` keeps the tag's text so tests and the
status bar can read it). Doing an action is the targeting mode's job (action_tool.py).
"""

from __future__ import annotations

import textwrap

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent

from desktop.scene import style
from desktop.scene.overlay_items import TagItem
from desktop.tools.base import Tool, ToolHost
from engine.encounter import EncounterState
from engine.routes import MovementGraph
from engine.rules.base import RuleSystem
from engine.tokens import Token, Weapon

#: Lines the info tag shows before it summarises the rest, and characters per line.
MAX_TAG_LINES = 14
TAG_WIDTH = 64


class RuleTool(Tool):
    """Base of the rule tools: actor, weapon, movement graph, info tag, confirm."""

    def __init__(
        self, host: ToolHost, actor_id: str | None = None, weapon: str | None = None
    ) -> None:
        super().__init__(host)
        self._actor_id = actor_id
        self._weapon = weapon
        self.lines: list[str] = []
        self.info = TagItem(size=14)
        self._graph: tuple[EncounterState, MovementGraph] | None = None

    # ---- who and with what

    @property
    def state(self) -> EncounterState:
        return self.host.controller.state

    @property
    def system(self) -> RuleSystem:
        """The rule system in play (its tables and templates)."""
        return self.host.controller.system

    def actor(self) -> Token | None:
        state = self.state
        for candidate in (self._actor_id, self.host.controller.selected, state.combat.active):
            if candidate and any(t.id == candidate for t in state.tokens):
                return state.token(candidate)
        return None

    def weapon(self, actor: Token) -> Weapon | None:
        """The chosen weapon, else the first ranged one, else the first."""
        if self._weapon is not None:
            return actor.weapon(self._weapon)
        ranged = [w for w in actor.weapons if not w.melee]
        choices = ranged or list(actor.weapons)
        return choices[0] if choices else None

    def movement(self) -> MovementGraph:
        """The engine's movement graph of the current state (rebuilt when the state changes)."""
        state = self.state
        if self._graph is None or self._graph[0] is not state:
            cost = self.system.difficult_terrain_cost
            self._graph = (state, MovementGraph(state, difficult_cost=cost))
        return self._graph[1]

    # ---- the info tag

    def show_info(
        self, lines: list[str], beside: QRectF | QPointF, colour: QColor | None = None
    ) -> None:
        """Show the tag beside a scene rectangle: right of it, or left when the map ends."""
        self.lines = lines
        if self.info.scene() is None:
            # Top level, above the tokens' name plates (the overlay layer sits below them).
            self.host.scene.addItem(self.info)
            self.info.setZValue(style.Z_LABELS + 5)
        shown = [part for line in lines for part in textwrap.wrap(line, TAG_WIDTH) or [""]]
        if len(shown) > MAX_TAG_LINES:  # a crowded map: the status bar and tests get them all
            more = len(shown) - MAX_TAG_LINES + 1
            shown = [*shown[: MAX_TAG_LINES - 1], f"… and {more} more lines"]
        self.info.set_text("\n".join(shown), colour or QColor("#ffffff"))
        rect = beside if isinstance(beside, QRectF) else QRectF(beside, beside)
        size = self.info.boundingRect()
        bounds = self.host.scene.map_rect
        x = rect.right() + 10
        if x + size.width() > bounds.right():
            x = rect.left() - size.width() - 10
            if x < bounds.left():  # fits on neither side: keep it on the map, below the area
                x = min(max(rect.left(), bounds.left()), bounds.right() - size.width())
                rect = QRectF(rect.left(), rect.bottom() + 10, 0, 0)
        y = min(max(rect.top(), bounds.top()), bounds.bottom() - size.height())
        self.info.setPos(QPointF(x, y))
        self.host.show_status(" | ".join(lines[:3]))

    def clear_overlay(self) -> None:
        super().clear_overlay()
        if self.info.scene() is not None:
            self.info.scene().removeItem(self.info)
        self.lines = []

    # ---- life cycle

    def activate(self) -> None:
        super().activate()
        if self.actor() is None and self.needs_actor:
            self.host.show_status(f"{self.name}: select a token first")
        self.refresh()

    needs_actor = True

    def refresh(self) -> None:
        """Redraw from the engine (on start and when the state changes)."""

    def state_changed(self) -> None:
        self._graph = None
        self.refresh()

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape:
            return self.cancel()
        return False
