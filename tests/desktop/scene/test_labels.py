"""Where a targeting label goes: beside what it talks about, never on top of it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from desktop.scene.labels import ScreenTag, place_beside, visible_scene_rect

pytestmark = pytest.mark.gui


def _view(qtbot) -> QGraphicsView:  # type: ignore[no-untyped-def]
    view = QGraphicsView()
    view.setScene(QGraphicsScene(0, 0, 1000, 700, view))  # the view keeps its scene alive
    view.setFixedSize(800, 560)
    qtbot.addWidget(view)
    view.show()
    view.resetTransform()
    view.centerOn(500, 350)
    return view


def _placed(view: QGraphicsView, tag: ScreenTag) -> QRectF:
    scale = view.transform().m11()
    return QRectF(tag.pos(), tag.boundingRect().size() / scale)


def test_a_label_that_cannot_fit_left_of_its_target_covers_a_bystander_not_the_target(
    qtbot,  # type: ignore[no-untyped-def]
) -> None:
    view = _view(qtbot)
    tag = ScreenTag("Standard Attack: Enter or Confirm applies it\n" + "a modifier line\n" * 6)
    view.scene().addItem(tag)
    visible = visible_scene_rect(view)
    # The target sits a little way in from the left edge: too near for the label on its
    # left, so that side would be pushed back onto it; bystanders crowd the other sides
    # (each with its name plate, so each is bigger than the corner of the target).
    target = QRectF(visible.left() + 120, visible.top() + 250, 40, 40)
    bystanders = [
        QRectF(target.left() + 240, target.top() - 130, 64, 64),
        QRectF(target.left() + 240, target.top(), 64, 64),
        QRectF(target.left() + 240, target.bottom() + 50, 64, 64),
    ]
    place_beside(tag, target, view, bystanders)
    placed = _placed(view, tag)
    assert visible.contains(placed)
    assert not placed.intersects(target), (placed, target)


def test_a_label_with_room_everywhere_sits_right_of_its_target(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = _view(qtbot)
    tag = ScreenTag("Kick: pick a target")
    view.scene().addItem(tag)
    target = QRectF(400, 300, 40, 40)
    place_beside(tag, target, view)
    placed = _placed(view, tag)
    assert placed.left() > target.right() and not placed.intersects(target)
