"""Range bands of the acting token's weapon: rings on the map and every token's band.

An inspection overlay: the engine's ``range_bands`` gives each band's region (drawn by
the grid's diagonal rule), its modifier and where every other token falls. W switches to
the token's next weapon.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent

from desktop.scene.overlay_items import TagItem
from desktop.scene.rule_overlays import AREA_BAD, AreaItem, TokenRingItem
from desktop.shapes import to_painter_path
from desktop.tools.base import ToolHost
from desktop.tools.rule_tool import RuleTool
from engine.geometry import RangeBands, range_bands

#: Band colours from near (green) to far (red); more bands reuse the last colour.
BAND_COLOURS = [
    QColor(61, 220, 132),
    QColor(160, 220, 70),
    QColor(240, 210, 60),
    QColor(250, 160, 50),
    QColor(245, 110, 60),
    QColor(230, 70, 70),
]


def band_colour(index: int) -> QColor:
    return BAND_COLOURS[min(index, len(BAND_COLOURS) - 1)]


class RangeTool(RuleTool):
    name = "Range bands"

    def __init__(
        self, host: ToolHost, actor_id: str | None = None, weapon: str | None = None
    ) -> None:
        super().__init__(host, actor_id, weapon)
        self.bands: RangeBands | None = None

    def key_press(self, event: QKeyEvent) -> bool:
        actor = self.actor()
        if event.key() == Qt.Key.Key_W and actor is not None and actor.weapons:
            names = [w.name for w in actor.weapons]
            current = self.weapon(actor)
            index = names.index(current.name) if current is not None else -1
            self._weapon = names[(index + 1) % len(names)]
            self.refresh()
            return True
        return super().key_press(event)

    def refresh(self) -> None:
        self.clear_overlay()
        self.bands = None
        actor = self.actor()
        if actor is None:
            return
        weapon = self.weapon(actor)
        if weapon is None:
            self.host.show_status(f"{actor.name} has no weapon")
            return
        table = self.system.range_table
        if table is None:
            self.host.show_status(f"{self.system.title} has no range bands")
            return
        try:
            bands = range_bands(self.state, actor.id, weapon.name, table)
        except (ValueError, KeyError) as error:
            self.host.show_status(str(error).strip("'\""))
            return
        self.bands = bands
        state = self.state
        outer = QRectF()
        for index, band in enumerate(bands.bands):
            path = to_painter_path(band.shape)
            colour = band_colour(index)
            self.add_overlay(AreaItem(path, colour, 28 if index % 2 else 45))
            outer = outer.united(path.boundingRect())
            label = TagItem(f"{band.name}: {band.modifier.value:+d}", colour, 12)
            ring = path.boundingRect()
            size = label.boundingRect()
            spot = QPointF(ring.right() - size.width() - 4, ring.center().y() - size.height() / 2)
            if self.host.scene.map_rect.contains(QRectF(spot, size.size())):
                label.setPos(spot)
                self.add_overlay(label)
        index_of = {band.name: i for i, band in enumerate(bands.bands)}
        lines = [f"{actor.name}, {weapon.name}: maximum {state.scale.describe(bands.maximum)}"]
        if bands.cqb is not None:
            lines.append(f"CQB Range: {state.scale.describe(bands.cqb)}")
        lines.append(f"half the maximum: {state.scale.describe(bands.half_maximum)}")
        for affected in bands.tokens:
            token = state.token(affected.token_id)
            modifier = affected.modifiers[0]
            colour = band_colour(index_of.get(modifier.rule, 0))
            self.add_overlay(TokenRingItem(token.square, token.size, colour, str(modifier)))
            lines.append(f"{token.name}: {modifier.rule} ({modifier.value:+d})")
        for token_id in bands.out_of_range:
            token = state.token(token_id)
            far = TokenRingItem(token.square, token.size, AREA_BAD, "out of range", True)
            self.add_overlay(far)
            lines.append(f"{token.name}: out of range")
        lines.append("W: next weapon")
        self.show_info(lines, self.host.scene.token_items[actor.id].sceneBoundingRect())
