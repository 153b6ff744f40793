"""Token items draw in full at readable sizes and as a plain side-coloured disc when zoomed far
out (level of detail), so a zoom over a big map stays smooth."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsItem, QStyleOptionGraphicsItem

from desktop.scene import style
from desktop.scene.detail import DETAIL_MIN_PIXELS_PER_SQUARE
from desktop.scene.style import SQUARE
from desktop.scene.token_item import TokenItem
from engine.grid import Square
from engine.tokens import Condition, Side, Token, Weapon

RIFLE = Weapon("rifle", "2d8", range_increment=70.0, ammo=12, capacity=30)
FLOOR = QColor("#3b3f45")


def _token(side: Side = Side.ENEMY) -> Token:
    return Token(
        "t1", "Ten Harlow", side, Square(0, 0), conditions=(Condition("Shaken"),), weapons=(RIFLE,)
    )


def _render(item: QGraphicsItem, pixels_per_square: float) -> QImage:
    """The item alone on the floor colour, ``pixels_per_square`` device pixels to a square."""
    factor = pixels_per_square / SQUARE
    size = max(8, round(2 * SQUARE * factor))
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(FLOOR)
    painter = QPainter(image)
    painter.scale(factor, factor)
    painter.translate(SQUARE / 4, SQUARE / 2)  # room for the ammo badge above and to the left
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    return image


def _count(image: QImage, test: Callable[[QColor], bool]) -> int:
    return sum(
        1
        for y in range(image.height())
        for x in range(image.width())
        if test(QColor(image.pixel(x, y)))
    )


def _white(colour: QColor) -> bool:
    return min(colour.red(), colour.green(), colour.blue()) > 200


def _side_coloured(side: Side) -> Callable[[QColor], bool]:
    target = style.SIDE_COLOURS[side]

    def test(colour: QColor) -> bool:
        return (
            abs(colour.red() - target.red())
            + abs(colour.green() - target.green())
            + abs(colour.blue() - target.blue())
            < 12
        )

    return test


def test_far_out_a_token_is_a_plain_disc_in_its_side_colour(qapp: QApplication) -> None:
    item = TokenItem(_token(Side.ENEMY))
    image = _render(item, DETAIL_MIN_PIXELS_PER_SQUARE - 2)
    assert _count(image, _white) == 0  # no initials, ammo count or badge text
    # The disc is filled with the side's colour (the full drawing fills it with a dark shade).
    disc_pixels = _count(image, _side_coloured(Side.ENEMY))
    disc_area = 3.14 * ((DETAIL_MIN_PIXELS_PER_SQUARE - 2) * 54 / 64 / 2) ** 2
    assert disc_pixels > 0.5 * disc_area


def test_at_a_readable_size_a_token_is_drawn_in_full(qapp: QApplication) -> None:
    item = TokenItem(_token(Side.ENEMY))
    image = _render(item, DETAIL_MIN_PIXELS_PER_SQUARE + 2)
    assert _count(image, _white) > 0  # text and badge edges appear
    centre = QColor(image.pixel(image.width() // 2 - 1, image.height() // 2 + 1))
    assert not _side_coloured(Side.ENEMY)(centre)


def test_the_name_plate_is_left_out_far_out_only(qapp: QApplication) -> None:
    item = TokenItem(_token(Side.PARTY))
    far = _render(item.label, DETAIL_MIN_PIXELS_PER_SQUARE - 2)
    near = _render(item.label, DETAIL_MIN_PIXELS_PER_SQUARE + 2)
    assert _count(far, lambda c: c != FLOOR) == 0
    assert _count(near, lambda c: c != FLOOR) > 0


def test_a_selected_token_keeps_a_white_edge_far_out(qapp: QApplication) -> None:
    item = TokenItem(_token(Side.PARTY))
    item.set_selected(True)
    assert _count(_render(item, 10), _white) > 0


def test_the_scene_scale_decides_the_drawing(qapp: QApplication) -> None:
    """Rendered through the scene, as a view does: the drawing routine follows the scale."""
    from desktop.scene.map_scene import MapScene
    from tests.desktop.sample import sample_state

    scene = MapScene(sample_state())
    item = next(iter(scene.token_items.values()))
    calls: list[str] = []

    def spy(name: str, routine: Callable[[QPainter], None]) -> Callable[[QPainter], None]:
        def record(painter: QPainter) -> None:
            calls.append(name)
            routine(painter)

        return record

    item._paint_full = spy("full", item._paint_full)  # type: ignore[method-assign]
    item._paint_simple = spy("simple", item._paint_simple)  # type: ignore[method-assign]
    for pixels, expected in ((64.0, "full"), (DETAIL_MIN_PIXELS_PER_SQUARE / 2, "simple")):
        calls.clear()
        image = QImage(200, 200, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.black)
        painter = QPainter(image)
        factor = pixels / SQUARE
        source = item.sceneBoundingRect()
        target = QRectF(0, 0, source.width() * factor, source.height() * factor)
        scene.render(painter, target, source)
        painter.end()
        assert calls == [expected]


def _gold(colour: QColor) -> bool:
    target = style.ACTING
    return (
        abs(colour.red() - target.red())
        + abs(colour.green() - target.green())
        + abs(colour.blue() - target.blue())
        < 30
    )


def test_the_token_whose_turn_it_is_wears_a_gold_ring_near_and_far(qapp: QApplication) -> None:
    item = TokenItem(_token(Side.PARTY))
    for pixels in (60.0, DETAIL_MIN_PIXELS_PER_SQUARE / 2):
        assert _count(_render(item, pixels), _gold) == 0, pixels
        item.set_acting(True)
        assert _count(_render(item, pixels), _gold) > 10, pixels
        item.set_acting(False)


def test_the_ring_follows_the_turn(qapp: QApplication) -> None:
    from desktop.scene.map_scene import MapScene
    from engine.rules.base import Command
    from engine.turns.session import Encounter
    from tests.desktop.sample import sample_state

    fight = Encounter(sample_state(), seed=3)
    fight.apply(Command("start_combat"))
    scene = MapScene(fight.state)
    for _ in range(3):
        acting = {i for i, item in scene.token_items.items() if item.acting}
        assert acting == {fight.state.combat.active}
        fight.apply(Command("end_turn"))
        scene.set_state(fight.state)
