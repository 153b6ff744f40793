"""The GM's map edits: walls, doors and windows, terrain, cover, lights, the picture and the grid.

Each ``build_*`` function takes the state and a command and returns the new state and what
happened, or raises :class:`~engine.rules.edit_options.Refused` with every reason; the
editing catalogue (:mod:`engine.rules.editing`) turns that into check, preview and apply, so
the three cannot disagree. Coordinates are square units, grid corners at whole numbers.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from itertools import pairwise

import shapely
from shapely.geometry import LineString, Polygon

from engine.battlemap import (
    Background,
    BattleMap,
    CoverGrade,
    CoverObject,
    Light,
    Portal,
    PortalKind,
    PortalState,
    TerrainKind,
    TerrainPatch,
    Wall,
)
from engine.encounter import EncounterState
from engine.grid import Point, Square
from engine.rules.base import Command, Event, EventKind, Outcome
from engine.rules.edit_options import Options, Refused
from engine.rules.placement import footprint_problems
from engine.words import counted

#: Two coordinates this close are the same point (square units).
_SAME = 1e-6
#: An image entry of the encounter file (see engine.files): ``images/<name>``.
_IMAGE_NAME = re.compile(r"^images/[^/\\\x00]+$")
_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
#: Lights removed by position: the nearest within this many squares of the point given.
LIGHT_REACH = 0.5


#: What a drawn wall blocks (option ``blocks=``): (sight, movement).
WALL_BLOCKS = {"both": (True, True), "sight": (True, False), "movement": (False, True)}


def _show(point: Point) -> str:
    return f"({point[0]:g},{point[1]:g})"


def _same(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) <= _SAME and abs(a[1] - b[1]) <= _SAME


def _note(text: str, *tokens: str) -> tuple[Event, ...]:
    return (Event(EventKind.NOTE, text, tuple(tokens)),)


def _on_map(battlemap: BattleMap, point: Point) -> bool:
    return -_SAME <= point[0] <= battlemap.width + _SAME and -_SAME <= point[1] <= (
        battlemap.height + _SAME
    )


def _points_on_map(options: Options, battlemap: BattleMap, points: tuple[Point, ...]) -> None:
    for point in points:
        if not _on_map(battlemap, point):
            options.problems.append(
                f"{_show(point)} is off the map (0..{battlemap.width}, 0..{battlemap.height})"
            )


def with_map(state: EncounterState, battlemap: BattleMap) -> EncounterState:
    """The state on a changed map, refused if the change leaves a token where it cannot stand."""
    bare = replace(state, battlemap=battlemap, tokens=())  # the tokens stay where they are
    reasons = [reason for token in state.tokens for reason in footprint_problems(bare, token)]
    if reasons:
        raise Refused(*reasons)
    return replace(state, battlemap=battlemap)


def _map_with(state: EncounterState, **changes: object) -> BattleMap:
    try:
        return replace(state.battlemap, **changes)  # type: ignore[arg-type]
    except ValueError as error:
        raise Refused(str(error)) from error


# --------------------------------------------------------------------------- walls


def build_add_wall(state: EncounterState, command: Command) -> Outcome:
    """``add_wall points=[(x, y), ...] blocks=both|sight|movement``: a wall along the line."""
    options = Options(command)
    points = options.points("points", at_least=2)
    blocks = options.text("blocks", "both")
    if blocks not in WALL_BLOCKS:
        options.problems.append(f"blocks= must be both, sight or movement, not {blocks!r}")
        blocks = "both"
    _points_on_map(options, state.battlemap, points)
    for start, end in pairwise(points):
        if _same(start, end):
            options.problems.append(f"the wall from {_show(start)} to itself has no length")
    options.done()
    sight, movement = WALL_BLOCKS[blocks]
    walls = tuple(Wall(a, b, sight, movement) for a, b in pairwise(points))
    new = with_map(state, _map_with(state, walls=(*state.battlemap.walls, *walls)))
    path = " to ".join(_show(p) for p in points)
    what = {"both": "a wall", "sight": "a sight-blocking screen", "movement": "a low barrier"}
    return new, _note(f"GM draws {what[blocks]} from {path}.")


def _find_wall(walls: tuple[Wall, ...], a: Point, b: Point) -> int | None:
    for index, wall in enumerate(walls):
        if (_same(wall.start, a) and _same(wall.end, b)) or (
            _same(wall.start, b) and _same(wall.end, a)
        ):
            return index
    return None


def build_remove_wall(state: EncounterState, command: Command) -> Outcome:
    """``remove_wall points=[(x, y), ...]``: erase the wall segments along that line."""
    options = Options(command)
    points = options.points("points", at_least=2)
    walls = list(state.battlemap.walls)
    for a, b in pairwise(points):
        index = _find_wall(tuple(walls), a, b)
        if index is None:
            options.problems.append(f"there is no wall from {_show(a)} to {_show(b)}")
        else:
            del walls[index]
    options.done()
    new = with_map(state, _map_with(state, walls=tuple(walls)))
    return new, _note(f"GM erases the wall from {' to '.join(_show(p) for p in points)}.")


def build_move_wall_point(state: EncounterState, command: Command) -> Outcome:
    """``move_wall_point at=(x, y) to=(x, y)``: every wall and door end at ``at`` moves along."""
    options = Options(command)
    at = options.point("at")
    to = options.point("to")
    if at is None or to is None:
        raise Refused(*options.problems)
    if not _on_map(state.battlemap, to):
        options.problems.append(f"{_show(to)} is off the map")
    moved = 0

    def shift(point: Point) -> Point:
        nonlocal moved
        if _same(point, at):
            moved += 1
            return to
        return point

    walls_list: list[Wall] = []
    for wall in state.battlemap.walls:
        start, end = shift(wall.start), shift(wall.end)
        if _same(start, end):
            options.problems.append(
                f"the wall from {_show(wall.start)} to {_show(wall.end)} would have no length"
            )
            continue
        walls_list.append(replace(wall, start=start, end=end))
    walls = tuple(walls_list)
    portals_list: list[Portal] = []
    for portal in state.battlemap.portals:
        start, end = shift(portal.start), shift(portal.end)
        if _same(start, end):
            options.problems.append(f"the {portal.kind.value} {portal.id!r} would have no length")
        portals_list.append(replace(portal, start=start, end=end))
    if not moved:
        options.problems.append(f"no wall, door or window ends at {_show(at)}")
    options.done()
    new = with_map(state, _map_with(state, walls=walls, portals=tuple(portals_list)))
    return new, _note(f"GM moves the wall corner at {_show(at)} to {_show(to)}.")


# --------------------------------------------------------------------------- doors and windows


def _next_id(prefix: str, taken: set[str]) -> str:
    number = 1
    while f"{prefix}-{number}" in taken:
        number += 1
    return f"{prefix}-{number}"


def _split_walls(
    walls: tuple[Wall, ...], start: Point, end: Point
) -> tuple[tuple[Wall, ...], float]:
    """The walls with the stretch from ``start`` to ``end`` cut out, and the length cut."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    kept: list[Wall] = []
    covered = 0.0
    for wall in walls:
        wx, wy = wall.end[0] - wall.start[0], wall.end[1] - wall.start[1]
        wall_length = math.hypot(wx, wy)
        # Collinear: both door ends lie on the wall's line (cross product over the length).
        off_line = [
            abs(wx * (p[1] - wall.start[1]) - wy * (p[0] - wall.start[0])) / wall_length
            for p in (start, end)
        ]
        if max(off_line) > _SAME:
            kept.append(wall)
            continue
        # Where the door ends fall along the wall, 0 at its start and 1 at its end.
        low, high = sorted(
            ((p[0] - wall.start[0]) * wx + (p[1] - wall.start[1]) * wy) / wall_length**2
            for p in (start, end)
        )
        low, high = max(low, 0.0), min(high, 1.0)
        if (high - low) * wall_length <= _SAME:
            kept.append(wall)
            continue
        covered += (high - low) * wall_length
        for t0, t1 in ((0.0, low), (high, 1.0)):
            if (t1 - t0) * wall_length > _SAME:
                a = (wall.start[0] + wx * t0, wall.start[1] + wy * t0)
                b = (wall.start[0] + wx * t1, wall.start[1] + wy * t1)
                kept.append(replace(wall, start=a, end=b))
    return tuple(kept), min(covered, length)


