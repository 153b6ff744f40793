"""Hostile ``.killbox`` files (issue 20): each class is refused at once, naming the file, the
place, the limit and what was found, within the bound of 5 s of CPU and 1 GB of memory.

Every file is generated here; none is committed. Each test builds the document first and
measures only the load.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import limits
from engine.files import EncounterFileError, encounter_to_json, load_encounter
from tests.engine.files.builders import (
    damaged_png_entries,
    png_bytes,
    rich_entries,
    rich_state,
    write_archive,
)
from tests.resource_bounds import within_bounds

Document = dict[str, Any]


def good_document() -> Document:
    return encounter_to_json(rich_state())


def refused(tmp_path: Path, entries: dict[str, bytes]) -> EncounterFileError:
    """Load the archive of ``entries``: it must be refused with the file error, in bounds."""
    path = write_archive(tmp_path / "hostile.killbox", entries)
    with within_bounds(), pytest.raises(EncounterFileError) as caught:
        load_encounter(path)
    error = caught.value
    assert error.path == str(path)
    assert error.place and error.problem
    return error


def refused_document(tmp_path: Path, change: Callable[[Document], None]) -> EncounterFileError:
    document = good_document()
    change(document)
    return refused(tmp_path, rich_entries(document))


def refused_text(tmp_path: Path, text: str) -> EncounterFileError:
    entries = rich_entries()
    entries["encounter.json"] = text.encode("utf-8")
    return refused(tmp_path, entries)


def with_items(key: str, item: str, count: int) -> str:
    """The good document as text with ``count`` copies of ``item`` (JSON text) at the head
    of its first ``key`` array: big files built by joining text, not by dumping objects."""
    text = json.dumps(good_document())
    marker = f'"{key}": ['
    assert marker in text
    return text.replace(marker, marker + ",".join([item] * count) + ",", 1)


def token(document: Document, index: int = 0) -> Document:
    tokens: list[Document] = document["encounter"]["tokens"]
    return tokens[index]


def battlemap(document: Document) -> Document:
    result: Document = document["encounter"]["battlemap"]
    return result


# -- sizes: a token, a map ----------------------------------------------------------------

@pytest.mark.parametrize("size", [30_000, 2_000_000_000, 2**63])
def test_a_giant_token_is_refused_before_its_footprint_is_built(
    tmp_path: Path, size: int
) -> None:
    error = refused_document(tmp_path, lambda d: token(d).update(size=size))
    assert error.place == "encounter.tokens[0].size"
    assert f"between 1 and {limits.MAX_TOKEN_SIZE}" in error.problem
    assert f"found {size:g}" in error.problem


@pytest.mark.parametrize("side", [100_000, 2_000_000_000, 2**63])
def test_a_giant_map_is_refused_before_anything_is_allocated(tmp_path: Path, side: int) -> None:
    error = refused_document(tmp_path, lambda d: battlemap(d).update(width=side))
    assert error.place == "encounter.battlemap.width"
    assert f"between 1 and {limits.MAX_MAP_SIDE}" in error.problem


def terrain_patch(squares: int) -> str:
    return '{"name": "mud", "kind": "difficult", "squares": [' + ",".join(
        ["[3,4]"] * squares) + "]}"


def test_a_million_terrain_squares_are_refused_before_parsing(tmp_path: Path) -> None:
    patch = terrain_patch(1_000_000)
    error = refused_text(tmp_path, with_items("terrain", patch, 1))
    assert error.place == "encounter.json"
    assert f"more than the limit of {limits.MAX_JSON_CONTAINERS:,}" in error.problem


def test_terrain_squares_over_the_limit_are_refused(tmp_path: Path) -> None:
    half = limits.MAX_TERRAIN_SQUARES // 2 + 1
    patch = terrain_patch(half)
    error = refused_text(tmp_path, with_items("terrain", patch, 2))
    assert error.place == "encounter.battlemap.terrain"
    assert f"{2 * half:,} terrain squares" in error.problem
    assert f"limit of {limits.MAX_TERRAIN_SQUARES:,}" in error.problem


# -- counts: walls, portals, tokens, pictures ---------------------------------------------

WALL = '{"start": [0, 0], "end": [1, 1], "blocks_sight": true, "blocks_movement": true}'


def test_walls_over_the_limit_are_refused(tmp_path: Path) -> None:
    count = limits.MAX_WALLS + 1
    error = refused_text(tmp_path, with_items("walls", WALL, count))
    assert error.place == "encounter.battlemap.walls"
    walls = count + len(rich_state().battlemap.walls)
    assert error.problem == f"{walls:,} walls, more than the limit of {limits.MAX_WALLS:,}"


def test_a_million_walls_are_refused_before_parsing(tmp_path: Path) -> None:
    compact = '{"start":[0,0],"end":[1,1]}'  # 28 MB of them: under the entry's size cap
    error = refused_text(tmp_path, with_items("walls", compact, 1_000_000))
    assert error.place == "encounter.json"
    assert "arrays and objects" in error.problem


def test_portals_over_the_limit_are_refused(tmp_path: Path) -> None:
    count = limits.MAX_PORTALS + 1
    portals = [{"id": f"door-{i}", "start": [0.0, i * 0.01], "end": [1.0, i * 0.01],
                "kind": "door", "state": "closed"} for i in range(count)]
    error = refused_document(tmp_path, lambda d: battlemap(d).update(portals=portals))
    assert error.place == "encounter.battlemap.portals"
    assert f"limit of {limits.MAX_PORTALS:,}" in error.problem


def test_an_outline_over_the_limit_is_refused(tmp_path: Path) -> None:
    count = limits.MAX_OUTLINE_POINTS + 1
    outline = [[5 + 0.001 * i, 5 + (i % 2) * 0.5] for i in range(count)]
    error = refused_document(tmp_path,
                             lambda d: battlemap(d)["cover"][0].update(outline=outline))
    assert error.place == "encounter.battlemap.cover[0].outline"
    assert f"{count:,} points" in error.problem


def test_tokens_over_the_limit_are_refused(tmp_path: Path) -> None:
    def crowd(document: Document) -> None:
        original = token(document)
        document["encounter"]["tokens"] = [
            {**copy.deepcopy(original), "id": f"t{i}", "square": [i % 12, 0]}
            for i in range(limits.MAX_TOKENS + 1)
        ]

    error = refused_document(tmp_path, crowd)
    assert error.place == "encounter.tokens"
    assert f"limit of {limits.MAX_TOKENS:,}" in error.problem


def test_thousands_of_pictures_are_refused(tmp_path: Path) -> None:
    entries = rich_entries()
    picture = png_bytes((2, 2))
    for i in range(limits.MAX_IMAGES + 1):
        entries[f"images/extra-{i}.png"] = picture
    error = refused(tmp_path, entries)
    assert error.place == "zip archive"
    assert f"more than the limit of {limits.MAX_IMAGES:,}" in error.problem


# -- numbers ------------------------------------------------------------------------------

def test_a_5001_digit_format_number_is_refused_while_parsing(tmp_path: Path) -> None:
    text = json.dumps(good_document()).replace('"killbox-encounter"', "9" * 5001, 1)
    error = refused_text(tmp_path, text)
    assert error.place == "encounter.json"
    assert "5,001 characters" in error.problem
    assert f"limit of {limits.MAX_NUMBER_CHARS}" in error.problem


@pytest.mark.parametrize("value", ["1e-308", "5e-324", "0.0"])
def test_a_vanishing_square_size_is_refused(tmp_path: Path, value: str) -> None:
    text = json.dumps(good_document()).replace('"square_size": 5.0', f'"square_size": {value}')
    error = refused_text(tmp_path, text)
    assert error.place == "encounter.scale.square_size"
    assert f"between {limits.MIN_SQUARE_SIZE:g} and {limits.MAX_SQUARE_SIZE:g}" in error.problem


@pytest.mark.parametrize("value", ["0", "1e-308", "5e-324", "1e300"])
def test_a_picture_scale_out_of_range_is_refused(tmp_path: Path, value: str) -> None:
    text = json.dumps(good_document()).replace('"pixels_per_square": 70.0',
                                               f'"pixels_per_square": {value}')
    error = refused_text(tmp_path, text)
    assert error.place in ("encounter.battlemap.background.pixels_per_square", "encounter.json")


@pytest.mark.parametrize("value", ["1e999", "-1e999", "1e16"])
def test_a_number_beyond_the_magnitude_limit_is_refused(tmp_path: Path, value: str) -> None:
    text = json.dumps(good_document()).replace('"speed": 30.0', f'"speed": {value}', 1)
    error = refused_text(tmp_path, text)
    assert error.place == "encounter.json"
    assert f"limit of {limits.MAX_MAGNITUDE:g}" in error.problem


def test_a_coordinate_far_off_the_map_is_refused(tmp_path: Path) -> None:
    error = refused_document(
        tmp_path, lambda d: battlemap(d)["walls"][0].update(end=[1e12, 0.0]))
    assert error.place == "encounter.battlemap.walls[0].end[0]"
    assert f"{limits.MAX_COORDINATE:,g} squares" in error.problem


def test_a_duplicate_key_is_refused(tmp_path: Path) -> None:
    text = json.dumps(good_document()).replace('"speed": 30.0', '"speed": 30.0, "speed": 5.0', 1)
    error = refused_text(tmp_path, text)
    assert error.problem == "the key 'speed' appears twice in one object"


# -- values that would fail later, on use --------------------------------------------------

def test_an_unknown_rule_system_is_refused(tmp_path: Path) -> None:
    error = refused_document(tmp_path, lambda d: d["encounter"].update(system="gurps"))
    assert error.place == "encounter.system"


def test_a_token_stat_of_the_wrong_type_is_refused(tmp_path: Path) -> None:
    error = refused_document(tmp_path, lambda d: token(d)["stats"].update(defense="high"))
    assert error.place == "encounter.tokens[0].stats.defense"


def test_an_initiative_order_naming_a_missing_token_is_refused(tmp_path: Path) -> None:
    error = refused_document(
        tmp_path, lambda d: d["encounter"]["combat"]["order"][0].update(token_id="ghost"))
    assert error.place == "encounter.combat.order[0].token_id"
    assert "'ghost', which is not on the map" in error.problem


def test_a_token_twice_in_the_initiative_order_is_refused(tmp_path: Path) -> None:
    def twice(document: Document) -> None:
        order = document["encounter"]["combat"]["order"]
        order[1]["token_id"] = order[0]["token_id"]
        document["encounter"]["combat"]["active"] = order[0]["token_id"]

    error = refused_document(tmp_path, twice)
    assert error.place == "encounter.combat.order[1].token_id"
    assert "in the initiative order twice" in error.problem


def test_the_turn_of_a_token_outside_the_order_is_refused(tmp_path: Path) -> None:
    error = refused_document(tmp_path, lambda d: d["encounter"]["combat"].update(active="ally"))
    assert error.place == "encounter.combat.active"


def test_a_pending_action_of_a_missing_token_is_refused(tmp_path: Path) -> None:
    error = refused_document(
        tmp_path, lambda d: d["encounter"]["combat"]["pending"][0].update(token_id="ghost"))
    assert error.place == "encounter.combat.pending[0].token_id"


def test_a_negative_action_budget_is_refused(tmp_path: Path) -> None:
    error = refused_document(
        tmp_path, lambda d: d["encounter"]["combat"]["order"][0]["budget"].update(half=-1))
    assert error.place == "encounter.combat.order[0].budget.half"
    assert "below zero" in error.problem


@pytest.mark.parametrize("field, value", [
    ("rate_of_fire", -1), ("capacity", -5), ("rate_of_fire", 10**9), ("ammo", 10**9),
])
def test_a_weapon_number_out_of_range_is_refused(tmp_path: Path, field: str, value: int) -> None:
    error = refused_document(tmp_path, lambda d: token(d)["weapons"][0].update({field: value}))
    assert error.place == f"encounter.tokens[0].weapons[0].{field}"


def test_a_light_colour_that_is_not_a_colour_is_refused(tmp_path: Path) -> None:
    error = refused_document(
        tmp_path, lambda d: battlemap(d)["lights"][0].update(colour="not a colour"))
    assert error.place.startswith("encounter.battlemap.lights[0]")


def test_a_png_damaged_past_its_header_is_refused(tmp_path: Path) -> None:
    entries = damaged_png_entries()
    error = refused(tmp_path, entries)
    assert error.place == "images/background.png"
    assert "damaged" in error.problem
