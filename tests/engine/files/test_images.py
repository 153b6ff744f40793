"""Image entries: format by magic bytes, size from the header, never a decoded bomb."""

from __future__ import annotations

import io
import struct

import pytest
from PIL import Image

from engine.files.images import MAX_IMAGE_PIXELS, ImageProblem, check_image, sniff_format
from tests.engine.files.builders import huge_png, image_bytes


@pytest.mark.parametrize("fmt, expected", [("PNG", "PNG"), ("JPEG", "JPEG"), ("WEBP", "WEBP")])
def test_the_three_formats_are_accepted_with_their_size(fmt: str, expected: str) -> None:
    assert check_image(image_bytes(fmt, (13, 7))) == (expected, (13, 7))


@pytest.mark.parametrize("options", [{"lossless": True}, {"lossless": False},
                                     {"lossless": True, "exif": b"Exif\x00\x00"}])
def test_every_webp_header_kind_gives_its_size(options: dict[str, object]) -> None:
    # Lossless is a VP8L chunk, lossy a VP8 chunk, with metadata a VP8X chunk.
    buffer = io.BytesIO()
    Image.new("RGB", (21, 9), "teal").save(buffer, "WEBP", **options)
    assert check_image(buffer.getvalue()) == ("WEBP", (21, 9))


@pytest.mark.parametrize("fmt", ["GIF", "BMP", "TIFF", "ICO"])
def test_other_formats_are_refused(fmt: str) -> None:
    with pytest.raises(ImageProblem, match="not a PNG, JPEG or WebP image"):
        check_image(image_bytes(fmt, (16, 16)))


def test_an_empty_entry_is_refused() -> None:
    with pytest.raises(ImageProblem, match="empty"):
        check_image(b"")


def test_magic_bytes_decide_the_format_not_the_name() -> None:
    assert sniff_format(image_bytes("JPEG")) == "JPEG"
    assert sniff_format(b"RIFF\x00\x00\x00\x00WAVEfmt ") is None


def test_a_huge_png_header_is_refused_with_its_size() -> None:
    with pytest.raises(ImageProblem, match=r"100000x100000 pixels \(10,000,000,000\)"):
        check_image(huge_png(100_000, 100_000))


def test_a_huge_jpeg_header_is_refused_with_its_size() -> None:
    data = bytearray(image_bytes("JPEG", (8, 8)))
    sof = data.index(b"\xff\xc0")
    data[sof + 5: sof + 9] = struct.pack(">HH", 60_000, 50_000)  # height, width
    with pytest.raises(ImageProblem, match="50000x60000 pixels"):
        check_image(bytes(data))


def test_a_huge_webp_header_is_refused_before_pillow_opens_it() -> None:
    # Pillow's WebP reader allocates the canvas on opening, so this must stop earlier.
    width, height = 16_000, 16_000
    body = b"WEBP" + b"VP8X" + struct.pack("<I", 10) + b"\x00" * 4
    body += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    with pytest.raises(ImageProblem, match="16000x16000 pixels"):
        check_image(b"RIFF" + struct.pack("<I", len(body)) + body)


def test_the_limit_is_documented_and_near_what_qt_will_draw() -> None:
    # 8192 x 8192 RGBA is 256 MiB, Qt 6's default image allocation limit.
    assert MAX_IMAGE_PIXELS * 4 == 256 * 1024 * 1024


def test_a_png_with_a_broken_checksum_is_refused() -> None:
    data = bytearray(image_bytes("PNG", (30, 30)))
    idat = data.index(b"IDAT")
    data[idat + 6] ^= 0xFF
    with pytest.raises(ImageProblem, match="damaged"):
        check_image(bytes(data))
