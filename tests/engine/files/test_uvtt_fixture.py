"""The real Dungeondraft export: walls, objects, doors and the light land where the picture shows.

The coordinates below were read off the fixture's JSON and checked against its picture
(rendered with the walls drawn over it): a wooden room with a door in its top wall at
x 11-12, y 6; a stone room to its right whose bottom-left door runs down x 12 from y 14.5
to 15.5; a door in the bottom wall at x 9.5-10.5, y 14; a cave to the left; two square
pillars below; a candle by the bed; a figure and a rock as object outlines.
"""

from __future__ import annotations

import base64
import io
import json
import math
import statistics

import pytest
import shapely
from PIL import Image

from engine.battlemap import BattleMap, PortalKind, PortalState
from engine.files.encounter_file import EncounterFile
from tests.engine.files.uvtt_builders import FIXTURE, FIXTURE_MISSING, import_map

pytestmark = pytest.mark.skipif(not FIXTURE.exists(), reason=FIXTURE_MISSING)


@pytest.fixture(scope="module")
def imported() -> EncounterFile:
    return import_map(FIXTURE)


@pytest.fixture(scope="module")
def raw() -> dict[str, object]:
    data: dict[str, object] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def _walls_geometry(battlemap: BattleMap) -> shapely.MultiLineString:
    return shapely.MultiLineString([[w.start, w.end] for w in battlemap.walls])


def _has_wall(battlemap: BattleMap, a: tuple[float, float], b: tuple[float, float]) -> bool:
    return any({w.start, w.end} == {a, b} for w in battlemap.walls)


def test_the_map_is_twenty_by_twenty_squares_at_64_pixels(imported: EncounterFile) -> None:
    battlemap = imported.state.battlemap
    assert (battlemap.width, battlemap.height) == (20, 20)
    assert battlemap.background is not None
    assert battlemap.background.image == "images/background.png"
    assert battlemap.background.pixels_per_square == 64
    with Image.open(io.BytesIO(imported.images["images/background.png"])) as picture:
        assert picture.size == (1280, 1280)


def test_the_picture_bytes_are_stored_unchanged(
    imported: EncounterFile, raw: dict[str, object]
) -> None:
    assert isinstance(raw["image"], str)
    assert imported.images["images/background.png"] == base64.b64decode(raw["image"])


def _farthest(points_of: shapely.Geometry, target: shapely.Geometry) -> float:
    """Directed Hausdorff distance: how far any point of ``points_of`` lies from ``target``."""
    dense = shapely.segmentize(points_of, 0.01)
    return float(max(target.distance(shapely.points(shapely.get_coordinates(dense)))))


def test_each_of_the_nine_wall_polylines_is_within_a_tenth_of_a_square(
    imported: EncounterFile, raw: dict[str, object]
) -> None:
    lines = raw["line_of_sight"]
    assert isinstance(lines, list) and len(lines) == 9
    walls = _walls_geometry(imported.state.battlemap)
    originals = [shapely.LineString([(p["x"], p["y"]) for p in line]) for line in lines]
    for original in originals:  # no part of any original wall was lost or moved far
        assert _farthest(original, walls) <= 0.1
    # and no imported wall lies further than a tenth of a square from the originals
    assert _farthest(walls, shapely.MultiLineString(originals)) <= 0.1
    assert shapely.hausdorff_distance(walls, shapely.MultiLineString(originals), 0.01) <= 0.1


def test_straight_room_walls_are_kept_exactly(imported: EncounterFile) -> None:
    battlemap = imported.state.battlemap
    # The top wall of the wooden room steps down at x 9 to 10 (first polyline).
    assert _has_wall(battlemap, (9.0, 5.0), (9.0, 7.0))
    assert _has_wall(battlemap, (10.0, 6.0), (11.0, 6.0))
    # The two square pillars below the rooms are closed outlines of four walls each.
    assert _has_wall(battlemap, (5.0, 19.0), (5.0, 17.0))
    assert _has_wall(battlemap, (10.0, 18.0), (10.0, 17.0))
    every_wall_blocks = all(w.blocks_sight and w.blocks_movement for w in battlemap.walls)
    assert every_wall_blocks


