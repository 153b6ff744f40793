"""The picture inside a Universal VTT file: base64 text to checked image bytes for the map.

Policy for big pictures (``MAX_IMAGE_PIXELS`` is the encounter file's limit, 64 Mpx):

* up to the limit, the original bytes are kept unchanged (after a full decode proves that
  they are whole);
* a JPEG over the limit is decoded at 1/2, 1/4 or 1/8 size by libjpeg itself (Pillow's
  ``draft``), so even a 38400 x 38400 px export is read in bounded memory, then resized to fit;
* a PNG or WebP over the limit but within ``MAX_DECODE_PIXELS`` (4 x the limit, 16384 x
  16384 px, about 1 GiB decoded) is decoded, then reduced to fit;
* a PNG or WebP larger than that is refused: PNG and WebP cannot be decoded at a reduced
  size, and decoding 38400 x 38400 px would need 6 GiB. The message says which pixels per
  grid square to export at instead.

When ``map_size`` is not a whole number of squares, the picture is padded on the right and
bottom so that it covers whole squares (the app stretches it over the map's bounds).
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import re
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageFile, JpegImagePlugin, PngImagePlugin, WebPImagePlugin

from engine.files.images import MAX_IMAGE_PIXELS, ImageProblem, check_image, sniff_format

#: Most pixels a PNG or WebP picture may have to be decoded and scaled down at all.
MAX_DECODE_PIXELS = 4 * MAX_IMAGE_PIXELS

EXTENSIONS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}

_WHITESPACE = re.compile(r"\s+")
_CHUNK = 1 << 18  # base64 characters decoded at a time (a multiple of 4)
_OPENERS: dict[str, type[ImageFile.ImageFile]] = {
    "PNG": PngImagePlugin.PngImageFile,
    "JPEG": JpegImagePlugin.JpegImageFile,
    "WEBP": WebPImagePlugin.WebPImageFile,
}


class PictureProblem(ValueError):
    """Why the picture is refused (the caller adds the file and the JSON path)."""


@dataclass(frozen=True, slots=True)
class Picture:
    """Image bytes ready to store, their format, size in pixels and what was done to them."""

    data: bytes
    format: str  # PNG, JPEG or WEBP
    size: tuple[int, int]
    original_size: tuple[int, int]
    note: str = ""

    @property
    def extension(self) -> str:
        return EXTENSIONS[self.format]


def pop_base64(document: dict[str, Any], key: str = "image") -> bytes | None:
    """Take the base64 text out of the document and return its bytes (None if absent).

    The text leaves the document first, so when this returns no copy of it is left: the
    largest part of a map file is held once as text and once as bytes, never more. A data:
    URL prefix and line breaks are tolerated.
    """
    text = document.pop(key, None)
    if text is None:
        return None
    if not isinstance(text, str):
        raise PictureProblem(f"must be base64 text, found {type(text).__name__}")
    start = text.index(",") + 1 if text.startswith("data:") and "," in text else 0
    if start >= len(text):
        raise PictureProblem("is empty")
    try:
        decoded = _decode_in_chunks(text, start)
    except (binascii.Error, ValueError):
        pass
    else:
        del text
        return bytes(decoded)
    try:  # some writers wrap base64 in lines; drop the whitespace and try once more
        return base64.b64decode(_WHITESPACE.sub("", text[start:]), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise PictureProblem(
            f"the base64 text is damaged or cut short ({exc}); export the map again"
        ) from exc


def _decode_in_chunks(text: str, start: int) -> bytearray:
    """``b64decode`` without an ASCII copy of the whole text (a chunk at a time)."""
    if (len(text) - start) % 4:
        raise binascii.Error(
            f"{len(text) - start} base64 characters: not a multiple of 4, the text is cut short"
        )
    padding = 2 if text.endswith("==") else 1 if text.endswith("=") else 0
    out = bytearray((len(text) - start) // 4 * 3 - padding)
    written = 0
    for index in range(start, len(text), _CHUNK):
        piece = base64.b64decode(text[index:index + _CHUNK], validate=True)
        out[written:written + len(piece)] = piece
        written += len(piece)
    if written != len(out):
        raise binascii.Error("padding in the middle of the base64 text")
    return out


def load_picture(data: bytes, map_size: tuple[float, float], bounds: tuple[int, int]) -> Picture:
    """Check, and where needed pad or scale down, the picture of a map.

    ``map_size`` is the map in squares as the file gives it, ``bounds`` the whole squares the
    map will have; the result covers ``bounds`` and has at most ``MAX_IMAGE_PIXELS``.
    """
    kind = sniff_format(data)
    if kind is None:
        raise PictureProblem(
            f"is not a PNG, WebP or JPEG picture (its first bytes are {data[:8]!r})"
        )
    try:
        with _open(data, kind) as image:
            original = image.size
            if original[0] <= 0 or original[1] <= 0:
                raise PictureProblem(f"the {kind} header gives an empty size {original}")
            target, content = _target_size(original, map_size, bounds)
            if target == original:
                _prove_whole(image)
                picture = Picture(data, kind, original, original)
            else:
                picture = _resample(image, kind, target, content, map_size)
    except PictureProblem:
        raise
    except Image.DecompressionBombError as exc:
        raise PictureProblem(_too_big(kind, None, map_size)) from exc
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, MemoryError) as exc:
        raise PictureProblem(f"the {kind} picture is damaged or cut short: {exc}") from exc
    try:
        check_image(picture.data)
    except ImageProblem as exc:
        raise PictureProblem(str(exc)) from exc
    return picture


def _prove_whole(image: Image.Image) -> None:
    """Fail if the picture is damaged or cut short, decoding as little as will tell.

    A PNG needs no decoding here: ``check_image`` walks its chunks to the end, checking
    each one's CRC. A JPEG has no checksums, so its whole bit stream is decoded, at 1/8
    size (cheap); a WebP is decoded.
    """
    if isinstance(image, PngImagePlugin.PngImageFile):
        return
    if isinstance(image, JpegImagePlugin.JpegImageFile):
        image.draft("RGB", (max(1, image.size[0] // 8), max(1, image.size[1] // 8)))
    image.load()


def _open(data: bytes, kind: str) -> ImageFile.ImageFile:
    # The format comes from the magic bytes: no plugin guesses. Opening through the plugin
    # class skips Pillow's generic size guard, whose limit is not ours; ``_resample``
    # applies ours before any pixel is decoded.
    return _OPENERS[kind](io.BytesIO(data))


def _target_size(
    original: tuple[int, int], map_size: tuple[float, float], bounds: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The stored picture's size, and the part of it the original picture fills.

    The original covers ``map_size`` squares; padding extends it to ``bounds`` squares.
    Both are then scaled down together, if need be, to fit the pixel limit.
    """
    padded = (
        round(original[0] * bounds[0] / map_size[0]),
        round(original[1] * bounds[1] / map_size[1]),
    )
    scale = min(1.0, math.sqrt(MAX_IMAGE_PIXELS / (padded[0] * padded[1])))
    if scale == 1.0 and padded == original:
        return original, original
    target = (max(1, math.floor(padded[0] * scale)), max(1, math.floor(padded[1] * scale)))
    content = (
        max(1, min(target[0], round(target[0] * map_size[0] / bounds[0]))),
        max(1, min(target[1], round(target[1] * map_size[1] / bounds[1]))),
    )
    return target, content


