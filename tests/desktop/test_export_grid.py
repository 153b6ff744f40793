"""Killbox finds the grid of its own exported maps (``killbox --export-png``): a picture of
a blank map with walls and tokens, and of each bundled map, painted floors and all."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.render import export_png
from engine.files.encounter_file import load_encounter
from engine.files.grid_detection import detect_grid
from tests.desktop.sample import sample_state
from tests.desktop.window_helpers import MAPS

pytestmark = pytest.mark.gui

#: Pixels a square in the exports below (the export's own default for a map without a picture).
SQUARE = 64
#: How near the size must be: 0.2 % (the sample map's walls and tokens cover many of its
#: few lines and pull it to 63.9), a nudge in the grid dialog, not a wrong grid (126.7 before).
SIZE_TOLERANCE = 0.15


def _found_at_the_squares(path: Path) -> None:
    guess = detect_grid(path)
    assert guess.found, guess
    assert guess.pixels_per_square == pytest.approx(SQUARE, abs=SIZE_TOLERANCE)
    for offset in (guess.offset_x, guess.offset_y):  # lines on the square edges
        assert min(offset, SQUARE - offset) <= 1.5, guess


def test_the_grid_of_an_exported_blank_map_with_walls_and_tokens_is_found(
    qapp, tmp_path: Path  # type: ignore[no-untyped-def]
) -> None:
    path = tmp_path / "blank.png"
    export_png(sample_state(), None, path, SQUARE)
    _found_at_the_squares(path)


@pytest.mark.parametrize("name", ["warehouse", "office_floor", "compound", "night_street"])
def test_the_grid_of_an_exported_bundled_map_is_found(qapp, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    loaded = load_encounter(MAPS / f"{name}.killbox")
    path = tmp_path / f"{name}.png"
    export_png(loaded.state, loaded.images, path, SQUARE)
    _found_at_the_squares(path)
