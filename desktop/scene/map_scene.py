"""The map scene: builds items from an EncounterState and updates only what a new state changes."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from desktop.scene import style
from desktop.scene.background import MapBackground
from desktop.scene.door_button import DoorButtonItem
from desktop.scene.fog_marks import FogMarksItem
from desktop.scene.items import PortalItem, map_items
from desktop.scene.light_item import LightItem
from desktop.scene.overlay_items import LayerItem
from desktop.scene.ping_item import PingItem
from desktop.scene.style import SQUARE
from desktop.scene.token_item import TokenItem
from engine.battlemap import PortalKind
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import UnknownSystem, get_system
from engine.rules.gauges import Gauge
from engine.tokens import Side, Token
from engine.turns.endings import ending_words

#: How a GM-only token shows on the GM's map (the player view never has it at all).
HIDDEN_OPACITY = 0.5


def decode_image(data: bytes | None) -> QImage | None:
    if not data:
        return None
    image = QImage.fromData(data)
    return None if image.isNull() else image


class MapScene(QGraphicsScene):
    """Everything drawn on the map. Tools add their overlays to ``overlay_layer``."""

    def __init__(
        self,
        state: EncounterState,
        images: Mapping[str, bytes] | None = None,
        *,
        player: bool = False,
    ) -> None:
        super().__init__()
        #: A player-facing scene leaves out GM-only details (enemy ammunition, tooltips).
        self.player = player
        #: The players' screen shows enemies' health only when the GM says so.
        self.show_enemy_health = False
        self.setBackgroundBrush(QColor("#16181c"))
        self.images: Mapping[str, bytes] = dict(images or {})
        self.state = state
        self.token_items: dict[str, TokenItem] = {}
        self.portal_items: dict[str, PortalItem] = {}
        #: Each door's on-map button (none on the player view's map).
        self.door_buttons: dict[str, DoorButtonItem] = {}
        #: Shown while the select tool is the map's tool (``show_door_buttons``).
        self.door_buttons_shown = False
        self._static: list[QGraphicsItem] = []
        self.overlay_layer = LayerItem()
        self.overlay_layer.setZValue(style.Z_OVERLAY)
        self.addItem(self.overlay_layer)
        self._build_static(state)
        for token in state.tokens:
            self._add_token(token)
        self._mark_acting(state)
        #: What the GM revealed or hid by hand (the GM's map only; the player view fogs).
        self.fog_marks = FogMarksItem()
        self.fog_marks.set_fog(state.fog)
        self.fog_marks.setVisible(not player)
        self.addItem(self.fog_marks)

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        area = QRectF(rect)
        painter.fillRect(area, self.backgroundBrush())
        self.background.paint(painter, area)

    @property
    def map_rect(self) -> QRectF:
        bm = self.state.battlemap
        return QRectF(0, 0, bm.width * SQUARE, bm.height * SQUARE)

    def _build_static(self, state: EncounterState) -> None:
        for item in self._static:
            self.removeItem(item)
        self._static = []
        self.portal_items = {}
        self.door_buttons = {}
        bm = state.battlemap
        picture = None
        if bm.background is not None:
            picture = decode_image(self.images.get(bm.background.image))
        self.background = MapBackground(bm, picture)
        self.invalidate(QRectF(), QGraphicsScene.SceneLayer.BackgroundLayer)
        for view in self.views():  # an edited map: the views' cached background is stale
            view.resetCachedContent()
        for item in map_items(bm):
            if self.player and isinstance(item, LightItem):
                continue
            self._static.append(item)
            if isinstance(item, PortalItem):
                self.portal_items[item.portal.id] = item
                # Doors only: a window is rarely worked in a fight, and an office's dozens
                # of window buttons hid the doors' (its double click and menu remain).
                if not self.player and item.portal.kind is PortalKind.DOOR:
                    button = DoorButtonItem(item.portal)
                    button.setVisible(self.door_buttons_shown)
                    self.door_buttons[item.portal.id] = button
                    self._static.append(button)
        for item in self._static:
            self.addItem(item)
        margin = 2 * SQUARE
        self.setSceneRect(self.map_rect.adjusted(-margin, -margin, margin, margin))

    def _portrait(self, token: Token) -> QImage | None:
        return decode_image(self.images.get(token.portrait)) if token.portrait else None

    def health(self, token: Token) -> tuple[tuple[Gauge, ...], dict[str, str]]:
        """The token's gauges as its rule system reports them, and its conditions' ends."""
        try:
            gauges = get_system(self.state.system).gauges(self.state, token)
        except UnknownSystem:
            gauges = ()
        endings = {c.name: ending_words(self.state, token, c) for c in token.conditions}
        return gauges, endings

    def _down_conditions(self) -> tuple[str, ...]:
        try:
            return get_system(self.state.system).down_conditions
        except UnknownSystem:
            return ()

    def _shows_health(self, token: Token) -> bool:
        return not self.player or self.show_enemy_health or token.side is not Side.ENEMY

    def set_show_enemy_health(self, shown: bool) -> None:
        self.show_enemy_health = shown
        for item in self.token_items.values():
            item.show_gauges = self._shows_health(item.token)
            item.update()

    def _add_token(self, token: Token) -> TokenItem:
        item = TokenItem(token, self._portrait(token), gm=not self.player)
        item.down_conditions = self._down_conditions()
        item.show_gauges = self._shows_health(token)
        item.set_token(token, *self.health(token))
        item.setOpacity(HIDDEN_OPACITY if token.hidden else 1.0)  # GM-only: see-through
        self.addItem(item)
        self.addItem(item.label)
        self.token_items[token.id] = item
        return item

    def _remove_token(self, token_id: str) -> None:
        item = self.token_items.pop(token_id)
        self.removeItem(item.label)
        self.removeItem(item)

    def set_state(self, state: EncounterState, images: Mapping[str, bytes] | None = None) -> None:
        """Show a new state, touching only the items whose values changed."""
        old = self.state
        self.state = state
        if images is not None:
            self.images = dict(images)
        if images is not None or state.battlemap is not old.battlemap:
            if _same_static(old, state) and images is None:
                for portal in state.battlemap.portals:
                    item = self.portal_items.get(portal.id)
                    if item is not None and item.portal != portal:
                        item.set_portal(portal)
                    button = self.door_buttons.get(portal.id)
                    if button is not None and button.portal != portal:
                        button.set_portal(portal)
            else:
                self._build_static(state)
        self.fog_marks.set_fog(state.fog)
        new_tokens = {t.id: t for t in state.tokens}
        for token_id in [i for i in self.token_items if i not in new_tokens]:
            self._remove_token(token_id)
        for token in state.tokens:
            token_item = self.token_items.get(token.id)
            if token_item is None:
                self._add_token(token)
                continue
            gauges, endings = self.health(token)
            if (token_item.token, token_item.gauges, token_item.endings) != (
                token, gauges, endings
            ):
                if token_item.token.portrait != token.portrait:
                    token_item.set_portrait(self._portrait(token))
                token_item.show_gauges = self._shows_health(token)
                token_item.set_token(token, gauges, endings)
                token_item.setOpacity(HIDDEN_OPACITY if token.hidden else 1.0)
        self._mark_acting(state)

    def _mark_acting(self, state: EncounterState) -> None:
        for token_id, token_item in self.token_items.items():
            token_item.set_acting(token_id == state.combat.active)

    def ping(self, square: Square) -> PingItem:
        """Rings spreading from ``square`` for a moment (desktop.scene.ping_item)."""
        item = PingItem(square, self)
        self.addItem(item)
        item.start()
        return item

    def pings(self) -> list[PingItem]:
        return [item for item in self.items() if isinstance(item, PingItem)]

    def portal_item_at(self, scene_pos: QPointF) -> PortalItem | None:
        """The door or window under a scene point (its shape is a 14-unit wide stroke)."""
        for item in self.items(scene_pos):
            if isinstance(item, PortalItem):
                return item
        return None

    def show_door_buttons(self, shown: bool) -> None:
        """Show or hide every door's button (the select tool shows them)."""
        self.door_buttons_shown = shown
        for button in self.door_buttons.values():
            button.setVisible(shown)

    def door_button_at(self, scene_pos: QPointF, view: QTransform) -> DoorButtonItem | None:
        """The shown door button under a scene point; ``view`` is the view's transform
        (a button keeps its size on screen, so where it reaches depends on the zoom)."""
        if not self.door_buttons_shown:
            return None
        for item in self.items(
            scene_pos, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder, view
        ):
            if isinstance(item, DoorButtonItem) and item.isVisible():
                return item
        return None

    def token_item_at(self, scene_pos: QPointF) -> TokenItem | None:
        for item in self.items(scene_pos):
            if isinstance(item, TokenItem):
                return item
        return None


def _same_static(a: EncounterState, b: EncounterState) -> bool:
    """True when two maps differ at most in door and window states."""
    ma, mb = a.battlemap, b.battlemap
    return (
        ma.width == mb.width
        and ma.height == mb.height
        and ma.walls is mb.walls
        and ma.terrain == mb.terrain
        and ma.cover == mb.cover
        and ma.lights == mb.lights
        and ma.background == mb.background
        and [p.id for p in ma.portals] == [p.id for p in mb.portals]
    )
