"""Draw an engine preview on the map: its overlay payload and nothing else.

The preview says what to draw (``Preview.overlay``: areas with their squares, per-square
marks, routes, touched tokens with their modifiers, templates as shapes, notes beside
squares); this module only turns each part into items, in one colour for what the command
does, another for what the rule refuses, another for information, and fog over what a viewer
does not see. Nothing here decides a rule or reads the preview's other fields: the rule's
handler names its targets and their modifiers in the overlay. The measuring tools (ruler,
sight and its fog, templates, range bands, Deviation Diagram) draw through it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem

from desktop.scene import style
from desktop.scene.overlay_items import RouteItem, TagItem, centre
from desktop.scene.rule_overlays import (
    AREA,
    AREA_BAD,
    GOOD,
    INFO,
    AreaItem,
    SquareMarkItem,
    TokenRingItem,
    translucent,
)
from desktop.scene.square_outline import squares_path
from desktop.scene.style import SQUARE
from desktop.shapes import is_line, to_painter_path
from engine.encounter import EncounterState
from engine.grid import Square
from engine.overlay import Overlay, OverlayRoute
from engine.rules.base import Preview

#: A hint (background a tool only suggests): the information colour, see-through.
HINT = translucent(INFO, 130)
#: Tone names of the overlay payload (engine.overlay.Tone values) -> colour.
TONE_COLOURS = {
    "legal": AREA,
    "refused": AREA_BAD,
    "info": INFO,
    "hint": HINT,
    "unseen": style.FOG,
}
#: A route's line by tone: a move's in the route colours, a measurement's as information,
#: a hint (where a weapon could fly) in a see-through information colour, drawn faint.
ROUTE_COLOURS = {
    "legal": style.ROUTE_OK,
    "refused": style.ROUTE_BAD,
    "info": INFO,
    "hint": HINT,
}
#: How dark the fog over what a viewer does not see is (it still shows the map under it).
UNSEEN_ALPHA = 190
#: Token roles (engine.overlay.Role values) -> ring colour; spared tokens are dashed.
ROLE_COLOURS = {
    "actor": INFO,
    "target": GOOD,
    "affected": AREA,
    "spared": INFO,
    "threat": AREA_BAD,
}


@dataclass
class DrawnPreview:
    """The items made for one preview, the squares they cover and where they sit."""

    items: list[QGraphicsItem] = field(default_factory=list)
    squares: set[Square] = field(default_factory=set)
    refused_squares: set[Square] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    bounds: QRectF = field(default_factory=QRectF)

    def add(self, item: QGraphicsItem) -> None:
        self.items.append(item)
        rect = item.mapRectToScene(item.boundingRect())
        self.bounds = rect if self.bounds.isNull() else self.bounds.united(rect)


def tone_colour(tone: object, legal: bool = True) -> QColor:
    colour = TONE_COLOURS.get(str(tone))
    if colour is None:
        return AREA if legal else AREA_BAD
    return colour


def draw_preview(preview: Preview, state: EncounterState) -> DrawnPreview:
    """Items for everything ``preview`` asks the map to show."""
    drawn = DrawnPreview()
    _draw_overlay(preview.overlay, state, preview.legal, drawn)
    return drawn


def draw_overlay(overlay: Overlay, state: EncounterState) -> DrawnPreview:
    """Items for an overlay that is not a command's (what a measuring tool shows)."""
    drawn = DrawnPreview()
    _draw_overlay(overlay, state, True, drawn)
    return drawn


def draw_lasting(overlay: object, state: EncounterState) -> DrawnPreview:
    """Items for what stays on the map while it lasts (``RuleSystem.lasting_overlay``):
    its areas dashed in the information colour, each marked token with a small badge."""
    drawn = DrawnPreview()
    _draw_overlay(overlay, state, True, drawn, badges=True)
    return drawn


def _on_map(path: QPainterPath, state: EncounterState) -> QPainterPath:
    """An outline cut to the map's edges: a cone that reaches "across the map" ends there."""
    board = QPainterPath()
    board.addRect(QRectF(0, 0, state.battlemap.width * SQUARE, state.battlemap.height * SQUARE))
    return path.intersected(board)


