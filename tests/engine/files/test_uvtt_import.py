"""Universal VTT import on synthetic files: formats, cropping, picture scale, portals, objects."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
import shapely
from PIL import Image

from engine.battlemap import PortalKind, PortalState
from engine.files.encounter_file import EncounterFile, load_encounter, save_encounter
from engine.files.uvtt import UVTT_SUFFIXES
from engine.rules.cities_without_number.tables import SCALE as METRIC
from tests.engine.files.uvtt_builders import document, import_map, picture_bytes, point, write


def _segments(imported: EncounterFile) -> set[frozenset[tuple[float, float]]]:
    return {frozenset((w.start, w.end)) for w in imported.state.battlemap.walls}


def _picture_size(imported: EncounterFile) -> tuple[int, int]:
    background = imported.state.battlemap.background
    assert background is not None
    with Image.open(io.BytesIO(imported.images[background.image])) as picture:
        return picture.size


def test_the_three_suffixes_are_known() -> None:
    assert UVTT_SUFFIXES == (".dd2vtt", ".uvtt", ".df2vtt")


def test_a_small_map_imports_with_walls_door_object_and_light(tmp_path: Path) -> None:
    imported = import_map(write(tmp_path / "room.uvtt", document()))
    battlemap = imported.state.battlemap
    assert (battlemap.width, battlemap.height) == (10, 8)
    assert _segments(imported) == {
        frozenset({(1.0, 1.0), (4.0, 1.0)}), frozenset({(4.0, 1.0), (4.0, 5.0)}),
    }
    (door,) = battlemap.portals
    assert (door.start, door.end, door.kind, door.state) == (
        (4.0, 1.0), (6.0, 1.0), PortalKind.DOOR, PortalState.CLOSED,
    )
    (crate,) = battlemap.cover
    assert shapely.Polygon(crate.outline).equals(shapely.box(6, 2, 7, 3))
    (light,) = battlemap.lights
    assert (light.position, light.range, light.colour) == ((2.5, 3.5), 4.0, "#eccd8bff")
    assert imported.state.name == "room" and imported.state.system == "spycraft"


def test_the_imported_encounter_saves_and_loads_as_a_killbox_file(tmp_path: Path) -> None:
    imported = import_map(write(tmp_path / "room.dd2vtt", document()))
    save_encounter(tmp_path / "room.killbox", imported)
    loaded = load_encounter(tmp_path / "room.killbox")
    assert loaded.state == imported.state
    assert dict(loaded.images) == dict(imported.images)


def test_the_rule_system_sets_the_grid_scale(tmp_path: Path) -> None:
    path = write(tmp_path / "room.dd2vtt", document())
    imported = import_map(path, system="cities-without-number")
    assert imported.state.scale == METRIC
    with pytest.raises(ValueError, match="no rule system called"):
        import_map(path, system="monopoly")


@pytest.mark.parametrize("version", [0.2, 0.3, "0.2", "0.3", " 0.3 "])
def test_format_may_be_a_number_or_a_string(tmp_path: Path, version: object) -> None:
    imported = import_map(write(tmp_path / "m.dd2vtt", document(format=version)))
    assert len(imported.state.battlemap.walls) == 2


def test_a_cropped_export_is_shifted_by_its_origin(tmp_path: Path) -> None:
    # The same room exported from a bigger map, cropped at square (30, 12).
    cropped = import_map(write(tmp_path / "c.dd2vtt", document(origin=(30, 12))))
    plain = import_map(write(tmp_path / "p.dd2vtt", document()))
    assert _segments(cropped) == _segments(plain)
    assert cropped.state.battlemap.portals == plain.state.battlemap.portals
    assert cropped.state.battlemap.cover == plain.state.battlemap.cover
    assert cropped.state.battlemap.lights == plain.state.battlemap.lights
    assert cropped.state.battlemap.lights[0].position == (2.5, 3.5)


def test_a_fractional_origin_shifts_exactly(tmp_path: Path) -> None:
    doc = document(origin=(0.5, -2.25))
    imported = import_map(write(tmp_path / "c.dd2vtt", doc))
    assert imported.state.battlemap.portals[0].start == (4.0, 1.0)


@pytest.mark.parametrize(("kind", "extension"), [("WEBP", "webp"), ("JPEG", "jpg")])
def test_webp_and_jpeg_pictures_are_recognised_by_their_first_bytes(
    tmp_path: Path, kind: str, extension: str
) -> None:
    data = picture_bytes((160, 128), kind)
    # A misleading suffix and no hint in the JSON: only the bytes tell.
    imported = import_map(write(tmp_path / "m.dd2vtt", document(image=data)))
    background = imported.state.battlemap.background
    assert background is not None and background.image == f"images/background.{extension}"
    assert imported.images[background.image] == data


def test_a_picture_at_another_resolution_is_stretched_over_the_map(tmp_path: Path) -> None:
    # map_size x pixels_per_grid says 160 x 128 px; the picture is half as big.
    imported = import_map(write(tmp_path / "m.dd2vtt", document(image=picture_bytes((80, 64)))))
    battlemap = imported.state.battlemap
    assert (battlemap.width, battlemap.height) == (10, 8)
    assert battlemap.background is not None and battlemap.background.pixels_per_square == 8
    assert "80x64 px where map_size x pixels_per_grid gives 160x128 px" in (
        imported.state.description
    )
    assert _segments(imported) == _segments(import_map(write(tmp_path / "n.dd2vtt", document())))


def test_each_axis_scales_from_the_picture_on_its_own(tmp_path: Path) -> None:
    # 10 x 8 squares; the picture is 160 px wide (16 a square) but 256 px high (32 a square).
    data = picture_bytes((160, 256))
    imported = import_map(write(tmp_path / "m.dd2vtt", document(image=data)))
    # The picture is kept whole and stretched over the 10 x 8 squares, one scale per axis.
    assert imported.images["images/background.png"] == data
    assert (imported.state.battlemap.width, imported.state.battlemap.height) == (10, 8)
    assert imported.state.battlemap.portals[0].start == (4.0, 1.0)


def test_a_fractional_map_size_is_padded_to_whole_squares(tmp_path: Path) -> None:
    doc = document(size=(9.5, 8), image=picture_bytes((152, 128)))
    imported = import_map(write(tmp_path / "m.dd2vtt", doc))
    assert imported.state.battlemap.width == 10
    assert _picture_size(imported) == (160, 128)  # 0.5 square of padding on the right
    with Image.open(io.BytesIO(imported.images["images/background.png"])) as picture:
        assert picture.convert("RGBA").getpixel((155, 10)) == (0, 0, 0, 0)
        assert picture.convert("RGBA").getpixel((100, 10))[3] == 255


def test_a_map_without_a_picture_has_no_background(tmp_path: Path) -> None:
    doc = document()
    del doc["image"]
    imported = import_map(write(tmp_path / "m.dd2vtt", doc))
    assert imported.state.battlemap.background is None and not imported.images


def test_open_portals_are_windows_unless_the_gm_says_open_door(tmp_path: Path) -> None:
    doc = document()
    doc["portals"][0]["closed"] = False
    path = write(tmp_path / "m.dd2vtt", doc)
    (window,) = import_map(path).state.battlemap.portals
    assert (window.kind, window.blocks_sight, window.blocks_movement) == (
        PortalKind.WINDOW, False, True,
    )
    (door,) = import_map(path, open_portals_as="door").state.battlemap.portals
    assert (door.kind, door.state) == (PortalKind.DOOR, PortalState.OPEN)


def test_overlapping_duplicate_portals_are_merged(tmp_path: Path) -> None:
    door = {"position": point(5, 1), "bounds": [point(4, 1), point(6, 1)], "rotation": 0,
            "closed": True, "freestanding": False}
    same_reversed = {**door, "bounds": [point(6, 1), point(4, 1)], "rotation": math.pi}
    overlapping = {**door, "bounds": [point(5, 1), point(6.5, 1)], "closed": False}
    leaf = {**door, "bounds": [point(6.5, 1), point(7.5, 1)]}  # touches end to end only
    doc = document(portals=[door, same_reversed, overlapping, leaf])
    portals = import_map(write(tmp_path / "m.dd2vtt", doc)).state.battlemap.portals
    assert [(p.start, p.end, p.kind) for p in portals] == [
        ((4.0, 1.0), (6.5, 1.0), PortalKind.DOOR),
        ((6.5, 1.0), (7.5, 1.0), PortalKind.DOOR),
    ]
    assert [p.id for p in portals] == ["door-1", "door-2"]


def test_a_wall_drawn_across_a_doorway_is_cut_open(tmp_path: Path) -> None:
    doc = document(line_of_sight=[[point(1, 1), point(9, 1)]])
    imported = import_map(write(tmp_path / "m.dd2vtt", doc))
    assert _segments(imported) == {
        frozenset({(1.0, 1.0), (4.0, 1.0)}), frozenset({(6.0, 1.0), (9.0, 1.0)}),
    }


def test_object_outlines_become_cover_or_sight_only_walls(tmp_path: Path) -> None:
    outlines = [
        # an open outline (the last point does not repeat the first) encloses an area
        [point(6, 2), point(7, 2), point(7, 3), point(6, 3)],
        # a fallen pillar: two points enclose nothing
        [point(2, 6), point(5, 6)],
    ]
    path = write(tmp_path / "m.dd2vtt", document(objects_line_of_sight=outlines))
    tall = import_map(path).state.battlemap
    assert len(tall.cover) == 1 and tall.cover[0].blocks_sight
    sight_only = [w for w in tall.walls if not w.blocks_movement]
    assert [(w.start, w.end, w.blocks_sight) for w in sight_only] == [
        ((2.0, 6.0), (5.0, 6.0), True)
    ]
    low = import_map(path, objects_block_sight=False).state.battlemap
    assert len(low.cover) == 1 and not low.cover[0].blocks_sight
    assert all(w.blocks_movement for w in low.walls)  # no sight-only walls either


def test_a_self_crossing_outline_becomes_valid_cover(tmp_path: Path) -> None:
    bow_tie = [point(0, 0), point(2, 2), point(2, 0), point(0, 2)]
    doc = document(objects_line_of_sight=[bow_tie])
    cover = import_map(write(tmp_path / "m.dd2vtt", doc)).state.battlemap.cover
    assert len(cover) == 2
    assert all(shapely.Polygon(c.outline).is_valid for c in cover)
    assert sum(shapely.Polygon(c.outline).area for c in cover) == pytest.approx(2.0)


def test_repeated_points_in_a_wall_are_dropped(tmp_path: Path) -> None:
    wall = [point(1, 1), point(1, 1), point(3, 1), point(3, 1), point(3, 4)]
    imported = import_map(write(tmp_path / "m.dd2vtt", document(line_of_sight=[wall])))
    assert _segments(imported) == {
        frozenset({(1.0, 1.0), (3.0, 1.0)}), frozenset({(3.0, 1.0), (3.0, 4.0)}),
    }


def test_unknown_keys_from_other_tools_are_ignored(tmp_path: Path) -> None:
    doc = document(software="SomeMapper 2.1", creator={"name": "x"})
    assert import_map(write(tmp_path / "m.dd2vtt", doc)).state.battlemap.width == 10


def test_six_digit_light_colours_are_opaque(tmp_path: Path) -> None:
    doc = document()
    doc["lights"][0]["color"] = "#ff8000"
    (light,) = import_map(write(tmp_path / "m.dd2vtt", doc)).state.battlemap.lights
    assert light.colour == "#ff8000ff"


def test_a_progress_callback_that_raises_cancels_the_import(tmp_path: Path) -> None:
    class Cancelled(Exception):
        pass

    def cancel_at_the_picture(fraction: float, stage: str) -> None:
        if "picture" in stage:
            raise Cancelled

    with pytest.raises(Cancelled):
        import_map(write(tmp_path / "m.dd2vtt", document()), progress=cancel_at_the_picture)


def test_an_unknown_open_portal_choice_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="open_portals_as"):
        import_map(write(tmp_path / "m.dd2vtt", document()), open_portals_as="hole")  # type: ignore[arg-type]


def test_an_older_0_2_file_without_object_outlines_or_freestanding_reads(tmp_path: Path) -> None:
    doc = document(format=0.2)
    del doc["objects_line_of_sight"]
    del doc["portals"][0]["freestanding"]
    imported = import_map(write(tmp_path / "old.df2vtt", doc))
    assert imported.state.battlemap.cover == ()
    assert len(imported.state.battlemap.portals) == 1
    assert "Universal VTT 0.2" in imported.state.description