def _touches_wall(walls: tuple[Wall, ...], point: Point) -> bool:
    where = shapely.Point(point)
    return any(LineString([w.start, w.end]).distance(where) <= _SAME for w in walls)


def build_add_portal(state: EncounterState, command: Command) -> Outcome:
    """``add_portal points=[(x, y), (x, y)] kind=door|window state=closed|open|locked id=``.

    On a wall, the wall is cut where the door goes; across a gap, each end must touch a wall.
    """
    options = Options(command)
    points = options.points("points", at_least=2, at_most=2)
    kind = options.choice("kind", PortalKind, PortalKind.DOOR)
    portal_state = options.choice("state", PortalState, PortalState.CLOSED)
    taken = {p.id for p in state.battlemap.portals} | {c.id for c in state.battlemap.cover}
    portal_id = options.text("id") or _next_id(kind.value, taken)
    if portal_id in taken:
        options.problems.append(f"the id {portal_id!r} is already used on this map")
    if kind is PortalKind.WINDOW and portal_state is PortalState.LOCKED:
        options.problems.append("a window cannot be locked (state= open or closed)")
    _points_on_map(options, state.battlemap, points)
    walls = state.battlemap.walls
    if points:
        start, end = points
        if _same(start, end):
            options.problems.append(f"the {kind.value} from {_show(start)} to itself has no length")
        else:
            walls, covered = _split_walls(walls, start, end)
            length = math.hypot(end[0] - start[0], end[1] - start[1])
            on_wall = covered >= length - _SAME
            in_gap = covered <= _SAME and all(
                _touches_wall(state.battlemap.walls, p) for p in points
            )
            if not (on_wall or in_gap):
                options.problems.append(
                    f"a {kind.value} goes in a wall: no wall runs all along {_show(start)} to "
                    f"{_show(end)}, and its ends do not both touch a wall"
                )
    options.done()
    portal = Portal(portal_id, points[0], points[1], kind, portal_state)
    new = with_map(
        state, _map_with(state, walls=walls, portals=(*state.battlemap.portals, portal))
    )
    return new, _note(
        f"GM puts a {portal_state.value} {kind.value} from {_show(points[0])} "
        f"to {_show(points[1])}."
    )


