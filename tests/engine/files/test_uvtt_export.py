"""Universal VTT 0.3 export: what other tools read, and import(export(x)) gives x's map back."""

from __future__ import annotations

import base64
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
import shapely
from PIL import Image

from engine.battlemap import (
    Background,
    BattleMap,
    CoverObject,
    Light,
    Portal,
    PortalKind,
    PortalState,
    Wall,
)
from engine.encounter import EncounterState
from engine.files.encounter_file import EncounterFile
from engine.files.errors import EncounterFileError
from engine.files.uvtt import export_uvtt
from engine.grid import FIVE_FOOT
from tests.engine.files.uvtt_builders import FIXTURE, FIXTURE_MISSING, import_map, picture_bytes


def _office(background: bool = True) -> EncounterFile:
    """A hand-made office: walls, a door, a glass wall, a curtain, a desk, a lamp."""
    battlemap = BattleMap(
        width=12,
        height=9,
        walls=(
            Wall((0.0, 0.0), (12.0, 0.0)),
            Wall((12.0, 0.0), (12.0, 9.0)),
            Wall((0.0, 0.0), (0.0, 9.0)),
            Wall((0.0, 9.0), (5.0, 9.0)),
            Wall((6.0, 9.0), (12.0, 9.0)),
            Wall((6.0, 0.0), (6.0, 4.0), blocks_sight=False),   # glass
            Wall((2.0, 5.0), (4.0, 5.0), blocks_movement=False),  # a curtain
            Wall((4.0, 5.0), (4.0, 7.0), blocks_movement=False),
        ),
        portals=(
            Portal("front", (5.0, 9.0), (6.0, 9.0), PortalKind.DOOR, PortalState.LOCKED),
            Portal("hatch", (6.0, 4.0), (6.0, 5.0), PortalKind.DOOR),
            Portal("pane", (8.0, 0.0), (10.0, 0.0), PortalKind.WINDOW),
        ),
        cover=(CoverObject("desk", "Desk", ((8.0, 3.0), (10.0, 3.0), (10.0, 4.0), (8.0, 4.0))),),
        lights=(Light((3.0, 3.0), 5.0, "#ff80ff40", 0.5),),
        background=Background("images/office.png", 20) if background else None,
    )
    state = EncounterState("Office", "cities-without-number", FIVE_FOOT, battlemap)
    images = {"images/office.png": picture_bytes((240, 180))} if background else {}
    return EncounterFile(state, images)


def _read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _wall_geometry(battlemap: BattleMap, sight: bool, movement: bool) -> shapely.Geometry:
    return shapely.union_all([
        shapely.LineString([w.start, w.end]) for w in battlemap.walls
        if (w.blocks_sight, w.blocks_movement) == (sight, movement)
    ])


def test_the_export_is_universal_vtt_0_3_with_a_picture_of_the_map_size(tmp_path: Path) -> None:
    path = tmp_path / "office.dd2vtt"
    export_uvtt(_office(), path)
    data = _read(path)
    assert data["format"] == 0.3
    assert data["resolution"] == {
        "map_origin": {"x": 0, "y": 0}, "map_size": {"x": 12, "y": 9}, "pixels_per_grid": 20,
    }
    picture = base64.b64decode(data["image"], validate=True)
    assert picture.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(picture)) as image:
        assert image.size == (240, 180)  # map_size x pixels_per_grid, as importers expect


def test_walls_are_joined_into_polylines(tmp_path: Path) -> None:
    path = tmp_path / "office.dd2vtt"
    export_uvtt(_office(), path)
    lines = _read(path)["line_of_sight"]
    # The outer wall is one polyline from (5, 9) round to (6, 9); the glass is not in it.
    assert len(lines) == 1
    assert {(p["x"], p["y"]) for p in (lines[0][0], lines[0][-1])} == {(5.0, 9.0), (6.0, 9.0)}
    assert len(lines[0]) == 6


def test_doors_windows_and_glass_are_portals_with_rotation_and_bounds(tmp_path: Path) -> None:
    path = tmp_path / "office.dd2vtt"
    export_uvtt(_office(), path)
    portals = _read(path)["portals"]
    by_bounds = {tuple((b["x"], b["y"]) for b in p["bounds"]): p for p in portals}
    front = by_bounds[((5.0, 9.0), (6.0, 9.0))]
    assert (front["closed"], front["rotation"], front["freestanding"]) == (True, 0.0, False)
    assert front["position"] == {"x": 5.5, "y": 9.0}
    hatch = by_bounds[((6.0, 4.0), (6.0, 5.0))]
    assert hatch["rotation"] == pytest.approx(math.pi / 2)  # pointing down the map (y down)
    assert hatch["closed"] is True
    pane = by_bounds[((8.0, 0.0), (10.0, 0.0))]
    assert pane["closed"] is False and pane["freestanding"] is False
    glass = by_bounds[((6.0, 0.0), (6.0, 4.0))]
    assert glass["closed"] is False and glass["rotation"] == pytest.approx(math.pi / 2)


