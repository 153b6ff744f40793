"""The map scene follows engine states item by item; the player scene fogs what the party
does not see."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from desktop.player_view import PlayerScene
from desktop.render import render_scene
from desktop.scene.map_scene import MapScene
from desktop.scene.style import SQUARE
from engine.battlemap import PortalState
from engine.encounter import EncounterState
from engine.grid import Square
from tests.desktop.conftest import distinct_colours


def test_every_token_door_and_cover_object_gets_an_item(
    qapp: QApplication, state: EncounterState
) -> None:
    scene = MapScene(state)
    assert set(scene.token_items) == {t.id for t in state.tokens}
    assert set(scene.portal_items) == {p.id for p in state.battlemap.portals}
    kara = scene.token_items["kara"]
    assert kara.pos() == QPointF(2 * SQUARE, 6 * SQUARE)


def test_a_new_state_moves_only_the_items_that_changed(
    qapp: QApplication, state: EncounterState
) -> None:
    scene = MapScene(state)
    items_before = dict(scene.token_items)
    moved = state.with_token(state.token("kara").moved_to(Square(5, 9)))
    scene.set_state(moved)
    assert scene.token_items == items_before  # same item objects, no rebuild
    assert scene.token_items["kara"].pos() == QPointF(5 * SQUARE, 9 * SQUARE)
    assert scene.token_items["kara"].label.pos().y() > 9 * SQUARE


def test_opening_a_door_updates_its_item_in_place(
    qapp: QApplication, state: EncounterState
) -> None:
    scene = MapScene(state)
    door = scene.portal_items["office-door"]
    opened = replace(
        state, battlemap=state.battlemap.with_portal_state("office-door", PortalState.OPEN)
    )
    scene.set_state(opened)
    assert scene.portal_items["office-door"] is door
    assert door.portal.state is PortalState.OPEN


def test_removed_and_added_tokens(qapp: QApplication, state: EncounterState) -> None:
    scene = MapScene(state)
    fewer = state.without_token("clerk")
    scene.set_state(fewer)
    assert "clerk" not in scene.token_items
    scene.set_state(state)
    assert scene.token_items["clerk"].scene() is scene


def test_the_player_scene_hides_enemies_the_party_does_not_see(
    qapp: QApplication, state: EncounterState
) -> None:
    scene = PlayerScene(state, {})
    assert scene.seen is not None
    # The thug stands in the closed office: no party token sees in.
    assert not scene.token_items["thug-1"].isVisible()
    assert scene.token_items["kara"].isVisible()
    assert scene.fog.isVisible()
    assert not scene.fog.fogged(QPointF(2.5 * SQUARE, 6.5 * SQUARE))
    assert scene.fog.fogged(QPointF(12.5 * SQUARE, 2.5 * SQUARE))


def test_the_player_scene_shows_no_enemy_ammunition_or_tooltips(
    qapp: QApplication, state: EncounterState
) -> None:
    scene = PlayerScene(state, {})
    assert scene.token_items["boss"].toolTip() == ""
    assert not scene.token_items["boss"].gm


@pytest.mark.parametrize("player", [False, True])
def test_scenes_render_to_a_picture(
    qapp: QApplication, state: EncounterState, player: bool
) -> None:
    scene = PlayerScene(state, {}) if player else MapScene(state)
    image = render_scene(scene, 32)
    assert (image.width(), image.height()) == (16 * 32, 12 * 32)
    assert distinct_colours(image, step=3) > 20


@pytest.mark.parametrize("name", ["warehouse", "night_street"])
def test_the_opaque_export_picture_has_the_pixels_of_an_alpha_one(
    qapp: QApplication, name: str
) -> None:
    """render_scene draws into RGB32 (no alpha to unpremultiply when the PNG is written);
    drawn into ARGB32 as before, every pixel is the same."""
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    from desktop.documents import default_map_path, load_document

    document = load_document(default_map_path().parent / f"{name}.killbox")
    scene = MapScene(document.state, document.images)
    image = render_scene(scene, 24)
    assert not image.hasAlphaChannel()
    reference = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
    reference.fill(Qt.GlobalColor.black)
    painter = QPainter(reference)
    for hint in (
        QPainter.RenderHint.Antialiasing,
        QPainter.RenderHint.SmoothPixmapTransform,
        QPainter.RenderHint.TextAntialiasing,
    ):
        painter.setRenderHint(hint)
    scene.render(
        painter, QRectF(reference.rect()), scene.map_rect, Qt.AspectRatioMode.IgnoreAspectRatio
    )
    painter.end()
    assert reference.convertToFormat(QImage.Format.Format_RGB32) == image