def build_remove_portal(state: EncounterState, command: Command) -> Outcome:
    """``remove_portal portal=ID fill=true``: take the door out; fill=true walls the gap."""
    options = Options(command)
    portal_id = options.text("portal")
    fill = options.flag("fill", True)
    portals = state.battlemap.portals
    if all(p.id != portal_id for p in portals):
        options.problems.append(f"there is no door or window {portal_id!r} (option portal=)")
    options.done()
    gone = state.battlemap.portal(portal_id)
    walls = state.battlemap.walls
    if fill:
        walls = (*walls, Wall(gone.start, gone.end))
    new = with_map(
        state,
        _map_with(state, walls=walls, portals=tuple(p for p in portals if p.id != portal_id)),
    )
    after = "; a wall closes the gap" if fill else ""
    return new, _note(f"GM removes the {gone.label}{after}.")


# --------------------------------------------------------------------------- terrain


def _rect_squares(options: Options) -> set[Square]:
    return options.rect_squares()


#: Option ``kind=`` of set_terrain: a terrain kind, or plain ground again.
NORMAL = "normal"


def build_set_terrain(state: EncounterState, command: Command) -> Outcome:
    """``set_terrain squares=[...] | rect=[(x1, y1), (x2, y2)]``,
    ``kind=difficult|impassable|normal``."""
    options = Options(command)
    squares = set(options.squares()) | _rect_squares(options)
    wanted = options.text("kind", "")
    name = options.text("name")
    if wanted != NORMAL and wanted not in {k.value for k in TerrainKind}:
        options.problems.append(
            f"kind= must be difficult, impassable or normal, not {wanted!r}"
        )
    if not squares and not options.problems:
        options.problems.append("say which squares (squares=[...] or rect=[(x1, y1), (x2, y2)])")
    off = sorted(s for s in squares if not state.battlemap.in_bounds(s))
    if off:
        more = f" and {len(off) - 3} more" if len(off) > 3 else ""
        options.problems.append(
            f"{', '.join(str(s) for s in off[:3])}{more} off the map "
            f"({state.battlemap.width}x{state.battlemap.height} squares)"
        )
    options.done()
    painted = frozenset(squares)
    patches = [
        replace(patch, squares=patch.squares - painted) for patch in state.battlemap.terrain
    ]
    if wanted != NORMAL:
        kind = TerrainKind(wanted)
        label = name or f"{kind.value} ground"
        for index, patch in enumerate(patches):
            if patch.name == label and patch.kind is kind:
                patches[index] = replace(patch, squares=patch.squares | painted)
                break
        else:
            patches.append(TerrainPatch(label, kind, painted))
    terrain = tuple(patch for patch in patches if patch.squares)
    new = with_map(state, _map_with(state, terrain=terrain))
    what = "plain ground" if wanted == NORMAL else f"{wanted} ground"
    count = len(painted)
    return new, _note(f"GM makes {counted(count, 'square')} {what}.")


