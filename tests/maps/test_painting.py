"""The painter on a tiny scene: deterministic, sized by the grid, walls and props in place."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from engine.battlemap import Background, BattleMap, Light, Wall
from engine.encounter import EncounterState
from engine.grid import FIVE_FOOT
from maps.layout import block, door, rectangle, walls_around, window
from maps.painting import GLASS, PPS, WALL_STYLES, Floor, Look, Scene, encode_png, paint, rect_area


def _scene(ambient: float = 1.0) -> Scene:
    portals = (door("door-1", (2, 4), (3, 4)), window("window-1", (5, 0), (6, 0)))
    battlemap = BattleMap(
        8, 5, walls=walls_around(rectangle(1, 0, 7, 4), portals), portals=portals,
        cover=(block("crate-1", "Crate", 3, 1, 4, 2),),
        lights=(Light((5.0, 2.0), range=3.0),),
        background=Background("images/tiny.png", PPS),
    )
    state = EncounterState("tiny", "spycraft", FIVE_FOOT, battlemap)
    look = Look(floors=(Floor("asphalt", rect_area(0, 0, 8, 5)),
                        Floor("concrete", rect_area(1, 0, 7, 4))), ambient=ambient, seed=3)
    return Scene("tiny", state, look)


@pytest.fixture(scope="module")
def picture() -> np.ndarray:
    return np.asarray(paint(_scene()), dtype=np.float32)


def _at(picture: np.ndarray, x: float, y: float) -> np.ndarray:
    return picture[int(y * PPS), int(x * PPS)]


def test_the_picture_is_64_px_a_square(picture: np.ndarray) -> None:
    assert picture.shape == (5 * PPS, 8 * PPS, 3)


def test_painting_twice_gives_the_same_png() -> None:
    assert encode_png(paint(_scene())) == encode_png(paint(_scene()))


def test_a_wall_is_painted_on_its_segment_and_not_beside_it(picture: np.ndarray) -> None:
    concrete = np.array(WALL_STYLES["concrete"].fill)
    assert np.linalg.norm(_at(picture, 7.0, 2.0) - concrete) < 30
    assert np.linalg.norm(_at(picture, 6.5, 2.0) - concrete) > 20  # the floor inside


def test_glass_is_painted_on_a_window(picture: np.ndarray) -> None:
    assert np.linalg.norm(_at(picture, 5.5, 0.0) - np.array(GLASS)) < 30


def test_a_prop_stands_out_from_the_floor_round_it(picture: np.ndarray) -> None:
    inside = picture[int(1.2 * PPS):int(1.8 * PPS), int(3.2 * PPS):int(3.8 * PPS)].mean((0, 1))
    floor = picture[int(1.2 * PPS):int(1.8 * PPS), int(4.4 * PPS):int(5.0 * PPS)].mean((0, 1))
    assert np.linalg.norm(inside - floor) > 25


def test_night_darkens_away_from_the_lights() -> None:
    night = np.asarray(paint(_scene(ambient=0.4)), dtype=np.float32)
    day = np.asarray(paint(_scene()), dtype=np.float32)
    far = (slice(int(3.2 * PPS), int(3.8 * PPS)), slice(int(1.2 * PPS), int(1.8 * PPS)))
    near = (slice(int(1.8 * PPS), int(2.2 * PPS)), slice(int(4.8 * PPS), int(5.2 * PPS)))
    assert night[far].mean() < 0.6 * day[far].mean()
    assert night[near].mean() > 0.8 * day[near].mean()


def test_the_png_is_a_palette_image_of_the_same_size() -> None:
    data = encode_png(paint(_scene()))
    with Image.open(io.BytesIO(data)) as image:
        assert image.mode == "P"
        assert image.size == (8 * PPS, 5 * PPS)


def test_an_unknown_floor_texture_is_refused() -> None:
    scene = _scene()
    bad = Scene("bad", scene.state, Look(floors=(Floor("lava", rect_area(0, 0, 1, 1)),)))
    with pytest.raises(ValueError, match="lava"):
        paint(bad)


def test_walls_that_only_stop_movement_are_drawn_as_barriers() -> None:
    scene = _scene()
    rail = Wall((0.5, 4.5), (7.5, 4.5), blocks_sight=False)
    battlemap = BattleMap(8, 5, walls=(rail,))
    look = Look(floors=scene.look.floors, barrier_style="railing")
    image = np.asarray(paint(Scene("rail", EncounterState("r", "spycraft", FIVE_FOOT,
                                                          battlemap), look)), dtype=np.float32)
    yellow = np.array((226, 186, 40))
    row = image[int(4.5 * PPS), int(2.3 * PPS)]
    assert np.linalg.norm(row - yellow) < 40
