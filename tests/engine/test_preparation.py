"""new_encounter: a blank map or a battle-map picture becomes an encounter to prepare and play."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import engine
from engine.files import load_encounter
from engine.rules import get_system, system_names
from engine.rules.base import Command, CommandError
from engine.rules.cities_without_number.tables import SCALE as METRIC
from engine.rules.savage_worlds.tables import SCALE as SAVAGE_INCH
from tests.engine.files.test_grid_detection import lined, png


@pytest.mark.parametrize("system", system_names())
def test_a_blank_map_takes_its_scale_from_the_system(system: str) -> None:
    fight = engine.new_encounter(system, "Blank", size=(30, 20))
    state = fight.state
    assert (state.name, state.system, state.battlemap.width, state.battlemap.height) == (
        "Blank", system, 30, 20)
    assert state.scale == get_system(system).scale
    assert state.battlemap.background is None and state.tokens == ()


def test_the_scales_differ_by_system() -> None:
    assert engine.new_encounter("savage-worlds", "A", size=(5, 5)).state.scale == SAVAGE_INCH
    assert engine.new_encounter("cities-without-number", "A", size=(5, 5)).state.scale == METRIC


def test_a_picture_finds_its_grid_and_becomes_the_map(tmp_path: Path) -> None:
    path = tmp_path / "Dock at night.png"
    path.write_bytes(png(lined(1000, 700, 70.4, 13.0, 27.0, noise=10)))
    fight = engine.new_encounter("spycraft", "Docks", picture=path)
    background = fight.state.battlemap.background
    assert background is not None
    assert background.pixels_per_square == pytest.approx(70.4, abs=0.05)
    assert background.offset_x == pytest.approx(13.0, abs=1.0)
    # (1000 - 13) / 70.4 = 14.02 squares across, (700 - 27) / 70.4 = 9.56 down
    assert (fight.state.battlemap.width, fight.state.battlemap.height) == (14, 9)
    assert background.image.startswith("images/Dock-at-night-")
    assert fight.images[background.image] == path.read_bytes()
    fight.apply(Command.build("add_wall", points=[(0, 0), (14, 0)]))
    fight.save(tmp_path / "docks.killbox")
    loaded = load_encounter(tmp_path / "docks.killbox")
    assert loaded.state == fight.state and set(loaded.images) == {background.image}


def test_the_grid_the_gm_gives_wins_and_a_size_may_be_asked() -> None:
    data = png(lined(640, 480, 40.0, 0.0, 0.0))
    fight = engine.new_encounter("d20-firearms", "Lot", picture=data, grid=(32.0, 5.0, 6.0))
    background = fight.state.battlemap.background
    assert background is not None
    assert (background.pixels_per_square, background.offset_x, background.offset_y) == (
        32.0, 5.0, 6.0)
    assert (fight.state.battlemap.width, fight.state.battlemap.height) == (19, 14)
    sized = engine.new_encounter("d20-firearms", "Lot", picture=data, size=(10, 10))
    assert sized.state.battlemap.width == 10


def test_a_picture_without_a_grid_asks_for_one() -> None:
    out = io.BytesIO()
    Image.new("RGB", (600, 400), "grey").save(out, "JPEG")
    with pytest.raises(engine.NoGridFound, match="no grid found in the picture"):
        engine.new_encounter("spycraft", "Fog", picture=out.getvalue())


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"size": (0, 5)}, "width must be a whole number of squares from 1 to 400"),
        ({"size": (5, 401)}, "height must be a whole number"),
        ({}, "say the map's size"),
        ({"picture": b"GIF89a"}, "the picture is refused: not a PNG, JPEG or WebP"),
        ({"picture": png(lined(200, 200, 20.0, 0, 0)), "grid": (0.0, 0.0, 0.0)},
         "pixels per square must be a positive number"),
    ],
)
def test_bad_requests_are_refused_with_the_reason(kwargs: dict[str, object], problem: str) -> None:
    with pytest.raises(CommandError, match=problem):
        engine.new_encounter("spycraft", "X", **kwargs)  # type: ignore[arg-type]


def test_an_unknown_system_is_named() -> None:
    with pytest.raises(engine.UnknownSystem, match="no rule system called 'chess'"):
        engine.new_encounter("chess", "X", size=(4, 4))


def test_a_state_built_in_code_still_plays() -> None:
    state = engine.new_encounter("spycraft", "A", size=(4, 4)).state
    assert engine.new_encounter(state, seed=3).state.combat.seed == 3
