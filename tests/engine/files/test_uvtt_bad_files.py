"""Bad and huge Universal VTT files: each is refused (or scaled down) with a clear message."""

from __future__ import annotations

import base64
import io
import json
import os
import struct
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.files import images, uvtt, uvtt_picture
from engine.files.encounter_file import EncounterFile
from engine.files.errors import EncounterFileError
from tests.engine.files.uvtt_builders import document, import_map, picture_bytes, point, write


def _refused(path: Path, **options: Any) -> EncounterFileError:
    with pytest.raises(EncounterFileError) as caught:
        import_map(path, **options)
    error = caught.value
    assert error.path == str(path)
    assert str(path) in str(error) and error.place in str(error) and error.problem in str(error)
    return error


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG that claims a size in its header, with a tiny (wrong) body: never decodable."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


# ------------------------------------------------------------------ coordinates and shapes


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_non_finite_coordinate_is_refused_at_its_place(tmp_path: Path, bad: str) -> None:
    doc = document()
    doc["line_of_sight"][0][1]["x"] = "@BAD@"
    text = json.dumps(doc).replace('"@BAD@"', bad)
    error = _refused(write(tmp_path / "m.dd2vtt", text))
    assert error.place == "line_of_sight[0][1].x"
    assert "finite" in error.problem


def test_a_missing_coordinate_is_refused_at_its_place(tmp_path: Path) -> None:
    doc = document()
    del doc["portals"][0]["bounds"][1]["y"]
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert (error.place, error.problem) == ("portals[0].bounds[1].y", "missing")


def test_a_coordinate_given_as_text_is_refused(tmp_path: Path) -> None:
    doc = document()
    doc["lights"][0]["position"]["y"] = "3.5"
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "lights[0].position.y" and "must be a number" in error.problem


def test_a_wall_with_one_point_is_refused(tmp_path: Path) -> None:
    doc = document(line_of_sight=[[point(1, 1), point(2, 1)], [point(3, 3)]])
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "line_of_sight[1]"
    assert "at least two points" in error.problem and "has 1" in error.problem


def test_a_wall_whose_points_are_all_the_same_is_refused(tmp_path: Path) -> None:
    doc = document(line_of_sight=[[point(3, 3), point(3, 3), point(3, 3)]])
    assert "no length" in _refused(write(tmp_path / "m.dd2vtt", doc)).problem


def test_a_portal_with_one_bound_is_refused(tmp_path: Path) -> None:
    doc = document()
    doc["portals"][0]["bounds"] = [point(4, 1)]
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "portals[0].bounds" and "two points" in error.problem


def test_a_portal_closed_flag_that_is_not_true_or_false_is_refused(tmp_path: Path) -> None:
    doc = document()
    doc["portals"][0]["closed"] = "yes"
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "portals[0].closed"


def test_a_bad_light_colour_is_refused(tmp_path: Path) -> None:
    doc = document()
    doc["lights"][0]["color"] = "warm yellow"
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "lights[0].color" and "hex colour" in error.problem


# ------------------------------------------------------------------ the document


@pytest.mark.parametrize("version", [1.0, 0.1, "zero point three", True, None, [0.3]])
def test_an_unsupported_format_is_refused(tmp_path: Path, version: object) -> None:
    error = _refused(write(tmp_path / "m.dd2vtt", document(format=version)))
    assert error.place == "format" and "0.2 and 0.3" in error.problem


def test_a_missing_format_is_refused(tmp_path: Path) -> None:
    doc = document()
    del doc["format"]
    assert _refused(write(tmp_path / "m.dd2vtt", doc)).place == "format"


@pytest.mark.parametrize(
    ("change", "place"),
    [
        ({"resolution": None}, "resolution"),
        ({"resolution": {"map_size": point(10, 8)}}, "resolution.pixels_per_grid"),
        ({"resolution": {"map_size": point(0, 8), "pixels_per_grid": 16}}, "resolution.map_size.x"),
        ({"resolution": {"map_size": point(10, -1), "pixels_per_grid": 16}},
         "resolution.map_size.y"),
        ({"resolution": {"map_size": point(5000, 8), "pixels_per_grid": 16}},
         "resolution.map_size.x"),
        ({"line_of_sight": {"0": []}}, "line_of_sight"),
        ({"portals": [7]}, "portals[0]"),
        ({"environment": []}, "environment"),
    ],
)
def test_a_malformed_section_is_refused_at_its_place(
    tmp_path: Path, change: dict[str, Any], place: str
) -> None:
    assert _refused(write(tmp_path / "m.dd2vtt", document(**change))).place == place


def test_a_file_that_is_not_json_says_where_it_breaks(tmp_path: Path) -> None:
    error = _refused(write(tmp_path / "m.dd2vtt", '{"format": 0.3,\n "resolution": }'))
    assert error.place == "line 2 column 16" and "not valid JSON" in error.problem


@pytest.mark.parametrize("text", ["[]", "", "null"])
def test_a_document_that_is_not_an_object_is_refused(tmp_path: Path, text: str) -> None:
    _refused(write(tmp_path / "m.dd2vtt", text))


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.dd2vtt"
    path.write_bytes(picture_bytes((4, 4)))
    assert "UTF-8" in _refused(path).problem


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    assert "cannot be read" in _refused(tmp_path / "absent.dd2vtt").problem