# --------------------------------------------------------------------------- cover


def build_add_cover(state: EncounterState, command: Command) -> Outcome:
    """``add_cover points=[(x, y), ...] | rect=[(x1, y1), (x2, y2)] grade= height= name= id=``."""
    options = Options(command)
    if options.has("rect"):
        squares = _rect_squares(options)
        outline: tuple[Point, ...] = ()
        if squares:
            xs = [s.x for s in squares]
            ys = [s.y for s in squares]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs) + 1, max(ys) + 1
            outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    else:
        outline = options.points("points", at_least=3)
    grade = options.choice("grade", CoverGrade, CoverGrade.HALF)
    height = options.number("height", 3.0, above=0)
    name = options.text("name", "cover") or "cover"
    blocks_sight = options.flag("blocks_sight", False)
    blocks_movement = options.flag("blocks_movement", True)
    taken = {p.id for p in state.battlemap.portals} | {c.id for c in state.battlemap.cover}
    cover_id = options.text("id") or _next_id("cover", taken)
    if cover_id in taken:
        options.problems.append(f"the id {cover_id!r} is already used on this map")
    _points_on_map(options, state.battlemap, outline)
    if len(outline) >= 3:
        shape = Polygon(outline)
        if not shape.is_valid or shape.area <= _SAME:
            options.problems.append("the outline crosses itself or encloses no area")
    options.done()
    cover = CoverObject(
        cover_id, name, outline, grade, height, blocks_sight=blocks_sight,
        blocks_movement=blocks_movement,
    )
    new = with_map(state, _map_with(state, cover=(*state.battlemap.cover, cover)))
    return new, _note(f"GM places {name} ({grade.value} cover, {height:g} ft high).")


def build_remove_cover(state: EncounterState, command: Command) -> Outcome:
    """``remove_cover cover=ID``."""
    options = Options(command)
    cover_id = options.text("cover")
    if all(c.id != cover_id for c in state.battlemap.cover):
        options.problems.append(f"there is no cover object {cover_id!r} (option cover=)")
    options.done()
    gone = next(c for c in state.battlemap.cover if c.id == cover_id)
    cover = tuple(c for c in state.battlemap.cover if c.id != cover_id)
    return with_map(state, _map_with(state, cover=cover)), _note(
        f"GM removes {gone.name}."
    )


# --------------------------------------------------------------------------- lights


def build_add_light(state: EncounterState, command: Command) -> Outcome:
    """``add_light at=(x, y) range=6 colour="#ffffffff" intensity=1``."""
    options = Options(command)
    at = options.point("at")
    reach = options.number("range", 6.0, above=0)
    colour = options.text("colour", "#ffffffff")
    intensity = options.number("intensity", 1.0, minimum=0)
    if not _COLOUR.match(colour):
        options.problems.append(f"colour= must be #rrggbb or #rrggbbaa, not {colour!r}")
    if at is not None:
        _points_on_map(options, state.battlemap, (at,))
    options.done()
    assert at is not None
    light = Light(at, reach, colour, intensity)
    new = with_map(state, _map_with(state, lights=(*state.battlemap.lights, light)))
    return new, _note(f"GM places a light at {_show(at)} reaching {counted(reach, 'square')}.")


