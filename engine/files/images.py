"""Checks an image entry before anything decodes it: format by magic bytes, size from the header.

The pixel limit keeps a hostile or careless file from making the app allocate gigabytes: the
size is read from the image header and compared before any pixel data is decompressed.
"""

from __future__ import annotations

import io
import struct

from PIL import Image, ImageFile, JpegImagePlugin, PngImagePlugin, WebPImagePlugin

#: Most pixels an image in an encounter file may have (8192 x 8192, 64 Mpx).
#: Decoded as RGBA that is 256 MiB, which is also Qt 6's default image allocation limit,
#: so anything larger could not be drawn by the desktop app anyway. At 64 px a square it
#: allows a 128 x 128 square map; importers should scale bigger pictures down.
MAX_IMAGE_PIXELS = 8192 * 8192

#: The formats an encounter file may hold, as Pillow names them.
IMAGE_FORMATS = ("PNG", "JPEG", "WEBP")


# Opening through the format's own class (not Image.open) reads the header without Pillow's
# global decompression-bomb check, which would refuse big images before ours can say how big.
_OPENERS: dict[str, type[ImageFile.ImageFile]] = {
    "PNG": PngImagePlugin.PngImageFile,
    "JPEG": JpegImagePlugin.JpegImageFile,
    "WEBP": WebPImagePlugin.WebPImageFile,
}


class ImageProblem(ValueError):
    """Why an image entry is refused (the caller adds the file and entry name)."""


def sniff_format(data: bytes) -> str | None:
    """PNG, JPEG or WEBP from the magic bytes at the start, else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    """Canvas size from a WebP header, read by hand.

    Pillow's WebP reader allocates the whole canvas when it opens the file, so the size is
    checked before Pillow sees it.
    """
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _check_pixels(width: int, height: int) -> None:
    if width <= 0 or height <= 0:
        raise ImageProblem(f"the image header gives an empty size {width}x{height}")
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageProblem(
            f"the image is {width}x{height} pixels ({width * height:,}), more than the limit of "
            f"{MAX_IMAGE_PIXELS:,} pixels (for example 8192x8192); scale it down"
        )


def check_image(data: bytes, *, decode: bool = False) -> tuple[str, tuple[int, int]]:
    """The format and size of an image entry, or ImageProblem saying why it is refused.

    The header gives the size, checked first; then Pillow's ``verify`` walks the file
    structure (chunk checksums for PNG) without decompressing it. With ``decode`` the pixels
    are decoded too (at most MAX_IMAGE_PIXELS, so at most 256 MiB, dropped at once): a
    picture whose data is damaged past its header is refused on load, not shown as nothing.
    """
    if not data:
        raise ImageProblem("the image entry is empty")
    sniffed = sniff_format(data)
    if sniffed is None:
        raise ImageProblem(
            f"not a PNG, JPEG or WebP image (it starts with {data[:8]!r}); "
            "only those formats are allowed"
        )
    if sniffed == "WEBP":
        size = _webp_size(data)
        if size is None:
            raise ImageProblem("the WebP header is damaged or of an unknown kind")
        _check_pixels(*size)
    try:
        with _OPENERS[sniffed](io.BytesIO(data)) as image:
            size = image.size
            _check_pixels(*size)
            image.verify()
        if decode:
            with _OPENERS[sniffed](io.BytesIO(data)) as image:
                image.load()
    except ImageProblem:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageProblem(
            f"the image is larger than the limit of {MAX_IMAGE_PIXELS:,} pixels ({exc})"
        ) from exc
    except (OSError, SyntaxError, ValueError, EOFError,
            struct.error, IndexError) as exc:
        raise ImageProblem(f"the {sniffed} image is damaged: {exc}") from exc
    return sniffed, size