def _resample(
    image: Image.Image,
    kind: str,
    target: tuple[int, int],
    content: tuple[int, int],
    map_size: tuple[float, float],
) -> Picture:
    """Scale the picture to ``content`` pixels and pad it to ``target``, in bounded memory."""
    original = image.size
    if isinstance(image, JpegImagePlugin.JpegImageFile):
        image.draft("RGB", content)  # libjpeg decodes at 1/2, 1/4 or 1/8 size, never smaller
    if image.size[0] * image.size[1] > MAX_DECODE_PIXELS:
        raise PictureProblem(_too_big(kind, original, map_size))
    image.load()
    mode = "RGB" if kind == "JPEG" else "RGBA"
    picture: Image.Image = image
    if picture.mode not in ("RGB", "RGBA", "L", "LA"):  # palette, CMYK, 16-bit...
        picture = picture.convert(mode)
    if picture.size != content:
        factor = min(picture.size[0] // content[0], picture.size[1] // content[1])
        if factor >= 2:  # a fast box reduce first (before any copy), a good resample after
            picture = picture.reduce(factor)
        picture = picture.resize(content, Image.Resampling.LANCZOS)
    if picture.mode != mode:
        picture = picture.convert(mode)
    canvas = picture
    if target != content:
        canvas = Image.new(mode, target, (0, 0, 0) if mode == "RGB" else (0, 0, 0, 0))
        canvas.paste(picture, (0, 0))
    del picture
    out = io.BytesIO()
    if kind == "JPEG":
        canvas.save(out, "JPEG", quality=90)
    elif kind == "WEBP":
        canvas.save(out, "WEBP", quality=90)
    else:
        canvas.save(out, "PNG", compress_level=3)
    steps = []
    if content != original:
        steps.append(f"scaled from {original[0]}x{original[1]} px")
    if target != content:
        steps.append("padded to whole squares")
    note = f"{' and '.join(steps)} to {target[0]}x{target[1]} px"
    return Picture(out.getvalue(), kind, target, original, note)


def _too_big(
    kind: str, size: tuple[int, int] | None, map_size: tuple[float, float]
) -> str:
    text = f"{size[0]}x{size[1]} px ({size[0] * size[1]:,} pixels)" if size else "too large"
    fitting = max(1, math.isqrt(int(MAX_IMAGE_PIXELS / (map_size[0] * map_size[1]))))
    return (
        f"the {kind} picture is {text}: a PNG or WebP can be scaled down only up to "
        f"{MAX_DECODE_PIXELS:,} pixels (16384x16384) and the map keeps at most "
        f"{MAX_IMAGE_PIXELS:,}; export the map again at {fitting} pixels per grid square or "
        f"fewer, or as JPEG"
    )
