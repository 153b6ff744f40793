"""Static rendering of an encounter to a picture (``killbox --export-png``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from desktop.scene.map_scene import MapScene
from desktop.scene.style import SQUARE
from engine.encounter import EncounterState

#: Qt's PNG quality (it picks the zlib level: 0 packs hardest, 100 not at all). Qt's
#: default packed the default encounter's 2048x1408 picture in 0.95 s of CPU; 80 takes
#: 0.23 s for a file 15 % larger (3.5 MB instead of 3.0 MB).
PNG_QUALITY = 80
#: Longest side of an exported picture; larger maps are scaled down to fit.
MAX_EXPORT_SIDE = 8192
#: And the most pixels in all (4,000 x 4,000): drawing and packing the largest map with two
#: photographic pictures took 8.1 s of CPU at 8,000 x 8,000, past the 5 s any file may cost
#: (issue 20); at this budget 4.2-4.6 s. Maps up to about 60 x 60 squares at 64 pixels a
#: square are not scaled by it.
MAX_EXPORT_PIXELS = 16_000_000
DEFAULT_PIXELS_PER_SQUARE = 64


def export_pixels_per_square(state: EncounterState, requested: int | None = None) -> float:
    """Pixels per square: the request, else the background's own resolution, capped to fit.
    A request below one pixel is a ValueError (it would draw a picture of one pixel)."""
    bm = state.battlemap
    if requested is not None and requested < 1:
        raise ValueError(f"pixels per square must be 1 or more, not {requested}")
    wanted = float(
        requested
        or (bm.background.pixels_per_square if bm.background else DEFAULT_PIXELS_PER_SQUARE)
    )
    return min(
        wanted,
        MAX_EXPORT_SIDE / max(bm.width, bm.height),
        math.sqrt(MAX_EXPORT_PIXELS / (bm.width * bm.height)),
    )


def render_scene(scene: MapScene, pixels_per_square: float) -> QImage:
    """The map area of a scene as an image, ``pixels_per_square`` pixels to a square."""
    source = scene.map_rect
    factor = pixels_per_square / SQUARE
    width = max(1, round(source.width() * factor))
    height = max(1, round(source.height() * factor))
    # Opaque: the map is drawn over black, so no pixel needs alpha. Drawing into RGB32
    # gives the same pixels as into ARGB32 (checked on every bundled encounter), and the
    # PNG is written as RGB without an unpremultiplying pass: 15 % less encoding time
    # and an 8 % smaller file for the default encounter.
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.black)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, 0, width, height), source, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.end()
    return image


def render_encounter(
    state: EncounterState,
    images: Mapping[str, bytes] | None = None,
    pixels_per_square: int | None = None,
) -> QImage:
    scene = MapScene(state, images)
    return render_scene(scene, export_pixels_per_square(state, pixels_per_square))


def export_png(
    state: EncounterState,
    images: Mapping[str, bytes] | None,
    path: Path,
    pixels_per_square: int | None = None,
) -> QImage:
    """Render an encounter and write it as PNG; raises OSError if the file cannot be written."""
    image = render_encounter(state, images, pixels_per_square)
    # PySide6 6.11's stub types the format as bytes; the binding takes str and refuses bytes.
    if not image.save(str(path), "PNG", PNG_QUALITY):  # type: ignore[call-overload]
        raise OSError(f"could not write the picture to {path}")
    return image
