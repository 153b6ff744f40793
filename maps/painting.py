"""Paint an encounter's background picture from its own map data.

Walls are drawn where the ``Wall`` segments are, props where the ``CoverObject`` outlines
are, door thresholds and glass where the ``Portal`` segments are, terrain where the
``TerrainPatch`` squares are and light pools around the ``Light`` values. Only what the
rules do not care about (which floor is carpet, road markings) comes from a ``Look``.

Door leaves are not painted: the app draws each door in its current state over the
picture, so an opened door never contradicts the background.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from engine.battlemap import BattleMap, CoverObject, Light, Portal, PortalKind, TerrainPatch, Wall
from engine.encounter import EncounterState
from engine.grid import Point
from maps.props import Sprite, painter_for, shade
from maps.textures import TEXTURES

#: Pixels per square of every bundled background.
PPS = 64
#: Vector work is drawn this many times larger, then reduced: cheap anti-aliasing.
SUPERSAMPLE = 2

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Floor:
    """A floor region: a texture name from ``maps.textures.TEXTURES`` and a polygon."""

    texture: str
    area: tuple[Point, ...]


def rect_area(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


@dataclass(frozen=True)
class Decal:
    """Paint that has no rule meaning: road lines, oil stains, hazard stripes, chairs.

    kinds: ``line`` and ``dashed`` (points, colour, width), ``stain`` (points[0] centre,
    width = radius), ``hazard`` and ``zebra`` (points = two corners of a rectangle),
    ``rug`` (two corners, colour), ``chair`` (points[0], width = turn in degrees),
    ``lamp`` (a lamp post's foot at points[0]).
    """

    kind: str
    points: tuple[Point, ...]
    colour: RGB = (230, 230, 220)
    width: float = 0.08


@dataclass(frozen=True)
class WallStyle:
    fill: RGB
    edge: RGB
    thickness: float  # in squares


WALL_STYLES: dict[str, WallStyle] = {
    "concrete": WallStyle((96, 96, 100), (28, 28, 30), 0.3),
    "brick": WallStyle((132, 64, 48), (44, 22, 18), 0.3),
    "drywall": WallStyle((212, 208, 200), (52, 52, 56), 0.2),
    "wood": WallStyle((120, 84, 52), (48, 30, 18), 0.16),
}
#: See-through barriers (block movement, not sight).
BARRIER_STYLES: dict[str, WallStyle] = {
    "railing": WallStyle((226, 186, 40), (70, 56, 10), 0.07),
    "chainlink": WallStyle((176, 180, 184), (54, 56, 60), 0.07),
}
DOOR_COLOURS: dict[str, RGB] = {
    "door": (150, 104, 60),
    "rollup": (180, 150, 40),
    "glassdoor": (150, 200, 220),
    "elevator": (170, 174, 180),
    "gate": (168, 172, 176),
}
GLASS: RGB = (164, 214, 236)


@dataclass(frozen=True)
class Look:
    """The picture-only facts of a map."""

    floors: tuple[Floor, ...]
    decals: tuple[Decal, ...] = ()
    wall_style: str = "concrete"
    #: (x0, y0, x1, y1, style): walls whose midpoint lies in the box use that style.
    wall_zones: tuple[tuple[float, float, float, float, str], ...] = ()
    barrier_style: str = "railing"
    #: terrain patch name -> how it looks: stairs, rubble, mud, brush, shaft
    terrain_looks: Mapping[str, str] = field(default_factory=dict)
    #: 1.0 is daylight; lower darkens everything outside the map's light pools.
    ambient: float = 1.0
    seed: int = 1

    def style_of(self, wall: Wall) -> WallStyle:
        if not wall.blocks_sight:
            return BARRIER_STYLES[self.barrier_style]
        mx, my = (wall.start[0] + wall.end[0]) / 2, (wall.start[1] + wall.end[1]) / 2
        for x0, y0, x1, y1, style in self.wall_zones:
            if x0 <= mx <= x1 and y0 <= my <= y1:
                return WALL_STYLES[style]
        return WALL_STYLES[self.wall_style]


@dataclass(frozen=True)
class Scene:
    """A bundled encounter: the rules' state and how its picture looks."""

    slug: str
    state: EncounterState
    look: Look

    @property
    def image_name(self) -> str:
        return f"images/{self.slug}.png"


def portal_look(portal: Portal) -> str:
    """The look of a portal, by id prefix (``rollup-1``, ``glassdoor-2``), else by kind."""
    prefix = portal.id.split("-")[0]
    if prefix in DOOR_COLOURS:
        return prefix
    return "window" if portal.kind is PortalKind.WINDOW else "door"


class _Canvas:
    def __init__(self, battlemap: BattleMap, scale: int) -> None:
        self.unit = PPS * scale
        self.size = (battlemap.width * self.unit, battlemap.height * self.unit)

    def px(self, point: Point) -> tuple[float, float]:
        return (point[0] * self.unit, point[1] * self.unit)


def paint(scene: Scene) -> Image.Image:
    """The background picture of a scene, ``PPS`` pixels per square, RGB."""
    battlemap, look = scene.state.battlemap, scene.look
    rng = np.random.default_rng(look.seed)
    base = _floors(battlemap, look, rng)
    picture = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB")

    big = _Canvas(battlemap, SUPERSAMPLE)
    ground = Image.new("RGBA", big.size, (0, 0, 0, 0))
    _terrain(ImageDraw.Draw(ground), big, battlemap.terrain, look, rng)
    _decals(ground, big, look.decals, below=True)
    picture = _composite(picture, ground)

    picture = _shadows(picture, battlemap, look)

    things = Image.new("RGBA", big.size, (0, 0, 0, 0))
    for cover in battlemap.cover:
        _prop(things, big, cover, rng)
    _decals(things, big, look.decals, below=False)
    picture = _composite(picture, things)

    if look.ambient < 1.0:
        picture = _lighting(picture, battlemap.lights, look.ambient)
    # Walls and doors go on last, unlit: they are the lines a GM must always read.
    lines = Image.new("RGBA", big.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(lines)
    if look.ambient < 1.0:
        _light_fixtures(draw, big, battlemap.lights)
    _walls(draw, big, battlemap.walls, look)
    for portal in battlemap.portals:
        _portal(draw, big, portal, battlemap, look)
    return _composite(picture, lines)


def _composite(picture: Image.Image, layer: Image.Image) -> Image.Image:
    small = layer.resize(picture.size, Image.Resampling.LANCZOS)
    out = picture.convert("RGBA")
    out.alpha_composite(small)
    return out.convert("RGB")


def _floors(battlemap: BattleMap, look: Look, rng: np.random.Generator) -> np.ndarray:
    width, height = battlemap.width * PPS, battlemap.height * PPS
    base = np.zeros((height, width, 3), dtype=np.float32)
    cache: dict[str, np.ndarray] = {}
    for floor in look.floors:
        if floor.texture not in TEXTURES:
            raise ValueError(f"unknown floor texture {floor.texture!r}")
        if floor.texture not in cache:
            cache[floor.texture] = TEXTURES[floor.texture](height, width, PPS, rng)
        mask_image = Image.new("L", (width, height), 0)
        ImageDraw.Draw(mask_image).polygon([(x * PPS, y * PPS) for x, y in floor.area], fill=255)
        mask = np.asarray(mask_image, dtype=np.float32)[:, :, None] / 255.0
        base = base * (1 - mask) + cache[floor.texture] * mask
    return base


def _shadows(picture: Image.Image, battlemap: BattleMap, look: Look) -> Image.Image:
    """Soft drop shadows, longer for taller things (cover height; walls count as 10 ft)."""
    scale = 1
    mask = Image.new("L", picture.size, 0)
    draw = ImageDraw.Draw(mask)
    for cover in battlemap.cover:
        offset = min(24.0, 1.6 * cover.height_ft)
        draw.polygon([(x * PPS + offset, y * PPS + offset) for x, y in cover.outline], fill=150)
    for wall in battlemap.walls:
        if wall.blocks_sight:
            thickness = look.style_of(wall).thickness * PPS * scale
            draw.line([(wall.start[0] * PPS + 9, wall.start[1] * PPS + 9),
                       (wall.end[0] * PPS + 9, wall.end[1] * PPS + 9)],
                      fill=130, width=max(2, round(thickness)))
    soft = np.asarray(mask.filter(ImageFilter.GaussianBlur(6)), dtype=np.float32) / 255.0
    array = np.asarray(picture, dtype=np.float32) * (1 - 0.55 * soft[:, :, None])
    return Image.fromarray(np.clip(array, 0, 255).astype(np.uint8), "RGB")


def _prop(layer: Image.Image, canvas: _Canvas, cover: CoverObject,
          rng: np.random.Generator) -> None:
    centre, length, width, angle = _frame_of(cover.outline)
    w, h = max(2, round(length * canvas.unit)), max(2, round(width * canvas.unit))
    sprite_image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    sprite = Sprite(sprite_image, ImageDraw.Draw(sprite_image), rng, cover, canvas.unit)
    painter_for(cover)(sprite)
    if abs(angle) > 1e-6:
        sprite_image = sprite_image.rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
    cx, cy = canvas.px(centre)
    layer.alpha_composite(
        sprite_image, (round(cx - sprite_image.width / 2), round(cy - sprite_image.height / 2))
    )


def _frame_of(outline: Sequence[Point]) -> tuple[Point, float, float, float]:
    """Centre, length, width and heading (degrees) of a rectangle outline from ``layout.box``.

    Any other outline is drawn in its axis-aligned bounding box.
    """
    cx = sum(p[0] for p in outline) / len(outline)
    cy = sum(p[1] for p in outline) / len(outline)
    if len(outline) == 4:
        (x0, y0), (x1, y1), (x2, y2) = outline[0], outline[1], outline[2]
        length, width = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
        return (cx, cy), length, width, math.degrees(math.atan2(y1 - y0, x1 - x0))
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    return (cx, cy), max(xs) - min(xs), max(ys) - min(ys), 0.0


def _walls(draw: ImageDraw.ImageDraw, canvas: _Canvas, walls: Sequence[Wall], look: Look) -> None:
    """Edges first, then fills, so joined walls merge into one outlined shape."""
    # thin walls first, so a thick outer wall wins where a partition meets it
    solid = sorted((w for w in walls if w.blocks_sight), key=lambda w: look.style_of(w).thickness)
    barriers = [w for w in walls if not w.blocks_sight]
    for wall in barriers:
        _barrier(draw, canvas, wall, look)
    for fill_pass in (False, True):
        for wall in solid:
            style = look.style_of(wall)
            t = style.thickness * canvas.unit
            if fill_pass:
                _thick_segment(draw, canvas, wall.start, wall.end, t - 2 * SUPERSAMPLE * 2,
                               style.fill)
            else:
                _thick_segment(draw, canvas, wall.start, wall.end, t, style.edge)


def _thick_segment(draw: ImageDraw.ImageDraw, canvas: _Canvas, start: Point, end: Point,
                   thickness: float, colour: RGB, *, caps: bool = True) -> None:
    (x0, y0), (x1, y1) = canvas.px(start), canvas.px(end)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    half = thickness / 2
    ext = half if caps else 0.0
    ax, ay, bx, by = x0 - ux * ext, y0 - uy * ext, x1 + ux * ext, y1 + uy * ext
    nx, ny = -uy * half, ux * half
    draw.polygon([(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)],
                 fill=colour)


def _barrier(draw: ImageDraw.ImageDraw, canvas: _Canvas, wall: Wall, look: Look) -> None:
    style = BARRIER_STYLES[look.barrier_style]
    t = style.thickness * canvas.unit
    if look.barrier_style == "chainlink":
        mesh = (150, 154, 158, 110)  # the see-through wire mesh either side of the rail
        _thick_segment(draw, canvas, wall.start, wall.end, t * 3, mesh)  # type: ignore[arg-type]
    _thick_segment(draw, canvas, wall.start, wall.end, t, style.edge)
    _thick_segment(draw, canvas, wall.start, wall.end, t * 0.5, style.fill, caps=False)
    (x0, y0), (x1, y1) = canvas.px(wall.start), canvas.px(wall.end)
    length = math.hypot(x1 - x0, y1 - y0)
    posts = max(1, round(length / canvas.unit))
    for i in range(posts + 1):
        x, y = x0 + (x1 - x0) * i / posts, y0 + (y1 - y0) * i / posts
        r = t * 0.9
        draw.rectangle((x - r, y - r, x + r, y + r), fill=style.edge)


def _portal(draw: ImageDraw.ImageDraw, canvas: _Canvas, portal: Portal, battlemap: BattleMap,
            look: Look) -> None:
    kind = portal_look(portal)
    style = WALL_STYLES[look.wall_style]
    for wall in battlemap.walls:  # frame the opening in the style of the wall it sits in
        if wall.blocks_sight and (wall.end in (portal.start, portal.end)
                                  or wall.start in (portal.start, portal.end)):
            style = look.style_of(wall)
            break
    t = style.thickness * canvas.unit
    (x0, y0), (x1, y1) = canvas.px(portal.start), canvas.px(portal.end)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    if kind == "window":
        glass = max(t, 0.24 * canvas.unit)
        _thick_segment(draw, canvas, portal.start, portal.end, glass * 0.75, style.edge,
                       caps=False)
        _thick_segment(draw, canvas, portal.start, portal.end, glass * 0.5, GLASS, caps=False)
        hx, hy = -uy * glass * 0.16, ux * glass * 0.16  # a glint off the centre line
        draw.line([(x0 + hx, y0 + hy), (x1 + hx, y1 + hy)], fill=(236, 248, 255),
                  width=max(1, SUPERSAMPLE))
        panes = max(1, round(length / canvas.unit))
        for i in range(1, panes):
            mx, my = x0 + ux * length * i / panes, y0 + uy * length * i / panes
            draw.line([(mx - uy * t * 0.3, my + ux * t * 0.3), (mx + uy * t * 0.3,
                                                                 my - ux * t * 0.3)],
                      fill=style.edge, width=2 * SUPERSAMPLE)
    else:
        colour = DOOR_COLOURS[kind]
        # threshold plate across the opening
        _thick_segment(draw, canvas, portal.start, portal.end, t * 0.9, shade(colour, 0.55),
                       caps=False)
        _thick_segment(draw, canvas, portal.start, portal.end, t * 0.6, colour, caps=False)
        if kind == "rollup":
            stripes = max(2, round(length / (canvas.unit * 0.25)))
            for i in range(0, stripes, 2):
                a = (x0 + ux * length * i / stripes, y0 + uy * length * i / stripes)
                b = (x0 + ux * length * (i + 1) / stripes, y0 + uy * length * (i + 1) / stripes)
                draw.line([a, b], fill=(30, 30, 30), width=round(t * 0.6))
        elif kind in ("door", "glassdoor"):
            # the swing: a quarter circle from the hinge, on the side the normal points to
            radius = length
            angle0 = math.degrees(math.atan2(uy, ux))
            centre_x, centre_y = canvas.px((battlemap.width / 2, battlemap.height / 2))
            # PIL sweeps clockwise, towards the normal (-uy, ux); swing into the building
            inward = (-uy) * (centre_x - x0) + ux * (centre_y - y0) > 0
            start = angle0 if inward else angle0 - 90
            draw.arc((x0 - radius, y0 - radius, x0 + radius, y0 + radius), start, start + 90,
                     fill=shade(colour, 0.8), width=SUPERSAMPLE * 2)
        elif kind == "elevator":
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            draw.line([(mx - uy * t * 0.3, my + ux * t * 0.3), (mx + uy * t * 0.3,
                                                                 my - ux * t * 0.3)],
                      fill=(60, 60, 64), width=2 * SUPERSAMPLE)
    # jambs
    for x, y in ((x0, y0), (x1, y1)):
        r = t * 0.55
        draw.rectangle((x - r, y - r, x + r, y + r), fill=style.edge)
        draw.rectangle((x - r + 2 * SUPERSAMPLE, y - r + 2 * SUPERSAMPLE,
                        x + r - 2 * SUPERSAMPLE, y + r - 2 * SUPERSAMPLE), fill=style.fill)


def _terrain(draw: ImageDraw.ImageDraw, canvas: _Canvas, terrain: Sequence[TerrainPatch],
             look: Look, rng: np.random.Generator) -> None:
    for patch in terrain:
        kind = look.terrain_looks.get(patch.name, "rubble")
        ordered = sorted(patch.squares)
        xs = [s.x for s in ordered]
        ys = [s.y for s in ordered]
        bx0, by0 = canvas.px((min(xs), min(ys)))
        bx1, by1 = canvas.px((max(xs) + 1, max(ys) + 1))
        if kind == "stairs":
            vertical = (by1 - by0) >= (bx1 - bx0)
            draw.rectangle((bx0, by0, bx1, by1), fill=(88, 92, 98, 255))
            steps = round(((by1 - by0) if vertical else (bx1 - bx0)) / (canvas.unit / 3))
            for i in range(steps):
                tone = (118, 122, 128, 255) if i % 2 == 0 else (104, 108, 114, 255)
                if vertical:
                    y = by0 + i * (by1 - by0) / steps
                    draw.rectangle((bx0, y, bx1, y + (by1 - by0) / steps), fill=tone)
                    draw.line((bx0, y, bx1, y), fill=(210, 170, 40, 255), width=SUPERSAMPLE * 2)
                else:
                    x = bx0 + i * (bx1 - bx0) / steps
                    draw.rectangle((x, by0, x + (bx1 - bx0) / steps, by1), fill=tone)
                    draw.line((x, by0, x, by1), fill=(210, 170, 40, 255), width=SUPERSAMPLE * 2)
            draw.rectangle((bx0, by0, bx1, by1), outline=(40, 42, 46, 255), width=SUPERSAMPLE * 2)
            continue
        for square in ordered:
            sx, sy = canvas.px((square.x, square.y))
            if kind == "shaft":
                draw.rectangle((sx, sy, sx + canvas.unit, sy + canvas.unit), fill=(16, 16, 18, 255))
                continue
            count = {"rubble": 16, "mud": 3, "brush": 6, "debris": 10}.get(kind, 6)
            for _ in range(count):
                x = sx + rng.uniform(0.1, 0.9) * canvas.unit
                y = sy + rng.uniform(0.1, 0.9) * canvas.unit
                if kind == "mud":
                    r = rng.uniform(0.25, 0.45) * canvas.unit
                    draw.ellipse((x - r, y - r * 0.7, x + r, y + r * 0.7), fill=(74, 58, 40, 170))
                elif kind == "brush":
                    r = rng.uniform(0.12, 0.22) * canvas.unit
                    tone = (int(rng.integers(50, 80)), int(rng.integers(90, 120)), 44, 235)
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=tone,
                                 outline=(34, 60, 28, 255), width=SUPERSAMPLE)
                else:  # rubble, debris
                    r = rng.uniform(0.06, 0.18) * canvas.unit
                    tone = int(rng.integers(90, 150))
                    points = [(x + r * math.cos(a), y + r * math.sin(a))
                              for a in np.linspace(0, 2 * math.pi, 6)[:-1] + rng.uniform(0, 1)]
                    draw.polygon(points, fill=(tone, tone - 6, tone - 14, 255),
                                 outline=(50, 46, 40, 255))


def _decals(layer: Image.Image, canvas: _Canvas, decals: Sequence[Decal], *,
            below: bool) -> None:
    draw = ImageDraw.Draw(layer)
    on_top = {"chair", "lamp"}
    for decal in decals:
        if (decal.kind in on_top) == below:
            continue
        points = [canvas.px(p) for p in decal.points]
        width = max(1, round(decal.width * canvas.unit))
        colour = (*decal.colour, 255)
        if decal.kind == "line":
            draw.line(points, fill=colour, width=width)
        elif decal.kind == "dashed":
            (x0, y0), (x1, y1) = points[0], points[1]
            length = math.hypot(x1 - x0, y1 - y0)
            dash = canvas.unit * 0.5
            for i in range(int(length // (dash * 2)) + 1):
                a = i * 2 * dash / length
                b = min(1.0, (i * 2 + 1) * dash / length)
                draw.line([(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                           (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)], fill=colour, width=width)
        elif decal.kind == "stain":
            (x, y), r = points[0], decal.width * canvas.unit
            draw.ellipse((x - r, y - r * 0.7, x + r, y + r * 0.7), fill=(*decal.colour, 90))
            draw.ellipse((x - r * 0.6, y - r * 0.4, x + r * 0.5, y + r * 0.5),
                         fill=(*decal.colour, 70))
        elif decal.kind == "hazard":
            _hazard(layer, points[0], points[1], canvas.unit * 0.25)
        elif decal.kind == "zebra":
            (x0, y0), (x1, y1) = points[0], points[1]
            step = canvas.unit * 0.5
            # a crossing: bars run along the road, stacked across it (the long side)
            tall = (y1 - y0) > (x1 - x0)
            count = int(((y1 - y0) if tall else (x1 - x0)) // step)
            for i in range(0, count, 2):
                if tall:
                    draw.rectangle((x0, y0 + i * step, x1, y0 + (i + 1) * step), fill=colour)
                else:
                    draw.rectangle((x0 + i * step, y0, x0 + (i + 1) * step, y1), fill=colour)
        elif decal.kind == "rug":
            (x0, y0), (x1, y1) = points[0], points[1]
            draw.rectangle((x0, y0, x1, y1), fill=colour, outline=(*shade(decal.colour, 0.7), 255),
                           width=SUPERSAMPLE * 3)
        elif decal.kind == "chair":
            (x, y) = points[0]
            r = canvas.unit * 0.2
            angle = math.radians(decal.width)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(44, 44, 50, 255),
                         outline=(20, 20, 24, 255), width=SUPERSAMPLE)
            bx, by = x + math.cos(angle) * r * 0.9, y + math.sin(angle) * r * 0.9
            draw.line([(bx - math.sin(angle) * r, by + math.cos(angle) * r),
                       (bx + math.sin(angle) * r, by - math.cos(angle) * r)],
                      fill=(20, 20, 24, 255), width=SUPERSAMPLE * 4)
        elif decal.kind == "lamp":
            (x, y) = points[0]
            r = canvas.unit * 0.12
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(50, 52, 56, 255),
                         outline=(20, 20, 22, 255), width=SUPERSAMPLE)
        else:
            raise ValueError(f"unknown decal kind {decal.kind!r}")


def _hazard(layer: Image.Image, corner0: tuple[float, float],
            corner1: tuple[float, float], step: float) -> None:
    """Yellow and black diagonal stripes, clipped to the rectangle."""
    (x0, y0), (x1, y1) = corner0, corner1
    width, height = round(x1 - x0), round(y1 - y0)
    stripes = Image.new("RGBA", (width, height), (220, 180, 30, 255))
    stripe_draw = ImageDraw.Draw(stripes)
    for i in range(1, int((width + height) / step) + 2, 2):
        stripe_draw.line([(i * step, 0), (i * step - height, height)], fill=(30, 30, 30, 255),
                         width=round(step * 0.5))
    layer.paste(stripes, (round(x0), round(y0)))


def _hex_colour(colour: str) -> np.ndarray:
    text = colour.lstrip("#")
    return np.array([int(text[i: i + 2], 16) for i in (0, 2, 4)], dtype=np.float32) / 255.0


def _lighting(picture: Image.Image, lights: Sequence[Light], ambient: float) -> Image.Image:
    """Night: everything dims to ``ambient`` except the pools round each light."""
    width, height = picture.size
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    xs = (xs + 0.5) / PPS
    ys = (ys + 0.5) / PPS
    light = np.full((height, width, 3), ambient, dtype=np.float32)
    light[..., 2] += 0.03  # a cold blue cast on the dark
    for lamp in lights:
        d2 = (xs - lamp.position[0]) ** 2 + (ys - lamp.position[1]) ** 2
        falloff = np.clip(1.0 - d2 / (lamp.range ** 2), 0.0, 1.0) ** 2
        light += falloff[:, :, None] * _hex_colour(lamp.colour)[None, None, :] * lamp.intensity
    array = np.asarray(picture, dtype=np.float32) * np.clip(light, 0.0, 1.25)
    return Image.fromarray(np.clip(array, 0, 255).astype(np.uint8), "RGB")


def _light_fixtures(draw: ImageDraw.ImageDraw, canvas: _Canvas, lights: Sequence[Light]) -> None:
    for lamp in lights:
        x, y = canvas.px(lamp.position)
        colour = tuple(int(c * 255) for c in _hex_colour(lamp.colour))
        for r, alpha in ((0.3, 60), (0.18, 140), (0.09, 255)):
            rr = r * canvas.unit
            draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=(*colour, alpha))


def encode_png(picture: Image.Image, colours: int = 256) -> bytes:
    """A small PNG: quantised to a palette (no dithering, which compresses badly)."""
    quantised = picture.quantize(colours, method=Image.Quantize.FASTOCTREE,
                                 dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, format="PNG", optimize=True)
    return out.getvalue()
