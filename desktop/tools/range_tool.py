"""Range bands of the acting token's weapon: rings on the map and every token's band.

An inspection overlay: the engine (``engine.rules.measuring.measure_range``, with the
system's range table) gives each band as an area, near first, labelled with its modifier,
and every other token ringed with its band's modifier, or refused when out of range. This
tool colours the bands from near to far and draws them. W switches to the next weapon.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent

from desktop.scene.overlay_items import TagItem
from desktop.scene.rule_overlays import AREA_BAD, AreaItem, TokenRingItem
from desktop.shapes import to_painter_path
from desktop.tools.base import ToolHost
from desktop.tools.rule_tool import RuleTool
from engine.overlay import Role, Tone
from engine.rules.measuring import Measured, measure_range

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
        self.measured: Measured | None = None

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
        self.measured = None
        actor = self.actor()
        if actor is None:
            return
        weapon = self.weapon(actor)
        if weapon is None:
            self.host.show_status(f"{actor.name} has no weapon")
            return
        try:
            measured = measure_range(self.state, self.system, actor.id, weapon.name)
        except (ValueError, KeyError) as error:
            self.host.show_status(str(error).strip("'\""))
            return
        self.measured = measured
        state = self.state
        index_of: dict[str, int] = {}
        for index, band in enumerate(measured.overlay.areas):
            index_of[band.label] = index
            path = to_painter_path(band.outline)
            colour = band_colour(index)
            self.add_overlay(AreaItem(path, colour, 28 if index % 2 else 45))
            label = TagItem(band.label, colour, 12)
            ring = path.boundingRect()
            size = label.boundingRect()
            spot = QPointF(ring.right() - size.width() - 4, ring.center().y() - size.height() / 2)
            if self.host.scene.map_rect.contains(QRectF(spot, size.size())):
                label.setPos(spot)
                self.add_overlay(label)
        for touched in measured.overlay.tokens:
            if touched.role is Role.ACTOR:
                continue
            token = state.token(touched.token_id)
            far = touched.tone is Tone.REFUSED
            colour = AREA_BAD if far else band_colour(index_of.get(touched.note, 0))
            tip = "\n".join([*(str(m) for m in touched.modifiers), touched.note])
            self.add_overlay(TokenRingItem(token.square, token.size, colour, tip, far))
        lines = [*measured.lines, "W: next weapon"]
        self.show_info(lines, self.host.scene.token_items[actor.id].sceneBoundingRect())