def build_remove_light(state: EncounterState, command: Command) -> Outcome:
    """``remove_light at=(x, y)``: the light nearest that point, within half a square."""
    options = Options(command)
    at = options.point("at")
    lights = state.battlemap.lights
    nearest: int | None = None
    if at is not None:
        distances = [math.dist(light.position, at) for light in lights]
        if distances and min(distances) <= LIGHT_REACH:
            nearest = distances.index(min(distances))
        else:
            options.problems.append(f"there is no light within half a square of {_show(at)}")
    options.done()
    assert nearest is not None
    gone = lights[nearest]
    new = with_map(state, _map_with(state, lights=lights[:nearest] + lights[nearest + 1 :]))
    return new, _note(f"GM removes the light at {_show(gone.position)}.")


# --------------------------------------------------------------------------- picture and grid


def build_set_background(state: EncounterState, command: Command) -> Outcome:
    """``set_background image="images/x.png" pixels_per_square= offset_x= offset_y=``.

    ``image=""`` takes the picture away. The image entry must be in the encounter's
    pictures (``Encounter.add_image`` puts it there); the session checks that.
    """
    options = Options(command)
    image = options.text("image")
    old = state.battlemap.background
    pixels = options.number(
        "pixels_per_square", old.pixels_per_square if old else 64.0, above=0
    )
    offset_x = options.number("offset_x", old.offset_x if old else 0.0)
    offset_y = options.number("offset_y", old.offset_y if old else 0.0)
    if image and not _IMAGE_NAME.match(image):
        options.problems.append(f"image= must name a picture entry images/<name>, not {image!r}")
    options.done()
    background = Background(image, pixels, offset_x, offset_y) if image else None
    new = with_map(state, _map_with(state, background=background))
    if background is None:
        return new, _note("GM takes the map picture away.")
    return new, _note(f"GM sets the map picture {image} ({pixels:g} px a square).")


def build_set_grid(state: EncounterState, command: Command) -> Outcome:
    """``set_grid pixels_per_square= offset_x= offset_y= width= height=`` (any of them).

    The picture's grid (pixels a square, where the first grid corner is, in picture pixels)
    and the map's size in squares.
    """
    options = Options(command)
    battlemap = state.battlemap
    background = battlemap.background
    grid_options = ("pixels_per_square", "offset_x", "offset_y")
    if background is None and any(options.has(name) for name in grid_options):
        options.problems.append("the map has no picture whose grid could be set")
    pixels = options.number(
        "pixels_per_square", background.pixels_per_square if background else 64.0, above=0
    )
    offset_x = options.number("offset_x", background.offset_x if background else 0.0)
    offset_y = options.number("offset_y", background.offset_y if background else 0.0)
    width = options.whole("width", battlemap.width, minimum=1)
    height = options.whole("height", battlemap.height, minimum=1)
    if not any(options.has(name) for name in (*grid_options, "width", "height")):
        options.problems.append("say what to set: pixels_per_square, offset_x, offset_y, width "
                                "or height")
    options.done()
    resized = _map_with(
        state,
        width=width,
        height=height,
        background=replace(
            background, pixels_per_square=pixels, offset_x=offset_x, offset_y=offset_y
        ) if background else None,
    )
    outside = _outside(resized)
    if outside:
        raise Refused(*outside)
    new = with_map(state, resized)
    text = f"GM sets the map to {width}x{height} squares"
    if background is not None:
        text += f", {pixels:g} px a square from ({offset_x:g},{offset_y:g})"
    return new, _note(text + ".")


def _outside(battlemap: BattleMap) -> list[str]:
    """What would lie off a resized map (tokens are checked with the map)."""
    problems: list[str] = []
    for wall in battlemap.walls:
        if not (_on_map(battlemap, wall.start) and _on_map(battlemap, wall.end)):
            problems.append(f"the wall from {_show(wall.start)} to {_show(wall.end)} would be "
                            "off the map")
    for portal in battlemap.portals:
        if not (_on_map(battlemap, portal.start) and _on_map(battlemap, portal.end)):
            problems.append(f"the {portal.kind.value} {portal.id!r} would be off the map")
    for cover in battlemap.cover:
        if not all(_on_map(battlemap, p) for p in cover.outline):
            problems.append(f"{cover.name} ({cover.id}) would be off the map")
    for light in battlemap.lights:
        if not _on_map(battlemap, light.position):
            problems.append(f"the light at {_show(light.position)} would be off the map")
    for patch in battlemap.terrain:
        if any(not battlemap.in_bounds(s) for s in patch.squares):
            problems.append(f"the {patch.name} terrain would be off the map")
    return problems
