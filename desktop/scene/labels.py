"""Labels that stay readable: wrapped, the same size at any zoom, inside the visible view,
and beside (not under) the tokens and areas they talk about.

``wrap_lines`` breaks long reasons into short lines; ``place_beside`` picks, among the
places right of, left of, below and above what a label describes, the one that stays
inside the visible part of the view and covers the fewest tokens, then clamps it in.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from desktop.scene import style
from desktop.scene.overlay_items import TagItem

#: Characters per line of a label, and lines before it summarises the rest.
LINE_WIDTH = 46
MAX_LINES = 14
GAP = 10.0  # screen pixels between a label and what it describes


def wrap_lines(lines: Iterable[str], width: int = LINE_WIDTH, most: int = MAX_LINES) -> str:
    """The lines wrapped to ``width`` characters, at most ``most`` of them."""
    shown = [part for line in lines for part in (textwrap.wrap(line, width) or [""])]
    if len(shown) > most:
        more = len(shown) - most + 1
        shown = [*shown[: most - 1], f"… and {more} more lines"]
    return "\n".join(shown)


class ScreenTag(TagItem):
    """A TagItem drawn at screen size whatever the zoom, above tokens and their plates."""

    alignment = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter

    def __init__(self, text: str = "", size: float = 13) -> None:
        super().__init__(text, size=size)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setZValue(style.Z_LABELS + 5)


def visible_scene_rect(view: QGraphicsView) -> QRectF:
    return view.mapToScene(view.viewport().rect()).boundingRect()


def place_beside(
    tag: QGraphicsItem,
    anchor: QRectF,
    view: QGraphicsView,
    avoid: Sequence[QRectF] = (),
) -> QPointF:
    """Put ``tag`` (an item ignoring transformations) next to ``anchor`` (scene units),
    fully inside the visible view, never on ``anchor`` when any place avoids it, and then
    covering as few of ``avoid`` as it can (the label talks about the anchor: a label on
    its target hides the very thing the GM is aiming at)."""
    scale = max(view.transform().m11(), 1e-6)
    size = tag.boundingRect()
    width, height = size.width() / scale, size.height() / scale
    gap = GAP / scale
    visible = visible_scene_rect(view).adjusted(gap / 2, gap / 2, -gap / 2, -gap / 2)
    right, left = anchor.right() + gap, anchor.left() - gap - width
    below, above = anchor.bottom() + gap, anchor.top() - gap - height
    candidates = (
        QPointF(right, anchor.top()),
        QPointF(left, anchor.top()),
        QPointF(anchor.left(), below),
        QPointF(anchor.left(), above),
        # The same sides, aligned to the anchor's other edge, for when the first is
        # pushed back inside the view.
        QPointF(right, anchor.bottom() - height),
        QPointF(left, anchor.bottom() - height),
        QPointF(anchor.right() - width, below),
        QPointF(anchor.right() - width, above),
    )

    def clamped(point: QPointF) -> QPointF:
        x = min(max(point.x(), visible.left()), visible.right() - width)
        y = min(max(point.y(), visible.top()), visible.bottom() - height)
        return QPointF(max(x, visible.left()), max(y, visible.top()))

    def cost(point: QPointF) -> tuple[float, float, float]:
        placed = clamped(point)
        rect = QRectF(placed.x(), placed.y(), width, height)
        moved = abs(placed.x() - point.x()) + abs(placed.y() - point.y())
        covered = sum(_overlap(rect, other) for other in avoid)
        return _overlap(rect, anchor), covered, moved

    best = min(candidates, key=cost)
    position = clamped(best)
    tag.setPos(position)
    return position


def _overlap(a: QRectF, b: QRectF) -> float:
    both = a.intersected(b)
    return 0.0 if both.isEmpty() else both.width() * both.height()
