"""Write an encounter's map as a Universal VTT 0.3 file that other tools open.

What goes where:

* walls that block sight and movement -> ``line_of_sight`` (joined into polylines);
* walls that block sight only -> ``objects_line_of_sight`` two-point lines (read back as
  sight-only walls);
* walls that block movement only (glass) -> ``portals`` with ``closed: false``: Universal VTT's
  window, which blocks movement and not sight (Killbox reads them back as windows);
* cover objects -> ``objects_line_of_sight`` closed outlines (first point repeated);
* doors -> ``portals`` with ``closed: true`` (whatever their state: the file holds the map,
  not the moment of play), windows -> ``closed: false``; ``rotation`` is the angle of the
  segment from its first bound to its second (y down, radians), as Dungeondraft writes it;
  ``freestanding`` is true when neither end touches a wall;
* lights -> ``lights`` (colour as AARRGGBB hex, from the model's ``#rrggbbaa``);
* the picture -> ``image``, base64 PNG of exactly ``map_size x pixels_per_grid`` pixels, so
  that tools which place walls by ``pixels_per_grid`` line up. A map without a picture gets
  a plain grey one (several importers need a picture).
"""

from __future__ import annotations

import base64
import io
import json
import math
import os
from typing import Any

import shapely
from PIL import Image

from engine.battlemap import BattleMap, Light, PortalKind, rgba_colour
from engine.files.atomic import atomic_write_bytes
from engine.files.encounter_file import EncounterFile
from engine.files.errors import EncounterFileError
from engine.files.images import MAX_IMAGE_PIXELS, ImageProblem, check_image
from engine.files.uvtt_shapes import Segment, WallIndex
from engine.grid import Point

EXPORT_FORMAT = 0.3
#: Written as ``software``; the importer reads such files without simplifying again.
SOFTWARE = "Killbox"
DEFAULT_PIXELS_PER_GRID = 64
BLANK_COLOUR = (96, 96, 96)


def export_uvtt(encounter_file: EncounterFile, path: str | os.PathLike[str]) -> None:
    """Write the encounter's map to ``path`` as Universal VTT 0.3, atomically.

    Raises EncounterFileError when the map's picture is missing or unreadable; OSError from
    the file system passes through, and the previous file at ``path`` is then untouched.
    """
    battlemap = encounter_file.state.battlemap
    ppg, picture = _picture(encounter_file, path)
    walls = [(w.start, w.end) for w in battlemap.walls if w.blocks_sight and w.blocks_movement]
    sight_only = [(w.start, w.end) for w in battlemap.walls
                  if w.blocks_sight and not w.blocks_movement]
    glass = [(w.start, w.end) for w in battlemap.walls
             if w.blocks_movement and not w.blocks_sight]
    index = WallIndex(walls)
    document: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "software": SOFTWARE,
        "resolution": {
            "map_origin": {"x": 0, "y": 0},
            "map_size": {"x": battlemap.width, "y": battlemap.height},
            "pixels_per_grid": ppg,
        },
        "line_of_sight": [_points(line) for line in _polylines(walls)],
        "objects_line_of_sight": [
            # One segment each: a chain of them could enclose an area and read back as cover.
            *(_points(segment) for segment in sight_only),
            *(_points([*c.outline, c.outline[0]]) for c in battlemap.cover),
        ],
        "portals": [
            *(_portal(p.start, p.end, p.kind is PortalKind.DOOR, index)
              for p in battlemap.portals),
            *(_portal(a, b, False, index) for a, b in glass),
        ],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [_light(light) for light in battlemap.lights],
    }
    head = json.dumps(document, allow_nan=False)
    encoded = base64.b64encode(picture)
    del picture
    atomic_write_bytes(path, b"".join(
        (head[:-1].encode("utf-8"), b', "image": "', encoded, b'"}\n')
    ))


def _picture(encounter_file: EncounterFile, path: str | os.PathLike[str]) -> tuple[int, bytes]:
    """Pixels per grid square and PNG bytes of exactly the map's size at that resolution."""
    battlemap: BattleMap = encounter_file.state.battlemap
    squares = battlemap.width * battlemap.height
    fitting = max(1, math.isqrt(MAX_IMAGE_PIXELS // squares))
    background = battlemap.background
    if background is None:
        ppg = min(DEFAULT_PIXELS_PER_GRID, fitting)
        # One grey as a 1-bit palette PNG: a tenth of the time and size of an RGB one.
        blank = Image.new("P", (battlemap.width * ppg, battlemap.height * ppg), 0)
        blank.putpalette(BLANK_COLOUR * 2)
        out = io.BytesIO()
        blank.save(out, "PNG", bits=1)
        return ppg, out.getvalue()
    place = "encounter.battlemap.background.image"
    data = encounter_file.images.get(background.image)
    if data is None:
        raise EncounterFileError(path, place, f"names the image {background.image!r}, "
                                              "which the encounter does not hold")
    try:
        kind, _ = check_image(data)
    except ImageProblem as exc:
        raise EncounterFileError(path, background.image, str(exc)) from exc
    ppg = max(1, min(round(background.pixels_per_square), fitting))
    size = (battlemap.width * ppg, battlemap.height * ppg)
    # The part of the picture the map covers, in picture pixels (the grid's offset and size).
    pps = background.pixels_per_square
    box = (
        background.offset_x,
        background.offset_y,
        background.offset_x + battlemap.width * pps,
        background.offset_y + battlemap.height * pps,
    )
    try:
        with Image.open(io.BytesIO(data), formats=[kind]) as image:
            whole = box == (0, 0, *image.size)
            if kind == "PNG" and image.size == size and whole:
                return ppg, data
            image.load()
            mode = "RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB"
            picture = image.convert(mode)
            if not whole:
                left, top, right, bottom = (round(v) for v in box)
                picture = picture.crop((left, top, right, bottom))  # pads outside with black
            converted = picture.resize(size, Image.Resampling.LANCZOS)
            return ppg, _png(converted)
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise EncounterFileError(path, background.image, f"cannot be decoded: {exc}") from exc


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _polylines(items: list[Segment]) -> list[list[Point]]:
    """Segments joined end to end into the fewest polylines (Dungeondraft's shape)."""
    if not items:
        return []
    merged = shapely.line_merge(shapely.multilinestrings([[a, b] for a, b in items]))
    parts = getattr(merged, "geoms", [merged])
    return [[(float(x), float(y)) for x, y in part.coords] for part in parts]


def _points(points: list[Point] | tuple[Point, ...]) -> list[dict[str, float]]:
    return [{"x": x, "y": y} for x, y in points]


def _portal(start: Point, end: Point, closed: bool, walls: WallIndex) -> dict[str, Any]:
    return {
        "position": {"x": (start[0] + end[0]) / 2, "y": (start[1] + end[1]) / 2},
        "bounds": _points([start, end]),
        "rotation": math.atan2(end[1] - start[1], end[0] - start[0]),
        "closed": closed,
        "freestanding": not (walls.touches(start) or walls.touches(end)),
    }


def _light(light: Light) -> dict[str, Any]:
    return {
        "position": {"x": light.position[0], "y": light.position[1]},
        "range": light.range,
        "intensity": light.intensity,
        "color": _colour(light.colour),
        "shadows": True,
    }


def _colour(colour: str) -> str:
    """The model's ``#rrggbbaa`` -> Universal VTT's ``aarrggbb``."""
    digits = rgba_colour(colour).removeprefix("#")
    return digits[6:] + digits[:6]


__all__ = ["EXPORT_FORMAT", "export_uvtt"]
