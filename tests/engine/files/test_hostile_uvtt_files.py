"""Hostile Universal VTT files (issue 20): each class is refused at once with the file, the
place, the limit and what was found, or loads, within 5 s of CPU and 1 GB of memory.

Every file is generated here; none is committed. The geometry-heavy cases sit at the limits
(the worst a file may be and still load) and must stay within the bound.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from engine import limits
from engine.files import EncounterFileError, load_encounter, save_encounter
from tests.engine.files.uvtt_builders import document, import_map, point, write
from tests.resource_bounds import within_bounds

Doc = dict[str, Any]


def small_document(**fields: Any) -> Doc:
    """A valid 40 x 40 square document with a tiny picture (the picture is not at issue)."""
    return document(size=(40, 40), ppg=1, **fields)


def refused(tmp_path: Path, doc: Doc | str) -> EncounterFileError:
    path = write(tmp_path / "hostile.dd2vtt", doc)
    with within_bounds(), pytest.raises(EncounterFileError) as caught:
        import_map(path)
    error = caught.value
    assert error.path == str(path)
    assert error.place and error.problem
    return error


def points_text(points: list[tuple[float, float]]) -> str:
    return "[" + ",".join(f'{{"x":{x!r},"y":{y!r}}}' for x, y in points) + "]"


def zigzag(count: int, seed: int, offset: float = 0.0) -> list[tuple[float, float]]:
    """A scribble that crosses itself at nearly every step, in a one-square band: the
    input that made the wall simplifier run out of memory."""
    rng = random.Random(seed)
    return [(5 + i * 0.002 + rng.uniform(-0.3, 0.3), 5 + offset + rng.uniform(-0.3, 0.3))
            for i in range(count)]


def with_lines(doc: Doc, key: str, lines: list[list[tuple[float, float]]]) -> str:
    """The document as text with ``lines`` as its ``key`` array, joined as text."""
    doc = dict(doc, **{key: []})
    text = json.dumps(doc)
    marker = f'"{key}": []'
    return text.replace(marker, f'"{key}": [' + ",".join(points_text(p) for p in lines) + "]")


# -- counts -------------------------------------------------------------------------------

def test_a_million_wall_points_are_refused_before_parsing(tmp_path: Path) -> None:
    line = '{"x":1,"y":2},' * 1_000_000
    text = json.dumps(small_document()).replace(
        '"line_of_sight": [', '"line_of_sight": [[' + line + '{"x":3,"y":4}],', 1)
    error = refused(tmp_path, text)
    assert error.place == "(file)"
    assert f"more than the limit of {limits.MAX_UVTT_JSON_CONTAINERS:,}" in error.problem


def test_200000_self_crossing_wall_points_are_refused_before_simplifying(
    tmp_path: Path
) -> None:
    lines = [zigzag(limits.MAX_UVTT_LINE_POINTS, seed) for seed in range(20)]
    error = refused(tmp_path, with_lines(small_document(), "line_of_sight", lines))
    assert error.place == "line_of_sight"
    assert f"more than the limit of {limits.MAX_UVTT_POINTS:,}" in error.problem


def test_one_wall_line_over_the_limit_is_refused(tmp_path: Path) -> None:
    count = limits.MAX_UVTT_LINE_POINTS + 1
    error = refused(tmp_path, with_lines(small_document(), "line_of_sight",
                                         [zigzag(count, 1)]))
    assert error.place == "line_of_sight[0]"
    assert error.problem == (
        f"{count:,} points, more than the limit of {limits.MAX_UVTT_LINE_POINTS:,}")


def test_20000_portals_are_refused(tmp_path: Path) -> None:
    portal = {"position": point(1, 1), "bounds": [point(0, 1), point(2, 1)],
              "rotation": 0, "closed": True, "freestanding": False}
    error = refused(tmp_path, small_document(portals=[portal] * 20_000))
    assert error.place == "portals"
    assert error.problem == (
        f"20,000 doors and windows, more than the limit of {limits.MAX_PORTALS:,}")


def test_lights_over_the_limit_are_refused(tmp_path: Path) -> None:
    light = {"position": point(1, 1), "range": 3, "intensity": 1, "color": "ffffffff"}
    error = refused(tmp_path, small_document(lights=[light] * (limits.MAX_LIGHTS + 1)))
    assert error.place == "lights"


def test_a_tangled_object_outline_is_refused_before_it_is_repaired(tmp_path: Path) -> None:
    rng = random.Random(7)
    outline = [(rng.uniform(1, 39), rng.uniform(1, 39)) for _ in range(limits.MAX_OUTLINE_POINTS)]
    error = refused(tmp_path, with_lines(small_document(), "objects_line_of_sight", [outline]))
    assert error.place == "objects_line_of_sight[0]"
    assert f"more than {limits.MAX_OUTLINE_CROSSINGS} times" in error.problem


# -- numbers ------------------------------------------------------------------------------

def test_a_5001_digit_format_number_is_refused(tmp_path: Path) -> None:
    text = json.dumps(small_document()).replace('"format": 0.3', '"format": ' + "3" * 5001)
    error = refused(tmp_path, text)
    assert "5,001 characters" in error.problem


@pytest.mark.parametrize("value", [1e-308, 5e-324])
def test_a_vanishing_map_size_is_refused(tmp_path: Path, value: float) -> None:
    doc = small_document()
    doc["resolution"]["map_size"] = point(value, 4)
    error = refused(tmp_path, doc)
    assert error.place == "resolution.map_size.x"


@pytest.mark.parametrize("value", [1e-308, 5e-324, 1e300])
def test_a_picture_scale_out_of_range_is_refused(tmp_path: Path, value: float) -> None:
    doc = small_document()
    doc["resolution"]["pixels_per_grid"] = value
    error = refused(tmp_path, doc)
    assert error.place == "resolution.pixels_per_grid"


def test_a_duplicate_key_is_refused(tmp_path: Path) -> None:
    text = json.dumps(small_document()).replace('"format": 0.3', '"format": 0.3, "format": 0.2')
    error = refused(tmp_path, text)
    assert error.problem == "the key 'format' appears twice in one object"


# -- at the limits: loads in bounds, and saves as a file that loads again ------------------

def test_tangled_walls_at_the_point_limit_load_within_the_bound(tmp_path: Path) -> None:
    per_line = limits.MAX_UVTT_LINE_POINTS
    lines = [zigzag(per_line, seed, offset=seed * 0.2)
             for seed in range(limits.MAX_UVTT_POINTS // per_line)]
    doc = small_document(objects_line_of_sight=[])
    path = write(tmp_path / "tangled.dd2vtt", with_lines(doc, "line_of_sight", lines))
    with within_bounds() as usage:
        try:
            imported = import_map(path)
        except EncounterFileError as error:  # too many walls left after simplifying
            assert f"limit of {limits.MAX_WALLS:,}" in error.problem
            return
    print(f"tangled walls at the limit: {usage.seconds:.2f} s, {usage.megabytes:.0f} MB")
    assert imported.state.battlemap.walls


def test_walls_crossing_thousands_of_doorways_load_within_the_bound(tmp_path: Path) -> None:
    """5,000 doors in a grid, walls running along every row of doors (each is cut around
    them) and across every column: the cut-out and merge work must not be quadratic."""
    side = int(math.sqrt(limits.MAX_PORTALS))
    portals = [
        {"position": point(x + 0.5, y), "bounds": [point(x + 0.1, y * 0.5 + 1),
                                                   point(x + 0.9, y * 0.5 + 1)],
         "rotation": 0, "closed": True, "freestanding": False}
        for x in range(side) for y in range(side)
    ]
    rows = [[(0.0, y * 0.5 + 1), (side + 0.0, y * 0.5 + 1)] for y in range(side)]
    columns = [[(x + 0.5, 0.5), (x + 0.5, side * 0.5 + 1)] for x in range(side)]
    path = write(tmp_path / "doors.dd2vtt",
                 with_lines(small_document(portals=portals), "line_of_sight", rows + columns))
    with within_bounds() as usage:
        imported = import_map(path)
    print(f"walls across 5,000 doors: {usage.seconds:.2f} s, {usage.megabytes:.0f} MB")
    battlemap = imported.state.battlemap
    assert len(battlemap.portals) == side * side
    # Each row wall is cut into pieces between its doors: more walls than lines.
    assert len(battlemap.walls) > len(rows) + len(columns)


def test_an_import_at_the_limits_saves_and_loads_again(tmp_path: Path) -> None:
    """What the importer accepts, the .killbox loader accepts too: never a fight that saves
    and then cannot be reopened."""
    lines = [[(x + 0.5, 1.0), (x + 0.5, 39.0)] for x in range(39)]
    portal = {"position": point(1, 1), "bounds": [point(0, 1), point(1, 1)],
              "rotation": 0, "closed": True, "freestanding": False}
    doc = small_document(portals=[portal] * 100)
    imported = import_map(write(tmp_path / "big.dd2vtt", with_lines(doc, "line_of_sight", lines)))
    save_encounter(tmp_path / "big.killbox", imported)
    assert load_encounter(tmp_path / "big.killbox").state == imported.state