def _draw_overlay(
    overlay: object, state: EncounterState, legal: bool, drawn: DrawnPreview, badges: bool = False
) -> None:
    for area in getattr(overlay, "areas", ()):
        colour = tone_colour(area.tone, legal)
        outline = getattr(area, "outline", None)
        path = (_on_map(to_painter_path(outline), state) if outline is not None
                else squares_path(area.squares))
        tip = "\n".join(part for part in (area.label, area.reason) if part)
        if str(area.tone) == "unseen":
            drawn.add(_fog(path, tip))
            continue
        item = AreaItem(path, colour, 70, dashed=str(area.tone) == "info")
        if tip:
            item.setToolTip(tip)
        drawn.add(item)
        target = drawn.refused_squares if str(area.tone) == "refused" else drawn.squares
        target.update(area.squares)
    for shape in getattr(overlay, "shapes", ()):
        # A line (a line of sight) has no inside: a blocked one is dashed, as a refused ring.
        open_line = is_line(shape.outline)
        path = to_painter_path(shape.outline)
        # Cutting to the map would close a line into a polygon with nothing inside.
        item = AreaItem(path if open_line else _on_map(path, state),
                        tone_colour(shape.tone, legal), 50,
                        dashed=open_line and str(shape.tone) == "refused")
        if shape.label:
            item.setToolTip(shape.label)
        drawn.add(item)
    for route in getattr(overlay, "routes", ()):
        line = RouteItem()
        colour = ROUTE_COLOURS.get(str(route.tone), style.ROUTE_OK)
        faint = str(route.tone) == "hint"
        line.set_route(route.squares, colour, _route_offset(state, route), faint)
        if route.label or route.reason:
            line.setToolTip("\n".join(p for p in (route.label, route.reason) if p))
        drawn.add(line)
    for mark in getattr(overlay, "marks", ()):
        colour = tone_colour(mark.tone, legal)
        drawn.add(SquareMarkItem(mark.square, colour, mark.label, mark.reason))
    for touched in getattr(overlay, "tokens", ()):
        role = str(touched.role)
        lines = [str(m) for m in touched.modifiers]
        if touched.note:
            lines.append(touched.note)
        refused = str(touched.tone) == "refused"
        colour = ROLE_COLOURS.get(role, AREA) if legal and not refused else AREA_BAD
        dashed = role == "spared" or refused
        _ring(state, touched.token_id, colour, "\n".join(lines), dashed, drawn)
        if badges and touched.note:
            _badge(state, touched.token_id, touched.note, drawn)
    for note in getattr(overlay, "notes", ()):
        drawn.add(_note(note.square, note.text, tone_colour(note.tone)))


def _fog(path: QPainterPath, tooltip: str) -> AreaItem:
    """Darkness over what a viewer does not see, under the rest of the overlay."""
    fog = AreaItem(path, style.FOG, UNSEEN_ALPHA)
    fog.setPen(QPen(Qt.PenStyle.NoPen))
    fog.setZValue(style.Z_OVERLAY - 1)
    if tooltip:
        fog.setToolTip(tooltip)
    return fog


def _note(square: Square, text: str, colour: QColor) -> TagItem:
    """A text beside a square's centre (up and right of it), the same size at any zoom."""
    tag = TagItem(text, colour, 12)
    tag.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
    tag.setPos(centre(square))
    tag.setTransform(QTransform.fromTranslate(10, -tag.boundingRect().height() - 4))
    return tag


def _route_offset(state: EncounterState, route: OverlayRoute) -> float:
    """How far to shift a route so a big mover's line runs through its centre: a walked
    route holds the mover's top-left square, and the mover is the token standing on its
    start (a measurement's line stays on the squares it measures)."""
    mover = state.token_at(route.start) if getattr(route, "walked", True) else None
    if mover is None or mover.square != route.start:
        return 0.0
    return (mover.size - 1) * SQUARE / 2


def _ring(
    state: EncounterState,
    token_id: str,
    colour: QColor,
    tooltip: str,
    dashed: bool,
    drawn: DrawnPreview,
) -> None:
    try:
        token = state.token(token_id)
    except KeyError:
        return
    drawn.add(TokenRingItem(token.square, token.size, colour, tooltip, dashed))
    drawn.tokens.add(token_id)


def _badge(state: EncounterState, token_id: str, note: str, drawn: DrawnPreview) -> None:
    """A small plate over a token naming what it waits to do ("ready", "delay")."""
    try:
        token = state.token(token_id)
    except KeyError:
        return
    badge = TagItem(note.split(":")[0], INFO, size=11)
    badge.setToolTip(note)
    # Below the name plate: the ammunition and condition badges sit on the token's top.
    badge.setPos(token.square.x * SQUARE, (token.square.y + token.size) * SQUARE + 14)
    drawn.add(badge)


def scene_rect_of(squares: Iterable[Square]) -> QRectF:
    """The scene rectangle round some squares (null when there are none)."""
    rect = QRectF()
    for square in squares:
        cell = QRectF(square.x * SQUARE, square.y * SQUARE, SQUARE, SQUARE)
        rect = cell if rect.isNull() else rect.united(cell)
    return rect
