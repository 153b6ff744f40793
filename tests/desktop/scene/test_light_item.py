"""Lights on the map: a bulb for the GM where each light is; the player view leaves them out."""

from __future__ import annotations

from dataclasses import replace

from desktop.scene.light_item import LightItem
from desktop.scene.map_scene import MapScene
from desktop.scene.style import SQUARE
from engine.battlemap import Light
from tests.desktop.sample import sample_state


def _lights(scene: MapScene) -> list[LightItem]:
    return [item for item in scene.items() if isinstance(item, LightItem)]


def test_each_light_is_drawn_where_it_is_on_the_gm_map(qtbot) -> None:  # type: ignore[no-untyped-def]
    state = sample_state()
    lights = (Light((2.5, 3.5), 4.0), Light((7.0, 1.0), 2.0, "#ff800080"))
    scene = MapScene(replace(state, battlemap=replace(state.battlemap, lights=lights)))
    drawn = sorted(_lights(scene), key=lambda item: item.pos().x())
    assert [item.light for item in drawn] == list(lights)
    assert drawn[0].pos().x() == 2.5 * SQUARE and drawn[0].pos().y() == 3.5 * SQUARE
    assert drawn[0].boundingRect().width() >= 2 * 4.0 * SQUARE  # the glow reaches its range


def test_a_new_light_appears_and_a_removed_one_goes(qtbot) -> None:  # type: ignore[no-untyped-def]
    state = sample_state()
    scene = MapScene(state)
    assert _lights(scene) == []
    lit = replace(state, battlemap=replace(state.battlemap, lights=(Light((1.5, 1.5)),)))
    scene.set_state(lit)
    assert [item.light.position for item in _lights(scene)] == [(1.5, 1.5)]
    scene.set_state(state)
    assert _lights(scene) == []


def test_the_player_view_leaves_lights_out(qtbot) -> None:  # type: ignore[no-untyped-def]
    state = sample_state()
    lit = replace(state, battlemap=replace(state.battlemap, lights=(Light((1.5, 1.5)),)))
    assert _lights(MapScene(lit, player=True)) == []


def test_a_light_keeps_its_colour_and_alpha() -> None:
    from desktop.scene.light_item import light_colour

    colour = light_colour(Light((0.5, 0.5), 3.0, "#ff800080"))
    assert (colour.red(), colour.green(), colour.blue(), colour.alpha()) == (255, 128, 0, 128)
