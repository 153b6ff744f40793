"""Universal VTT maps (.dd2vtt, .uvtt, .df2vtt): import to an encounter, export back.

Universal VTT is the JSON that Dungeondraft, DungeonFog, Dungeon Alchemist and others
export: the map picture as base64 plus walls, doors and lights in grid squares, y down.

How each field lands in Killbox (``import_uvtt``):

* ``format``: 0.2 or 0.3, as a number or a string; anything else is refused.
* ``resolution``: ``map_size`` gives the map's squares (rounded up to whole squares, at
  most ``MAX_MAP_SIDE`` a side);
  ``map_origin`` is subtracted from every coordinate (a cropped export); ``pixels_per_grid``
  is only a hint: the picture is stretched over ``map_size`` on each axis, so a picture
  exported at another resolution (or with a different scale per axis) still lines up.
* ``line_of_sight``: wall polylines -> ``Wall`` segments (block sight and movement).
  Cave walls are simplified (see ``uvtt_shapes``): no wall moves by more than 0.095 of a
  square.
* ``objects_line_of_sight``: outlines of things drawn on the map (pillars, statues, rocks).
  An outline enclosing an area becomes a ``CoverObject`` (half cover, blocks movement);
  with ``objects_block_sight`` (the default, what other tools do) it also blocks sight and
  counts as taller than a person, without it it is low cover one sees over. An outline that
  encloses no area (two points, or all in a line) becomes sight-only walls when
  ``objects_block_sight`` is on, and is dropped when it is off.
* ``portals``: ``bounds`` gives the segment. ``closed: true`` is a closed door; ``closed:
  false`` is a window, or an open door when ``open_portals_as="door"``. Overlapping
  duplicates are merged (a door wins over a window). ``position`` and ``rotation`` are checked
  but the segment comes from ``bounds``; ``freestanding`` is not kept (the model has no such
  thing). Wall parts drawn straight across a portal are cut away so the doorway can open.
* ``lights``: ``Light`` with position, range (squares), intensity and colour (the file's
  ``AARRGGBB`` turned into the model's ``#rrggbbaa``); ``shadows`` is not kept.
* ``environment``: checked, not kept: the model has no ambient light, and the picture is
  shown as it is (as with ``baked_lighting``).
* ``image``: base64 PNG, WebP or JPEG, told apart by its first bytes, checked with Pillow
  and stored unchanged as the entry ``images/background.<ext>``; see ``uvtt_picture`` for
  damaged pictures and pictures over the pixel limit (scaled down, or refused).

Keys Killbox does not know (tools add their own) are ignored. A file Killbox exported
(``"software": "Killbox"``) is read exactly as written, without simplifying again or cutting
doorways (it was done on the first import), so round trips give the same walls back and
never drift. Files over ``MAX_FILE_BYTES`` are refused unread. Any problem is an
``EncounterFileError`` naming the file, the JSON path and what is wrong.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from engine import limits
from engine.battlemap import (
    Background,
    BattleMap,
    CoverGrade,
    CoverObject,
    Light,
    Portal,
    PortalKind,
    PortalState,
    Wall,
    rgba_colour,
)
from engine.encounter import EncounterState
from engine.files.encounter_file import IMAGE_FOLDER, EncounterFile
from engine.files.encounter_limits import check_encounter_limits
from engine.files.encounter_text import encounter_to_json
from engine.files.errors import EncounterFileError
from engine.files.json_text import JsonProblem, parse_json
from engine.files.uvtt_export import SOFTWARE, export_uvtt
from engine.files.uvtt_json import Reader
from engine.files.uvtt_picture import Picture, PictureProblem, load_picture, pop_base64
from engine.files.uvtt_shapes import (
    Segment,
    TooTangled,
    cut_out,
    merge_overlapping,
    overlapping_pairs,
    polygon_outlines,
    segments,
    simplify_polylines,
    without_repeats,
)
from engine.grid import GridScale, Point
from engine.words import counted

#: File name endings of Universal VTT exports (Dungeondraft, generic, DungeonFog).
UVTT_SUFFIXES = (".dd2vtt", ".uvtt", ".df2vtt")

#: The Universal VTT format versions this importer reads.
SUPPORTED_FORMATS = (0.2, 0.3)

#: Largest file read at all (a 16384 x 16384 px PNG export is well under it).
MAX_FILE_BYTES = 1 << 30

#: Most squares a map may have along one side.
MAX_MAP_SIDE = limits.MAX_MAP_SIDE

#: Height given to an imported object that blocks sight (taller than a standing person).
TALL_OBJECT_FT = 8.0
LOW_OBJECT_FT = 3.0

Progress = Callable[[float, str], None]

__all__ = [
    "MAX_FILE_BYTES",
    "SUPPORTED_FORMATS",
    "UVTT_SUFFIXES",
    "Progress",
    "export_uvtt",
    "import_uvtt",
]


def import_uvtt(
    path: str | os.PathLike[str],
    *,
    system: str,
    objects_block_sight: bool = True,
    open_portals_as: Literal["window", "door"] = "window",
    progress: Progress | None = None,
) -> EncounterFile:
    """Read a Universal VTT export as a new encounter with its map (and no tokens).

    ``system`` is the rule system the encounter is for, which gives the grid its scale: a
    Universal VTT file says nothing of rules, so the caller says (the desktop passes the
    one the GM chose, by default that of the encounter open).

    ``progress(fraction, stage)`` is called as the stages go by (0.0 to 1.0), so a window
    can show a progress bar; an exception it raises (a Cancel button) stops the import and
    propagates. Raises EncounterFileError for any problem with the file, ValueError for an
    unknown ``system`` or ``open_portals_as``.
    """
    if open_portals_as not in ("window", "door"):
        raise ValueError(f"open_portals_as must be 'window' or 'door', not {open_portals_as!r}")
    report: Progress = progress or _silent
    reader = Reader(path)

    report(0.0, "Reading the file")
    scale = _scale_of(system)
    # The picture is most of the file: ``pop_base64`` takes its text out of the document
    # and drops it as soon as it is decoded, so it is never held twice.
    root = reader.obj(_read_json(path), [])
    version = _format(reader, root)
    origin, map_size, pixels_per_grid = _resolution(reader, root)
    bounds = (_whole_squares(map_size[0]), _whole_squares(map_size[1]))

    picture: Picture | None = None
    if "image" in root:
        report(0.25, "Decoding the picture")
        try:
            data = pop_base64(root, "image")
            if data is not None:
                picture = load_picture(data, map_size, bounds)
            del data
        except PictureProblem as exc:
            raise reader.fail(["image"], str(exc)) from exc

    report(0.7, "Reading walls, doors and lights")
    _check_counts(reader, root)
    # Walls Killbox wrote were cleaned up when first imported: simplifying them again
    # could move them further (Douglas-Peucker is not idempotent), so they are read as is.
    simplify = not _written_by_killbox(root)
    content = _MapReader(reader, origin, objects_block_sight, open_portals_as, simplify)
    wall_lines = content.wall_lines(root)
    object_lines, cover = content.objects(root)
    portals = content.portals(root)
    lights = content.lights(root)
    content.check_environment(root)

    report(0.85, "Simplifying walls")
    lines = [*wall_lines, *object_lines]
    if simplify:
        walls = _walls(simplify_polylines(lines), len(wall_lines), portals)
    else:
        walls = _walls(lines, len(wall_lines), ())

    if len(walls) > limits.MAX_WALLS:
        raise reader.fail(
            ["line_of_sight"],
            f"the walls make {len(walls):,} wall segments, more than the limit of "
            f"{limits.MAX_WALLS:,}",
        )

    notes = [f"Imported from {Path(path).name} (Universal VTT {version:g})"]
    images: dict[str, bytes] = {}
    background = None
    if picture is not None:
        notes.extend(_picture_notes(picture, map_size, pixels_per_grid))
        name = f"{IMAGE_FOLDER}background.{picture.extension}"
        images[name] = picture.data
        background = Background(name, picture.size[0] / bounds[0])
    try:
        battlemap = BattleMap(
            width=bounds[0], height=bounds[1], walls=walls, portals=portals,
            cover=cover, lights=lights, background=background,
        )
        state = EncounterState(
            name=Path(path).stem or "Imported map",
            system=system,
            scale=scale,
            battlemap=battlemap,
            description="; ".join(notes),
        )
        encounter = EncounterFile(state, images)
    except ValueError as exc:  # a model rule the checks above did not foresee
        raise EncounterFileError(path, "(map)", str(exc)) from exc
    # What was imported must save and load again as a .killbox file: the same limits.
    check_encounter_limits(encounter_to_json(state)["encounter"], path)
    report(1.0, "Done")
    return encounter


def _scale_of(system: str) -> GridScale:
    """The grid scale of a registered rule system (ValueError for an unknown name)."""
    from engine.rules import UnknownSystem, get_system  # the systems load on first use

    try:
        return get_system(system).scale
    except UnknownSystem as exc:
        raise ValueError(str(exc)) from None


def _written_by_killbox(root: dict[str, Any]) -> bool:
    software = root.get("software")
    return isinstance(software, str) and software.startswith(SOFTWARE)


def _silent(fraction: float, stage: str) -> None:
    del fraction, stage


def _read_json(path: str | os.PathLike[str]) -> Any:
    try:
        size = os.stat(path).st_size
        if size > MAX_FILE_BYTES:
            raise EncounterFileError(
                path, "(file)",
                f"is {size / 2**20:,.0f} MiB; Universal VTT files over "
                f"{MAX_FILE_BYTES / 2**20:,.0f} MiB are refused",
            )
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except OSError as exc:
        raise EncounterFileError(path, "(file)", f"cannot be read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise EncounterFileError(
            path, "(file)", f"is not UTF-8 JSON text (byte {exc.start}); is it a map export?"
        ) from exc
    try:
        return parse_json(text, limits.MAX_UVTT_JSON_CONTAINERS, magnitudes=False)
    except JsonProblem as exc:
        raise EncounterFileError(path, exc.place or "(file)", exc.problem) from exc


def _check_counts(reader: Reader, root: dict[str, Any]) -> None:
    """Refuse a document over the limits (engine.limits) before any wall is built."""
    counts = (
        ("line_of_sight", limits.MAX_WALLS, "wall lines", limits.MAX_UVTT_LINE_POINTS),
        ("objects_line_of_sight", limits.MAX_COVER_OBJECTS, "object outlines",
         limits.MAX_OUTLINE_POINTS),
        ("portals", limits.MAX_PORTALS, "doors and windows", None),
        ("lights", limits.MAX_LIGHTS, "lights", None),
    )
    total = 0
    for key, most, what, most_points in counts:
        items = reader.optional_array(root, key, [])
        if len(items) > most:
            raise reader.fail([key], _over(len(items), most, what))
        if most_points is None:
            continue
        for index, line in enumerate(items):
            points = len(line) if isinstance(line, list) else 0
            if points > most_points:
                raise reader.fail([key, index], _over(points, most_points, "points"))
            total += points
            if total > limits.MAX_UVTT_POINTS:
                raise reader.fail([key], _over(
                    total, limits.MAX_UVTT_POINTS,
                    "wall and outline points (counted so far)",
                ))


def _over(found: int, limit: int, what: str) -> str:
    return f"{found:,} {what}, more than the limit of {limit:,}"


def _format(reader: Reader, root: dict[str, Any]) -> float:
    raw = reader.member(root, "format", [])
    value: float | None = None
    if isinstance(raw, str):
        try:
            value = float(raw.strip())
        except ValueError:
            value = None
    elif isinstance(raw, int | float) and not isinstance(raw, bool):
        value = float(raw)
    supported = " and ".join(f"{v:g}" for v in SUPPORTED_FORMATS)
    if value is None or not any(math.isclose(value, v, abs_tol=1e-9) for v in SUPPORTED_FORMATS):
        raise reader.fail(
            ["format"], f"Universal VTT format {raw!r} is not supported; Killbox reads {supported}"
        )
    return value


def _picture_notes(
    picture: Picture, map_size: tuple[float, float], pixels_per_grid: float
) -> list[str]:
    """What the GM may want to know about the picture (kept in the description)."""
    notes = []
    expected = (map_size[0] * pixels_per_grid, map_size[1] * pixels_per_grid)
    width, height = picture.original_size
    if abs(width - expected[0]) > 1 or abs(height - expected[1]) > 1:
        notes.append(
            f"the picture is {width}x{height} px where map_size x pixels_per_grid gives "
            f"{expected[0]:g}x{expected[1]:g} px: it is stretched over the map on each axis"
        )
    if picture.note:
        notes.append(f"picture {picture.note}")
    return notes


def _resolution(
    reader: Reader, root: dict[str, Any]
) -> tuple[Point, tuple[float, float], float]:
    keys: list[str | int] = ["resolution"]
    resolution = reader.obj(reader.member(root, "resolution", []), keys)
    origin_value = resolution.get("map_origin")
    origin = (0.0, 0.0) if origin_value is None else reader.point(
        origin_value, [*keys, "map_origin"]
    )
    size = reader.obj(reader.member(resolution, "map_size", keys), [*keys, "map_size"])
    width = reader.positive(reader.member(size, "x", [*keys, "map_size"]), [*keys, "map_size", "x"])
    height = reader.positive(
        reader.member(size, "y", [*keys, "map_size"]), [*keys, "map_size", "y"]
    )
    for axis, value in (("x", width), ("y", height)):
        if value > MAX_MAP_SIDE:
            raise reader.fail(
                [*keys, "map_size", axis],
                f"{counted(value, 'square')} is more than the {MAX_MAP_SIDE} a map may have "
                "on a side",
            )
        if value < limits.MIN_UVTT_MAP_SIZE:
            raise reader.fail(
                [*keys, "map_size", axis],
                f"{counted(value, 'square')} is less than the {limits.MIN_UVTT_MAP_SIZE:g} a "
                "map must have on a side",
            )
    pixels_per_grid = reader.positive(
        reader.member(resolution, "pixels_per_grid", keys), [*keys, "pixels_per_grid"]
    )
    if not limits.MIN_PIXELS_PER_SQUARE <= pixels_per_grid <= limits.MAX_PIXELS_PER_SQUARE:
        raise reader.fail(
            [*keys, "pixels_per_grid"],
            f"must lie between {limits.MIN_PIXELS_PER_SQUARE:g} and "
            f"{limits.MAX_PIXELS_PER_SQUARE:g}, found {pixels_per_grid:g}",
        )
    return origin, (width, height), pixels_per_grid


def _whole_squares(size: float) -> int:
    # A size a hair over a whole number (float noise in the export) does not add a square.
    return max(1, math.ceil(size - 1e-6))


class _MapReader:
    """Reads the map content of one document, shifted by the map origin."""

    def __init__(
        self, reader: Reader, origin: Point, objects_block_sight: bool,
        open_portals_as: Literal["window", "door"], simplify: bool,
    ) -> None:
        self.reader = reader
        self.simplify = simplify
        self.origin = origin
        self.objects_block_sight = objects_block_sight
        self.open_portals_as = open_portals_as

    def shifted(self, point: Point) -> Point:
        return (point[0] - self.origin[0], point[1] - self.origin[1])

    def polyline(self, value: Any, keys: list[str | int], what: str) -> list[Point]:
        points = self.reader.points(value, keys)
        if len(points) < 2:
            raise self.reader.fail(
                keys, f"{what} needs at least two points, this one has {len(points)}"
            )
        distinct = without_repeats([self.shifted(p) for p in points])
        if len(distinct) < 2:
            raise self.reader.fail(keys, f"{what} has no length: all its points are the same")
        return distinct

    def wall_lines(self, root: dict[str, Any]) -> list[list[Point]]:
        return [
            self.polyline(value, ["line_of_sight", i], "a wall")
            for i, value in enumerate(self.reader.optional_array(root, "line_of_sight", []))
        ]

    def objects(
        self, root: dict[str, Any]
    ) -> tuple[list[list[Point]], tuple[CoverObject, ...]]:
        """Sight-only wall polylines, and cover objects, from the object outlines."""
        lines: list[list[Point]] = []
        cover: list[CoverObject] = []
        outlines = self.reader.optional_array(root, "objects_line_of_sight", [])
        for i, value in enumerate(outlines):
            points = self.polyline(value, ["objects_line_of_sight", i], "an object outline")
            try:
                rings = polygon_outlines(points, simplify=self.simplify)
            except TooTangled as exc:
                raise self.reader.fail(["objects_line_of_sight", i], str(exc)) from exc
            if not rings and self.objects_block_sight:
                lines.append(points)
            for ring in rings:
                number = len(cover) + 1
                cover.append(CoverObject(
                    id=f"object-{number}",
                    name=f"Object {number}",
                    outline=tuple(ring),
                    grade=CoverGrade.HALF,
                    height_ft=TALL_OBJECT_FT if self.objects_block_sight else LOW_OBJECT_FT,
                    blocks_sight=self.objects_block_sight,
                    blocks_movement=True,
                ))
        return lines, tuple(cover)

    def portals(self, root: dict[str, Any]) -> tuple[Portal, ...]:
        found: list[tuple[Segment, bool]] = []
        for i, value in enumerate(self.reader.optional_array(root, "portals", [])):
            keys: list[str | int] = ["portals", i]
            data = self.reader.obj(value, keys)
            bounds = self.reader.points(self.reader.member(data, "bounds", keys),
                                        [*keys, "bounds"])
            if len(bounds) != 2:
                raise self.reader.fail(
                    [*keys, "bounds"], f"needs exactly two points, found {len(bounds)}"
                )
            start, end = self.shifted(bounds[0]), self.shifted(bounds[1])
            if math.dist(start, end) <= 1e-6:
                raise self.reader.fail([*keys, "bounds"], "both points are the same")
            if "position" in data:
                self.reader.point(data["position"], [*keys, "position"])
            if "rotation" in data:
                self.reader.number(data["rotation"], [*keys, "rotation"])
            self.reader.boolean(data, "freestanding", keys, False)
            found.append(((start, end), self.reader.boolean(data, "closed", keys, True)))
        portals: list[Portal] = []
        counts = {PortalKind.DOOR: 0, PortalKind.WINDOW: 0}
        for segment, sources in merge_overlapping([segment for segment, _ in found]):
            closed = any(found[i][1] for i in sources)
            if closed or self.open_portals_as == "door":
                kind = PortalKind.DOOR
                state = PortalState.CLOSED if closed else PortalState.OPEN
            else:
                kind, state = PortalKind.WINDOW, PortalState.CLOSED
            counts[kind] += 1
            portals.append(Portal(f"{kind.value}-{counts[kind]}", segment[0], segment[1],
                                  kind, state))
        return tuple(portals)

    def lights(self, root: dict[str, Any]) -> tuple[Light, ...]:
        lights: list[Light] = []
        for i, value in enumerate(self.reader.optional_array(root, "lights", [])):
            keys: list[str | int] = ["lights", i]
            data = self.reader.obj(value, keys)
            position = self.shifted(
                self.reader.point(self.reader.member(data, "position", keys), [*keys, "position"])
            )
            light_range = 6.0
            if "range" in data:
                light_range = self.reader.number(data["range"], [*keys, "range"])
                if light_range < 0:
                    raise self.reader.fail([*keys, "range"], "must not be negative")
            intensity = (
                self.reader.number(data["intensity"], [*keys, "intensity"])
                if "intensity" in data else 1.0
            )
            colour = colour_from_uvtt(data.get("color", "ffffffff"), self.reader,
                                      [*keys, "color"])
            self.reader.boolean(data, "shadows", keys, True)
            lights.append(Light(position, light_range, colour, intensity))
        return tuple(lights)

    def check_environment(self, root: dict[str, Any]) -> None:
        value = root.get("environment")
        if value is None:
            return
        data = self.reader.obj(value, ["environment"])
        self.reader.boolean(data, "baked_lighting", ["environment"], True)
        if "ambient_light" in data:
            colour_from_uvtt(data["ambient_light"], self.reader, ["environment", "ambient_light"])


def colour_from_uvtt(value: Any, reader: Reader, keys: list[str | int]) -> str:
    """``ffeccd8b`` (AARRGGBB, as Universal VTT writes) or ``eccd8b`` -> ``#eccd8bff``."""
    text = value.strip().removeprefix("#").lower() if isinstance(value, str) else None
    if text is None or len(text) not in (6, 8) or any(c not in "0123456789abcdef" for c in text):
        raise reader.fail(keys, f"must be a hex colour such as 'ffeccd8b' (AARRGGBB), "
                                f"found {value!r}"[:200])
    return rgba_colour(text if len(text) == 6 else text[2:] + text[:2])


def _walls(
    lines: list[list[Point]], wall_count: int, portals: tuple[Portal, ...]
) -> tuple[Wall, ...]:
    """Walls from the simplified polylines: the first ``wall_count`` block both, the rest
    (object outlines with no area) sight only. Portal openings are cut out of them."""
    openings = [(p.start, p.end) for p in portals]
    pieces = [(segment, index < wall_count)
              for index, line in enumerate(lines) for segment in segments(line)]
    along: dict[int, list[Segment]] = {}
    for wall, opening in overlapping_pairs([segment for segment, _ in pieces], openings):
        along.setdefault(wall, []).append(openings[opening])
    walls: list[Wall] = []
    for index, (segment, blocks_movement) in enumerate(pieces):
        for start, end in cut_out(segment, along.get(index, [])):
            if math.dist(start, end) > 1e-6:
                walls.append(Wall(start, end, True, blocks_movement))
    return tuple(walls)
