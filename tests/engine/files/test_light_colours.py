"""Light colours: one convention in the model (CSS ``#rrggbbaa``), converted at the file's edge.

The bundled maps wrote ``#rrggbbaa`` while the Universal VTT exporter read the model as
``#aarrggbb``, so a warm light arrived lavender in other tabletops. Each side is checked
here through a reader that is not ours: Pillow reads CSS colours, and Qt's ``QColor`` reads
``#aarrggbb`` the way Universal VTT files spell colours (alpha first).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import ImageColor
from PySide6.QtGui import QColor

from engine.battlemap import Light, rgba_colour
from engine.files.uvtt_export import export_uvtt
from tests.engine.files.builders import rich_file
from tests.engine.files.uvtt_builders import import_map

WARM = "#ffb070ff"  # sodium orange, fully opaque, as maps/encounters/night_street.py writes


def test_the_model_colour_reads_as_css_rgba() -> None:
    assert ImageColor.getrgb(Light((1.0, 1.0), colour=WARM).colour) == (255, 176, 112, 255)


def test_six_digit_colours_become_opaque() -> None:
    assert rgba_colour("#FFB070") == "#ffb070ff"


@pytest.mark.parametrize("bad", ["not a colour", "#12345", "#ggggggff", "", "#ffb070ff00"])
def test_a_bad_colour_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="colour"):
        Light((1.0, 1.0), colour=bad)


def encounter_system() -> str:
    return rich_file().state.system


def _exported_light_colour(tmp_path: Path, colour: str) -> str:
    encounter = rich_file()
    light = Light((2.0, 2.0), 4.0, colour, 1.0)
    battlemap = encounter.state.battlemap
    state = replace(encounter.state, battlemap=replace(battlemap, lights=(light,)))
    path = tmp_path / "warm.dd2vtt"
    export_uvtt(replace(encounter, state=state), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    return str(data["lights"][0]["color"])


def test_a_warm_light_stays_warm_in_a_universal_vtt_reader(tmp_path: Path) -> None:
    written = _exported_light_colour(tmp_path, WARM)
    read = QColor("#" + written)  # Qt reads #AARRGGBB, Universal VTT's order
    assert (read.red(), read.green(), read.blue(), read.alpha()) == (255, 176, 112, 255)


def test_a_translucent_light_keeps_its_alpha_through_export_and_import(tmp_path: Path) -> None:
    _exported_light_colour(tmp_path, "#4aa8ff80")
    back = import_map(tmp_path / "warm.dd2vtt", system=encounter_system())
    assert back.state.battlemap.lights[0].colour == "#4aa8ff80"