def test_a_file_over_the_size_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uvtt, "MAX_FILE_BYTES", 1000)
    error = _refused(write(tmp_path / "m.dd2vtt", document()))
    assert "MiB" in error.problem and "refused" in error.problem


# ------------------------------------------------------------------ the picture


def test_truncated_base64_is_refused(tmp_path: Path) -> None:
    doc = document()
    doc["image"] = doc["image"][:-3]
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "image" and "cut short" in error.problem


def test_a_picture_cut_short_is_refused(tmp_path: Path) -> None:
    # The base64 is whole but it encodes only the first part of the PNG.
    whole = picture_bytes((160, 128))
    doc = document(image=whole[: len(whole) // 2 // 3 * 3])
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "image" and "PNG" in error.problem


def test_a_jpeg_cut_short_is_refused(tmp_path: Path) -> None:
    whole = Image.frombytes("RGB", (160, 128), os.urandom(160 * 128 * 3))
    out = io.BytesIO()
    whole.save(out, "JPEG")
    doc = document(image=out.getvalue()[:3000])
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "image" and "JPEG" in error.problem


def test_a_picture_in_another_format_is_refused(tmp_path: Path) -> None:
    gif = io.BytesIO()
    Image.new("P", (16, 16)).save(gif, "GIF")
    error = _refused(write(tmp_path / "m.dd2vtt", document(image=gif.getvalue())))
    assert error.place == "image" and "PNG, WebP or JPEG" in error.problem


def test_line_wrapped_base64_and_a_data_url_are_read(tmp_path: Path) -> None:
    data = picture_bytes((160, 128))
    wrapped = base64.encodebytes(data).decode("ascii")  # a line break every 76 characters
    for text in (wrapped, "data:image/png;base64," + base64.b64encode(data).decode("ascii")):
        doc = document()
        doc["image"] = text
        assert import_map(write(tmp_path / "m.dd2vtt", doc)).images[
            "images/background.png"
        ] == data


def test_a_38400_pixel_png_is_refused_without_decoding_it(tmp_path: Path) -> None:
    doc = document(size=(300, 300), ppg=128, image=_png_header_only(38400, 38400))
    tracemalloc.start()
    try:
        error = _refused(write(tmp_path / "huge.dd2vtt", doc))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert error.place == "image"
    assert "38400x38400" in error.problem and "pixels per grid square" in error.problem
    assert peak < 50 * 2**20  # nothing near the 4 GiB those pixels would take


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> int:
    """Pixel limits shrunk (100 x 100, decode 200 x 200) so big-picture paths run fast."""
    limit = 100 * 100
    monkeypatch.setattr(images, "MAX_IMAGE_PIXELS", limit)
    monkeypatch.setattr(uvtt_picture, "MAX_IMAGE_PIXELS", limit)
    monkeypatch.setattr(uvtt_picture, "MAX_DECODE_PIXELS", 4 * limit)
    return limit


def _picture_of(imported: EncounterFile) -> Image.Image:
    background = imported.state.battlemap.background
    assert background is not None
    return Image.open(io.BytesIO(imported.images[background.image]))


def test_a_png_over_the_limit_is_scaled_down(tmp_path: Path, small_limits: int) -> None:
    doc = document(size=(10, 8), ppg=16, image=picture_bytes((160, 128)))  # 20480 px
    imported = import_map(write(tmp_path / "m.dd2vtt", doc))
    with _picture_of(imported) as picture:
        assert picture.format == "PNG"
        assert picture.size[0] * picture.size[1] <= small_limits
        assert picture.size[0] / picture.size[1] == pytest.approx(160 / 128, rel=0.02)
    assert "scaled from 160x128 px" in imported.state.description
    assert imported.state.battlemap.portals[0].start == (4.0, 1.0)  # the walls do not move


def test_a_png_beyond_what_can_be_decoded_is_refused(tmp_path: Path, small_limits: int) -> None:
    doc = document(size=(10, 8), ppg=32, image=picture_bytes((320, 256)))  # 81920 > 40000
    error = _refused(write(tmp_path / "m.dd2vtt", doc))
    assert error.place == "image" and "320x256" in error.problem


def test_a_huge_jpeg_is_decoded_at_reduced_size(tmp_path: Path, small_limits: int) -> None:
    # 640 x 512 px is 8 times the decode limit: only libjpeg's reduced decoding reads it.
    doc = document(size=(10, 8), ppg=64, image=picture_bytes((640, 512), "JPEG", "#c08040"))
    imported = import_map(write(tmp_path / "m.dd2vtt", doc))
    with _picture_of(imported) as picture:
        assert picture.format == "JPEG"
        assert picture.size[0] * picture.size[1] <= small_limits
        red, green, blue = picture.convert("RGB").getpixel((5, 5))  # type: ignore[misc]
        assert abs(red - 0xC0) < 12 and abs(green - 0x80) < 12 and abs(blue - 0x40) < 12


def test_memory_holds_the_picture_text_once(tmp_path: Path) -> None:
    noise = Image.frombytes("RGB", (1280, 1024), os.urandom(1280 * 1024 * 3))
    out = io.BytesIO()
    noise.save(out, "PNG", compress_level=1)
    path = write(tmp_path / "m.dd2vtt", document(size=(10, 8), ppg=128, image=out.getvalue()))
    size = path.stat().st_size
    tracemalloc.start()
    try:
        import_map(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The parse holds the text and the document once each; after that only the bytes.
    assert peak < 2.2 * size
