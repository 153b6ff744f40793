"""How big an encounter may be: the bounds every file loader checks before doing any work.

Each limit is generous for a table-top fight and small enough that a file at every limit at
once still loads, draws and takes its first command in a few seconds and well under a
gigabyte. The loaders (``engine.files``) check them while reading, before the map, the
geometry or a picture is built, and refuse a file over one with the file, the place, the
limit and what was found. README.md's file format section lists them.
"""

from __future__ import annotations

#: Squares along each side of a map (a 1000 x 1000 map is a 5,000 ft square at 5 ft).
MAX_MAP_SIDE = 1000
#: Squares along each side of a token (20 x 20: a 100 ft ship at 5 ft a square).
MAX_TOKEN_SIZE = 20
#: Tokens on one map.
MAX_TOKENS = 1000
#: A weapon's shots a turn, and the rounds it holds.
MAX_RATE_OF_FIRE = 1000
MAX_CAPACITY = 1_000_000
#: Weapons one token carries, and conditions on one token.
MAX_WEAPONS = 100
MAX_CONDITIONS = 200
#: Wall segments on one map.
MAX_WALLS = 50_000
#: Doors and windows on one map.
MAX_PORTALS = 5000
#: Lights on one map.
MAX_LIGHTS = 2000
#: Cover objects on one map, and points in one object's outline.
MAX_COVER_OBJECTS = 10_000
MAX_OUTLINE_POINTS = 1000
#: Terrain patches, and squares in all of them together.
MAX_TERRAIN_PATCHES = 10_000
MAX_TERRAIN_SQUARES = 250_000
#: Lines of the combat log kept in a file.
MAX_LOG_ENTRIES = 200_000
#: Points of all the walls and outlines of a Universal VTT file together (before
#: simplification), and of one wall line. Simplifying walls that keep their crossings
#: (GEOS's topology-preserving simplifier) grows faster than the square of the points on
#: tangled input: 40,000 points of scribble take about a second, 200,000 never finish.
MAX_UVTT_POINTS = 40_000
MAX_UVTT_LINE_POINTS = 10_000
#: Times one object outline may cross itself (repairing a crossed outline grows with
#: the cube of its crossings: 200 random points, 10,000 crossings, take 10 s).
MAX_OUTLINE_CROSSINGS = 64
#: Arrays and objects in one encounter.json (a point, a square, a wall, a log line each
#: count), and in the JSON of one Universal VTT file.
MAX_JSON_CONTAINERS = 1_000_000
MAX_UVTT_JSON_CONTAINERS = 400_000
#: Pictures in one encounter file, and their pixels together (each picture on its own
#: is at most engine.files.images.MAX_IMAGE_PIXELS, 8192 x 8192): every picture is decoded
#: once on load, about a second for a 64 Mpx background.
MAX_IMAGES = 1000
MAX_TOTAL_IMAGE_PIXELS = 2 * 8192 * 8192

#: Coordinates (in squares) further than this from the map's corner are nonsense.
MAX_COORDINATE = 100_000.0
#: A square measures between these, in the system's unit (ft, in or m).
MIN_SQUARE_SIZE = 0.01
MAX_SQUARE_SIZE = 10_000.0
#: A Universal VTT map_size below this (in squares) is refused: the picture would be
#: stretched by a factor too large to represent (1e-308 overflows to infinity).
MIN_UVTT_MAP_SIZE = 0.01
#: A map picture has between these many pixels to a square.
MIN_PIXELS_PER_SQUARE = 0.01
MAX_PIXELS_PER_SQUARE = 100_000.0
#: Any fractional number in a file (a speed, a range) lies within +-this. Whole numbers are
#: bounded by their length (MAX_NUMBER_CHARS; a dice seed may be long) and field by field.
MAX_MAGNITUDE = 1e15
#: Characters of one number as written in a file (a 64-bit float needs at most 24).
MAX_NUMBER_CHARS = 40