def test_the_cave_wall_is_simplified(imported: EncounterFile, raw: dict[str, object]) -> None:
    lines = raw["line_of_sight"]
    assert isinstance(lines, list)
    segments_in_file = sum(len(line) - 1 for line in lines)
    assert len(imported.state.battlemap.walls) < segments_in_file * 0.6


def test_three_closed_doors_sit_in_the_gaps_of_the_walls(imported: EncounterFile) -> None:
    battlemap = imported.state.battlemap
    doors = {frozenset((p.start, p.end)): p for p in battlemap.portals}
    assert set(doors) == {
        frozenset({(11.0, 6.0), (12.0, 6.0)}),
        frozenset({(12.0, 15.5), (12.0, 14.5)}),
        frozenset({(10.5, 14.0), (9.5, 14.0)}),
    }
    for door in battlemap.portals:
        assert (door.kind, door.state) == (PortalKind.DOOR, PortalState.CLOSED)
        for end in (door.start, door.end):  # a wall meets each side of the doorway
            assert any(end in (w.start, w.end) for w in battlemap.walls)
        middle = shapely.Point((door.start[0] + door.end[0]) / 2, (door.start[1] + door.end[1]) / 2)
        assert _walls_geometry(battlemap).distance(middle) >= 0.49  # the doorway is open


def test_two_object_outlines_are_the_figure_and_the_rock(imported: EncounterFile) -> None:
    cover = imported.state.battlemap.cover
    assert len(cover) == 2
    centres = sorted(
        (round(c.x, 1), round(c.y, 1))
        for c in (shapely.Polygon(o.outline).centroid for o in cover)
    )
    assert centres == [(8.5, 10.5), (10.5, 11.0)]
    assert all(o.blocks_sight and o.blocks_movement for o in cover)


def test_the_candle_light_keeps_position_range_and_colour(imported: EncounterFile) -> None:
    (light,) = imported.state.battlemap.lights
    assert light.position == pytest.approx((6.132305, 7.212773))
    assert light.range == pytest.approx(9.900001)
    assert light.colour == "#eccd8bff"


def test_walls_are_drawn_dark_and_the_light_bright_in_the_picture(imported: EncounterFile) -> None:
    battlemap = imported.state.battlemap
    with Image.open(io.BytesIO(imported.images["images/background.png"])) as picture:
        grey = picture.convert("L")

    def brightness(x: float, y: float) -> int:
        value = grey.getpixel((min(1279, int(x * 64)), min(1279, int(y * 64))))
        assert isinstance(value, int)
        return value

    along_walls = [
        brightness((w.start[0] + w.end[0]) / 2, (w.start[1] + w.end[1]) / 2)
        for w in battlemap.walls
    ]
    everywhere = [brightness(x + 0.5, y + 0.5) for x in range(20) for y in range(20)]
    assert statistics.median(along_walls) < statistics.median(everywhere) - 10
    assert brightness(*battlemap.lights[0].position) > 200


def test_progress_reports_rising_stages_up_to_done() -> None:
    seen: list[tuple[float, str]] = []
    import_map(FIXTURE, progress=lambda fraction, stage: seen.append((fraction, stage)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert any("picture" in stage for _, stage in seen)
    assert len({s for _, s in seen}) >= 4


def test_low_cover_switch_makes_the_objects_see_through() -> None:
    imported = import_map(FIXTURE, objects_block_sight=False)
    assert len(imported.state.battlemap.cover) == 2
    assert not any(o.blocks_sight for o in imported.state.battlemap.cover)
    assert math.isclose(imported.state.battlemap.cover[0].height_ft, 3.0)