def test_lights_and_cover_are_written(tmp_path: Path) -> None:
    path = tmp_path / "office.dd2vtt"
    export_uvtt(_office(), path)
    data = _read(path)
    assert data["lights"] == [{
        "position": {"x": 3.0, "y": 3.0}, "range": 5.0, "intensity": 0.5,
        "color": "40ff80ff", "shadows": True,  # the model's #rrggbbaa as AARRGGBB
    }]
    outlines = [[(p["x"], p["y"]) for p in line] for line in data["objects_line_of_sight"]]
    assert [(8.0, 3.0), (10.0, 3.0), (10.0, 4.0), (8.0, 4.0), (8.0, 3.0)] in outlines


def test_import_of_the_export_gives_the_same_walls_doors_and_cover(tmp_path: Path) -> None:
    original = _office()
    path = tmp_path / "office.dd2vtt"
    export_uvtt(original, path)
    back = import_map(path, system="cities-without-number")
    a, b = original.state.battlemap, back.state.battlemap
    assert (b.width, b.height) == (a.width, a.height)
    for sight, movement in ((True, True), (True, False)):
        assert _wall_geometry(a, sight, movement).equals(_wall_geometry(b, sight, movement))
    # Doors come back as closed doors (a file holds the map, not the moment of play);
    # the glass wall comes back as a window, which blocks movement and not sight.
    portals = {(p.start, p.end): p for p in b.portals}
    assert {k: (p.kind, p.blocks_sight, p.blocks_movement) for k, p in portals.items()} == {
        ((5.0, 9.0), (6.0, 9.0)): (PortalKind.DOOR, True, True),
        ((6.0, 4.0), (6.0, 5.0)): (PortalKind.DOOR, True, True),
        ((8.0, 0.0), (10.0, 0.0)): (PortalKind.WINDOW, False, True),
        ((6.0, 0.0), (6.0, 4.0)): (PortalKind.WINDOW, False, True),
    }
    assert [c.outline for c in b.cover] == [c.outline for c in a.cover]
    assert b.lights == a.lights


@pytest.mark.skipif(not FIXTURE.exists(), reason=FIXTURE_MISSING)
def test_the_real_map_round_trips_exactly(tmp_path: Path) -> None:
    first = import_map(FIXTURE)
    path = tmp_path / "again.dd2vtt"
    export_uvtt(first, path)
    second = import_map(path)
    a, b = first.state.battlemap, second.state.battlemap
    assert {frozenset((w.start, w.end)) for w in b.walls} == {
        frozenset((w.start, w.end)) for w in a.walls
    }
    assert b.portals == a.portals
    assert b.cover == a.cover and b.lights == a.lights
    assert second.images == first.images  # the PNG at 64 px a square goes out unchanged
    # and a third trip changes nothing more (no drift)
    export_uvtt(second, path)
    assert import_map(path).state.battlemap == b


def test_a_map_without_a_picture_gets_a_plain_one(tmp_path: Path) -> None:
    path = tmp_path / "bare.uvtt"
    export_uvtt(_office(background=False), path)
    data = _read(path)
    with Image.open(io.BytesIO(base64.b64decode(data["image"]))) as image:
        assert image.size == (12 * 64, 9 * 64) and image.format == "PNG"
    assert data["resolution"]["pixels_per_grid"] == 64


def test_a_jpeg_background_is_converted_to_a_png_of_the_map_size(tmp_path: Path) -> None:
    office = _office()
    jpeg = picture_bytes((300, 200), "JPEG")
    file = EncounterFile(office.state, {"images/office.png": jpeg})
    path = tmp_path / "office.dd2vtt"
    export_uvtt(file, path)
    with Image.open(io.BytesIO(base64.b64decode(_read(path)["image"]))) as image:
        assert (image.format, image.size) == ("PNG", (240, 180))


def test_a_missing_picture_is_refused_and_the_old_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "office.dd2vtt"
    path.write_text("previous export", encoding="utf-8")
    office = _office()
    broken = EncounterFile(office.state, {})
    with pytest.raises(EncounterFileError) as caught:
        export_uvtt(broken, path)
    assert caught.value.place == "encounter.battlemap.background.image"
    assert path.read_text(encoding="utf-8") == "previous export"
    assert [p.name for p in tmp_path.iterdir()] == ["office.dd2vtt"]  # no temporary left
