"""The README's table of file limits says what engine.limits holds, row by row."""

from __future__ import annotations

import re

import pytest

from engine import limits
from engine.files.images import MAX_IMAGE_PIXELS
from tests.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def rows() -> dict[str, str]:
    section = README.split("### Limits", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^\| (.+?) \| (.+?) \|$", section, flags=re.MULTILINE)
    return {what: limit for what, limit in found if what not in ("what", "---")}


def _n(value: float) -> str:
    return f"{value:,g}" if isinstance(value, float) else f"{value:,}"


@pytest.mark.parametrize("what, values", [
    ("squares on a side of the map", [limits.MAX_MAP_SIDE]),
    ("squares on a side of a token", [limits.MAX_TOKEN_SIZE]),
    ("tokens", [limits.MAX_TOKENS]),
    ("weapons / conditions on one token", [limits.MAX_WEAPONS, limits.MAX_CONDITIONS]),
    ("a weapon's rate of fire / capacity and ammunition",
     [limits.MAX_RATE_OF_FIRE, limits.MAX_CAPACITY]),
    ("wall segments", [limits.MAX_WALLS]),
    ("doors and windows", [limits.MAX_PORTALS]),
    ("lights", [limits.MAX_LIGHTS]),
    ("cover objects / points in one outline",
     [limits.MAX_COVER_OBJECTS, limits.MAX_OUTLINE_POINTS]),
    ("terrain patches / terrain squares in all of them",
     [limits.MAX_TERRAIN_PATCHES, limits.MAX_TERRAIN_SQUARES]),
    ("combat log lines", [limits.MAX_LOG_ENTRIES]),
    ("pictures in a file / their pixels together",
     [limits.MAX_IMAGES, limits.MAX_TOTAL_IMAGE_PIXELS]),
    ("arrays and objects in `encounter.json` / in a Universal VTT file",
     [limits.MAX_JSON_CONTAINERS, limits.MAX_UVTT_JSON_CONTAINERS]),
    ("Universal VTT wall and outline points / in one wall line",
     [limits.MAX_UVTT_POINTS, limits.MAX_UVTT_LINE_POINTS]),
    ("times a Universal VTT object outline crosses itself", [limits.MAX_OUTLINE_CROSSINGS]),
    ("characters in one number", [limits.MAX_NUMBER_CHARS]),
    ("a coordinate", [limits.MAX_COORDINATE]),
    ("a square's size (`scale.square_size`)",
     [limits.MIN_SQUARE_SIZE, limits.MAX_SQUARE_SIZE]),
    ("picture pixels to a square (`pixels_per_square`, `pixels_per_grid`)",
     [limits.MIN_PIXELS_PER_SQUARE, limits.MAX_PIXELS_PER_SQUARE]),
    ("a Universal VTT `map_size`", [limits.MIN_UVTT_MAP_SIZE, limits.MAX_MAP_SIDE]),
])
def test_the_readme_states_each_limit(what: str, values: list[float]) -> None:
    limit = rows()[what]
    for value in values:
        assert _n(value) in limit, f"{what}: the README says {limit!r}, the code {_n(value)}"


def test_the_readme_states_the_magnitude_and_picture_size() -> None:
    assert f"±{limits.MAX_MAGNITUDE:g}" in rows()["a fractional number"]
    side = int(MAX_IMAGE_PIXELS ** 0.5)
    assert f"{side} x {side}" in rows()["pictures in a file / their pixels together"]
