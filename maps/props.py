"""Top-down sprites for cover objects (crates, cars, desks...), drawn in the object's frame.

A painter gets an empty RGBA sprite exactly the size of the object's rectangle (length
along x, width along y, front towards +x) and fills it; the caller turns and places it.
Which painter draws an object is chosen by its id prefix: ``crate-3`` is a crate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from engine.battlemap import CoverObject

RGB = tuple[int, int, int]


@dataclass
class Sprite:
    image: Image.Image
    draw: ImageDraw.ImageDraw
    rng: np.random.Generator
    cover: CoverObject
    unit: float  # pixels per square at the sprite's resolution

    @property
    def w(self) -> int:
        return self.image.width

    @property
    def h(self) -> int:
        return self.image.height

    def px(self, squares: float) -> int:
        return max(1, round(squares * self.unit))

    def jitter(self, colour: RGB, amount: int = 12) -> RGB:
        shift = int(self.rng.integers(-amount, amount + 1))
        r, g, b = (max(0, min(255, c + shift)) for c in colour)
        return (r, g, b)


Painter = Callable[[Sprite], None]


def shade(colour: RGB, factor: float) -> RGB:
    r, g, b = (max(0, min(255, round(c * factor))) for c in colour)
    return (r, g, b)


def _frame(s: Sprite, fill: RGB, *, edge: float = 0.7, inset: int = 0, radius: int = 0) -> None:
    box = (inset, inset, s.w - 1 - inset, s.h - 1 - inset)
    s.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=shade(fill, edge),
                             width=s.px(0.04))


def crate(s: Sprite) -> None:
    wood = s.jitter((168, 124, 72), 14)
    _frame(s, wood, edge=0.55)
    border = s.px(0.1)
    # planks across the lid
    planks = max(2, round(s.h / s.unit * 4))
    for i in range(1, planks):
        y = border + i * (s.h - 2 * border) // planks
        s.draw.line((border, y, s.w - border, y), fill=shade(wood, 0.78), width=s.px(0.015))
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), outline=shade(wood, 0.62), width=border)
    s.draw.line((border, border, s.w - border, s.h - border), fill=shade(wood, 0.62),
                width=s.px(0.07))
    if s.w > s.h * 1.5:
        s.draw.line((s.w // 2, border, s.w // 2, s.h - border), fill=shade(wood, 0.62),
                    width=s.px(0.07))
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), outline=(60, 40, 20), width=s.px(0.02))


def stack(s: Sprite) -> None:
    """Crates stacked above head height: a lid on a lid, darker at the foot."""
    base = s.jitter((140, 100, 58), 10)
    _frame(s, shade(base, 0.7), edge=0.5)
    inset = s.px(0.12)
    top = s.jitter((178, 134, 80), 10)
    s.draw.rectangle((inset, inset, s.w - inset, s.h - inset), fill=top,
                     outline=shade(top, 0.55), width=s.px(0.06))
    s.draw.line((inset, inset, s.w - inset, s.h - inset), fill=shade(top, 0.6), width=s.px(0.06))
    s.draw.line((inset, s.h - inset, s.w - inset, inset), fill=shade(top, 0.6), width=s.px(0.06))
    # stencil bar: a painted band across the top crate
    band = s.px(0.12)
    s.draw.rectangle((inset * 2, s.h // 2 - band // 2, inset * 2 + s.px(0.5), s.h // 2 + band // 2),
                     fill=(40, 40, 40))
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), outline=(40, 26, 14), width=s.px(0.03))


def rack(s: Sprite) -> None:
    """Pallet racking seen from above: orange beams, blue uprights, loaded pallets."""
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), fill=(52, 54, 58))
    bay = s.unit * 2
    bays = max(1, round(s.w / bay))
    step = s.w / bays
    for i in range(bays):
        x0, x1 = round(i * step) + s.px(0.08), round((i + 1) * step) - s.px(0.08)
        pallet = (150, 118, 76)
        s.draw.rectangle((x0, s.px(0.08), x1, s.h - s.px(0.08)), fill=pallet)
        # boxes on the pallet
        cols, rows = 3, 2
        bw, bh = (x1 - x0) / cols, (s.h - s.px(0.16)) / rows
        for c in range(cols):
            for r in range(rows):
                if s.rng.random() < 0.15:
                    continue
                colour = s.jitter((196, 160, 110), 16)
                bx0 = x0 + c * bw + s.px(0.03)
                by0 = s.px(0.08) + r * bh + s.px(0.03)
                s.draw.rectangle((bx0, by0, bx0 + bw - s.px(0.06), by0 + bh - s.px(0.06)),
                                 fill=colour, outline=shade(colour, 0.7), width=s.px(0.015))
                s.draw.line((bx0 + (bw - s.px(0.06)) / 2, by0, bx0 + (bw - s.px(0.06)) / 2,
                             by0 + bh - s.px(0.06)), fill=shade(colour, 0.85), width=s.px(0.02))
    beam = s.px(0.07)
    s.draw.rectangle((0, 0, s.w - 1, beam), fill=(230, 118, 30))
    s.draw.rectangle((0, s.h - 1 - beam, s.w - 1, s.h - 1), fill=(230, 118, 30))
    for i in range(bays + 1):
        x = min(s.w - beam, max(0, round(i * step) - beam // 2))
        s.draw.rectangle((x, 0, x + beam, s.h - 1), fill=(40, 80, 160))
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), outline=(25, 25, 28), width=s.px(0.02))


def drums(s: Sprite) -> None:
    colours = [(40, 90, 160), (170, 50, 40), (40, 110, 70)]
    colour = colours[int(s.rng.integers(0, len(colours)))]
    size = s.unit * 0.9
    cols, rows = max(1, round(s.w / size)), max(1, round(s.h / size))
    cw, ch = s.w / cols, s.h / rows
    for c in range(cols):
        for r in range(rows):
            d = min(cw, ch) * 0.94
            cx, cy = (c + 0.5) * cw, (r + 0.5) * ch
            tone = s.jitter(colour, 12)
            s.draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=tone,
                           outline=shade(tone, 0.5), width=s.px(0.03))
            for k in (0.72, 0.45):
                s.draw.ellipse((cx - d * k / 2, cy - d * k / 2, cx + d * k / 2, cy + d * k / 2),
                               outline=shade(tone, 0.75), width=s.px(0.015))
            bung = d * 0.1
            s.draw.ellipse((cx + d * 0.2 - bung, cy - d * 0.2 - bung, cx + d * 0.2 + bung,
                            cy - d * 0.2 + bung), fill=shade(tone, 0.5))


def bins(s: Sprite) -> None:
    size = s.unit * 0.7
    cols, rows = max(1, round(s.w / size)), max(1, round(s.h / size))
    cw, ch = s.w / cols, s.h / rows
    for c in range(cols):
        for r in range(rows):
            d = min(cw, ch) * 0.92
            cx, cy = (c + 0.5) * cw, (r + 0.5) * ch
            tone = s.jitter((120, 124, 128), 10)
            s.draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=tone,
                           outline=(50, 52, 55), width=s.px(0.03))
            s.draw.line((cx - d * 0.25, cy, cx + d * 0.25, cy), fill=(60, 62, 66),
                        width=s.px(0.04))


def _vehicle(s: Sprite, body: RGB, *, cab_only: bool = False, bed: bool = False,
             van: bool = False) -> None:
    """A car-like body, front at +x: wheels, body, bonnet, windscreen, roof, rear window."""
    w, h = s.w, s.h
    wheel_l, wheel_w = s.px(0.45), s.px(0.16)
    for fx in (0.18, 0.78):
        x = round(w * fx)
        for y in (0, h - wheel_w):
            s.draw.rounded_rectangle((x - wheel_l // 2, y, x + wheel_l // 2, y + wheel_w),
                                     radius=wheel_w // 3, fill=(22, 22, 24))
    inset = wheel_w // 2
    r = round(h * 0.28)
    s.draw.rounded_rectangle((0, inset, w - 1, h - 1 - inset), radius=r, fill=body,
                             outline=shade(body, 0.45), width=s.px(0.03))
    glass = (38, 52, 66)
    bh = h - 2 * inset
    if van:
        ws = (round(w * 0.78), round(w * 0.86))
        s.draw.polygon([(ws[0], inset + bh * 0.12), (ws[1], inset + bh * 0.06),
                        (ws[1], inset + bh * 0.94), (ws[0], inset + bh * 0.88)], fill=glass)
        s.draw.rectangle((round(w * 0.03), inset + bh * 0.1, ws[0] - s.px(0.06),
                          inset + bh * 0.9), fill=shade(body, 1.08),
                         outline=shade(body, 0.7), width=s.px(0.02))
        for k in range(1, 5):
            x = round(w * 0.03 + k * (ws[0] - w * 0.03) / 5)
            s.draw.line((x, inset + bh * 0.15, x, inset + bh * 0.85), fill=shade(body, 0.85),
                        width=s.px(0.02))
    else:
        front, back = (0.7, 0.8), (0.2, 0.27) if not bed else (0.42, 0.47)
        s.draw.polygon([(w * front[0], inset + bh * 0.14), (w * front[1], inset + bh * 0.08),
                        (w * front[1], inset + bh * 0.92), (w * front[0], inset + bh * 0.86)],
                       fill=glass)
        roof_box = (w * back[1], inset + bh * 0.14, w * front[0], inset + bh * 0.86)
        s.draw.rounded_rectangle(roof_box, radius=s.px(0.08), fill=shade(body, 1.12),
                                 outline=shade(body, 0.6), width=s.px(0.02))
        s.draw.polygon([(w * back[0], inset + bh * 0.1), (w * back[1], inset + bh * 0.14),
                        (w * back[1], inset + bh * 0.86), (w * back[0], inset + bh * 0.9)],
                       fill=glass)
        if bed:
            s.draw.rectangle((w * 0.03, inset + bh * 0.12, w * 0.4, inset + bh * 0.88),
                             fill=shade(body, 0.55), outline=shade(body, 0.4), width=s.px(0.03))
            for k in (0.35, 0.5, 0.65):
                y = inset + bh * k
                s.draw.line((w * 0.05, y, w * 0.38, y), fill=shade(body, 0.45), width=s.px(0.02))
        # bonnet crease
        s.draw.line((w * 0.83, inset + bh * 0.5, w * 0.97, inset + bh * 0.5),
                    fill=shade(body, 0.8), width=s.px(0.02))
    # lights
    lamp = s.px(0.1)
    for y in (inset + bh * 0.12, inset + bh * 0.88 - lamp):
        s.draw.rectangle((w - 1 - lamp // 2, y, w - 1, y + lamp), fill=(240, 236, 200))
        s.draw.rectangle((0, y, lamp // 2, y + lamp), fill=(190, 30, 30))
    # wing mirrors
    mx = round(w * (0.72 if not van else 0.8))
    s.draw.rectangle((mx, inset - s.px(0.06), mx + s.px(0.1), inset), fill=shade(body, 0.7))
    s.draw.rectangle((mx, h - inset, mx + s.px(0.1), h - inset + s.px(0.06)),
                     fill=shade(body, 0.7))


_CAR_COLOURS: tuple[RGB, ...] = (
    (150, 30, 34), (40, 70, 130), (200, 200, 196), (30, 30, 34), (110, 116, 120),
    (190, 150, 40), (50, 90, 60),
)


def car(s: Sprite) -> None:
    _vehicle(s, _CAR_COLOURS[int(s.rng.integers(0, len(_CAR_COLOURS)))])


def van(s: Sprite) -> None:
    _vehicle(s, s.jitter((205, 206, 208), 8), van=True)


def pickup(s: Sprite) -> None:
    _vehicle(s, _CAR_COLOURS[int(s.rng.integers(0, len(_CAR_COLOURS)))], bed=True)


def wreck(s: Sprite) -> None:
    _vehicle(s, (92, 60, 40))
    for _ in range(40):
        x, y = s.rng.uniform(0, s.w), s.rng.uniform(0, s.h)
        r = s.rng.uniform(2, s.px(0.12))
        s.draw.ellipse((x - r, y - r, x + r, y + r), fill=(60, 36, 24))


def forklift(s: Sprite) -> None:
    w, h = s.w, s.h
    yellow = (232, 182, 30)
    forks = round(w * 0.32)
    for y in (h * 0.22, h * 0.68):
        s.draw.rectangle((w - forks, y, w - 1, y + h * 0.1), fill=(70, 70, 72))
    s.draw.rectangle((w - forks - s.px(0.08), h * 0.08, w - forks, h * 0.92), fill=(40, 40, 42))
    body = (0, h * 0.05, w - forks - s.px(0.08), h * 0.95)
    s.draw.rounded_rectangle(body, radius=s.px(0.12), fill=yellow, outline=(120, 90, 10),
                             width=s.px(0.03))
    s.draw.rectangle((w * 0.12, h * 0.18, w * 0.55, h * 0.82), outline=(30, 30, 30),
                     width=s.px(0.05))
    s.draw.line((w * 0.12, h * 0.18, w * 0.55, h * 0.82), fill=(30, 30, 30), width=s.px(0.03))
    s.draw.line((w * 0.12, h * 0.82, w * 0.55, h * 0.18), fill=(30, 30, 30), width=s.px(0.03))
    s.draw.rectangle((0, h * 0.2, w * 0.1, h * 0.8), fill=(60, 60, 60))


def dumpster(s: Sprite) -> None:
    green = s.jitter((46, 96, 62), 8)
    _frame(s, green, edge=0.5)
    mid = s.w // 2
    for x0, x1 in ((s.px(0.06), mid - s.px(0.03)), (mid + s.px(0.03), s.w - s.px(0.06))):
        s.draw.rectangle((x0, s.px(0.06), x1, s.h - s.px(0.06)), fill=shade(green, 0.82),
                         outline=shade(green, 0.55), width=s.px(0.02))
        for k in range(1, 4):
            y = s.px(0.06) + k * (s.h - s.px(0.12)) // 4
            s.draw.line((x0, y, x1, y), fill=shade(green, 0.7), width=s.px(0.015))


def container(s: Sprite) -> None:
    colour = s.jitter((150, 54, 40), 10)
    _frame(s, colour, edge=0.5)
    step = s.px(0.12)
    for x in range(step, s.w - step // 2, step):
        s.draw.line((x, s.px(0.05), x, s.h - s.px(0.05)), fill=shade(colour, 0.78),
                    width=s.px(0.025))
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), outline=shade(colour, 0.45), width=s.px(0.06))


def desk(s: Sprite) -> None:
    top = s.jitter((176, 150, 118), 6)
    _frame(s, top, edge=0.6, radius=s.px(0.04))
    _monitor(s, s.w * 0.5, s.h * 0.3)
    s.draw.rectangle((s.w * 0.2, s.h * 0.6, s.w * 0.36, s.h * 0.8), fill=(236, 236, 230),
                     outline=(150, 150, 150), width=1)


def _monitor(s: Sprite, cx: float, cy: float) -> None:
    mw, mh = s.px(0.42), s.px(0.08)
    s.draw.rectangle((cx - mw / 2, cy - mh / 2, cx + mw / 2, cy + mh / 2), fill=(26, 26, 30))
    s.draw.rectangle((cx - s.px(0.12), cy + mh / 2 + s.px(0.08), cx + s.px(0.12),
                      cy + mh / 2 + s.px(0.16)), fill=(60, 60, 64))


def workstation(s: Sprite) -> None:
    """A cubicle desk: fabric partition along the back (top) edge, desk and monitor."""
    partition = s.px(0.14)
    top = (206, 200, 188)
    s.draw.rectangle((0, partition, s.w - 1, s.h - 1), fill=top, outline=(120, 116, 108),
                     width=s.px(0.02))
    s.draw.rectangle((0, 0, s.w - 1, partition), fill=(96, 104, 118), outline=(50, 54, 62),
                     width=s.px(0.02))
    count = max(1, round(s.w / s.unit / 1.0))
    for i in range(count):
        cx = (i + 0.5) * s.w / count
        _monitor(s, cx, partition + s.px(0.16))
        s.draw.rectangle((cx - s.px(0.16), s.h * 0.62, cx + s.px(0.16), s.h * 0.74),
                         fill=(40, 40, 44))
        if s.rng.random() < 0.6:
            s.draw.rectangle((cx + s.px(0.22), s.h * 0.55, cx + s.px(0.38), s.h * 0.82),
                             fill=(240, 240, 236), outline=(160, 160, 160), width=1)
        if s.rng.random() < 0.4:
            r = s.px(0.06)
            x, y = cx - s.px(0.32), s.h * 0.6
            s.draw.ellipse((x - r, y - r, x + r, y + r), fill=(230, 230, 230),
                           outline=(90, 60, 40), width=s.px(0.02))
    for i in range(1, count):
        x = i * s.w / count
        s.draw.line((x, 0, x, s.h), fill=(96, 104, 118), width=s.px(0.06))


def table(s: Sprite) -> None:
    wood = (92, 62, 40)
    s.draw.rounded_rectangle((0, 0, s.w - 1, s.h - 1), radius=round(s.h * 0.45), fill=wood,
                             outline=(50, 32, 20), width=s.px(0.04))
    s.draw.rounded_rectangle((s.px(0.1), s.px(0.1), s.w - 1 - s.px(0.1), s.h - 1 - s.px(0.1)),
                             radius=round(s.h * 0.35), outline=(112, 78, 52), width=s.px(0.02))
    for k in range(1, 5):
        x = s.w * k / 5
        for y in (s.h * 0.22, s.h * 0.78):
            s.draw.rectangle((x - s.px(0.12), y - s.px(0.08), x + s.px(0.12), y + s.px(0.08)),
                             fill=(236, 236, 230))


def counter(s: Sprite) -> None:
    top = (150, 152, 156)
    _frame(s, top, edge=0.6)
    sink = (s.w * 0.35, s.h * 0.2, s.w * 0.35 + s.px(0.6), s.h * 0.8)
    s.draw.rounded_rectangle(sink, radius=s.px(0.06), fill=(200, 204, 210),
                             outline=(90, 92, 96), width=s.px(0.03))
    s.draw.rectangle((s.w * 0.7, s.h * 0.2, s.w * 0.7 + s.px(0.5), s.h * 0.8),
                     fill=(40, 40, 44))
    for k in (0.35, 0.65):
        cx, cy, r = s.w * 0.7 + s.px(0.25), s.h * k, s.px(0.09)
        s.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(120, 120, 120), width=2)


def bar(s: Sprite) -> None:
    wood = (62, 32, 20)  # dark mahogany, so the counter stands out from the floorboards
    _frame(s, wood, edge=0.5, radius=s.px(0.06))
    s.draw.rectangle((0, 0, s.w - 1, s.px(0.12)), fill=(40, 20, 12))
    s.draw.line((0, s.h - s.px(0.08), s.w, s.h - s.px(0.08)), fill=(186, 150, 70),
                width=s.px(0.04))
    for k in range(max(2, round(s.w / s.unit * 1.5))):
        x = s.px(0.3) + k * s.unit / 1.5
        if x > s.w - s.px(0.2):
            break
        r = s.px(0.07)
        tone = (200, 180, 120) if s.rng.random() < 0.5 else (120, 160, 120)
        s.draw.ellipse((x - r, s.h * 0.55 - r, x + r, s.h * 0.55 + r), fill=tone,
                       outline=(40, 40, 40), width=1)


def servers(s: Sprite) -> None:
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), fill=(26, 28, 32), outline=(10, 10, 12),
                     width=s.px(0.03))
    cabinet = s.unit * 0.66
    count = max(1, round(s.w / cabinet))
    for i in range(count):
        x0 = i * s.w / count
        s.draw.rectangle((x0 + s.px(0.03), s.px(0.05), x0 + s.w / count - s.px(0.03),
                          s.h - s.px(0.05)), fill=(40, 43, 48), outline=(70, 74, 80), width=1)
        for _ in range(5):
            x = x0 + s.rng.uniform(s.px(0.08), s.w / count - s.px(0.08))
            y = s.rng.uniform(s.px(0.1), s.h - s.px(0.1))
            colour = (80, 230, 120) if s.rng.random() < 0.7 else (90, 160, 255)
            s.draw.rectangle((x, y, x + s.px(0.035), y + s.px(0.035)), fill=colour)


def shelf(s: Sprite) -> None:
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), fill=(84, 60, 40), outline=(40, 28, 18),
                     width=s.px(0.04))
    x = s.px(0.06)
    while x < s.w - s.px(0.08):
        width = s.px(float(s.rng.uniform(0.05, 0.1)))
        colour = s.jitter((130, 90, 70), 50)
        s.draw.rectangle((x, s.px(0.1), x + width, s.h - s.px(0.1)), fill=colour)
        x += width + 1


def cabinet(s: Sprite) -> None:
    grey = (150, 154, 158)
    _frame(s, grey, edge=0.55)
    count = max(1, round(s.w / (s.unit * 0.5)))
    for i in range(1, count):
        x = i * s.w / count
        s.draw.line((x, 0, x, s.h), fill=(90, 92, 96), width=s.px(0.02))


def sofa(s: Sprite) -> None:
    fabric = s.jitter((70, 60, 90), 8)
    s.draw.rounded_rectangle((0, 0, s.w - 1, s.h - 1), radius=s.px(0.15), fill=shade(fabric, 0.8),
                             outline=shade(fabric, 0.5), width=s.px(0.03))
    back = s.px(0.22)
    seats = max(1, round(s.w / s.unit))
    for i in range(seats):
        x0 = back + i * (s.w - 2 * back) / seats
        s.draw.rounded_rectangle((x0 + 2, back, x0 + (s.w - 2 * back) / seats - 2, s.h - 3),
                                 radius=s.px(0.08), fill=fabric, outline=shade(fabric, 0.7),
                                 width=s.px(0.015))


def planter(s: Sprite) -> None:
    d = min(s.w, s.h)
    cx, cy = s.w / 2, s.h / 2
    s.draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=(70, 66, 62),
                   outline=(40, 38, 36), width=s.px(0.04))
    for _ in range(14):
        a = s.rng.uniform(0, 2 * np.pi)
        r = s.rng.uniform(0, d * 0.32)
        x, y = cx + r * np.cos(a), cy + r * np.sin(a)
        leaf = d * s.rng.uniform(0.12, 0.2)
        tone = s.jitter((60, 120, 56), 18)
        s.draw.ellipse((x - leaf, y - leaf, x + leaf, y + leaf), fill=tone,
                       outline=shade(tone, 0.7), width=1)


def _canopy(s: Sprite, tone: RGB, leaves: int, spread: float) -> None:
    d = min(s.w, s.h)
    cx, cy = s.w / 2, s.h / 2
    for _ in range(leaves):
        a = s.rng.uniform(0, 2 * np.pi)
        r = s.rng.uniform(0, d * spread)
        x, y = cx + r * np.cos(a), cy + r * np.sin(a)
        leaf = d * s.rng.uniform(0.14, 0.24)
        colour = s.jitter(tone, 14)
        s.draw.ellipse((x - leaf, y - leaf, x + leaf, y + leaf), fill=colour,
                       outline=shade(colour, 0.7), width=1)


def tree(s: Sprite) -> None:
    """A tree seen from above: a dense canopy over the trunk's square."""
    _canopy(s, (30, 58, 28), 30, 0.3)  # darker than any grass, so it reads as a tree
    _canopy(s, (44, 80, 36), 12, 0.22)


def streettree(s: Sprite) -> None:
    """A street tree in its iron grate."""
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), fill=(60, 58, 56), outline=(30, 30, 30),
                     width=s.px(0.03))
    _canopy(s, (52, 96, 50), 18, 0.3)


def bench(s: Sprite) -> None:
    """A workbench: scarred plank top with tools on it."""
    top = s.jitter((150, 118, 80), 8)
    _frame(s, top, edge=0.55)
    for k in range(1, 4):
        y = k * s.h / 4
        s.draw.line((0, y, s.w, y), fill=shade(top, 0.8), width=s.px(0.015))
    s.draw.rectangle((s.w * 0.15, s.h * 0.25, s.w * 0.35, s.h * 0.6), fill=(170, 40, 30),
                     outline=(60, 20, 10), width=s.px(0.02))
    s.draw.line((s.w * 0.5, s.h * 0.3, s.w * 0.8, s.h * 0.5), fill=(60, 60, 64), width=s.px(0.05))
    s.draw.ellipse((s.w * 0.55, s.h * 0.6, s.w * 0.75, s.h * 0.85), fill=(90, 90, 96))


def pubtable(s: Sprite) -> None:
    d = min(s.w, s.h) * 0.8
    cx, cy = s.w / 2, s.h / 2
    wood = s.jitter((120, 74, 40), 8)
    s.draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=wood,
                   outline=shade(wood, 0.5), width=s.px(0.03))
    for k, colour in ((0.15, (200, 170, 90)), (-0.12, (210, 210, 200))):
        r = d * 0.08
        s.draw.ellipse((cx + d * k - r, cy - d * k - r, cx + d * k + r, cy - d * k + r),
                       fill=colour, outline=(40, 40, 40), width=1)


def pooltable(s: Sprite) -> None:
    s.draw.rounded_rectangle((0, 0, s.w - 1, s.h - 1), radius=s.px(0.06), fill=(90, 52, 28),
                             outline=(40, 22, 12), width=s.px(0.03))
    rail = s.px(0.1)
    s.draw.rectangle((rail, rail, s.w - 1 - rail, s.h - 1 - rail), fill=(30, 110, 60))
    r = s.px(0.05)
    for x in (rail, s.w / 2, s.w - 1 - rail):
        for y in (rail, s.h - 1 - rail):
            s.draw.ellipse((x - r, y - r, x + r, y + r), fill=(10, 10, 10))
    for k in range(5):
        x, y = s.w * (0.55 + 0.05 * k), s.h * (0.35 + 0.08 * (k % 3))
        colour = ((230, 200, 40), (200, 40, 40), (40, 60, 200), (240, 240, 240), (30, 30, 30))[k]
        s.draw.ellipse((x - r * 0.7, y - r * 0.7, x + r * 0.7, y + r * 0.7), fill=colour)


def pillar(s: Sprite) -> None:
    _frame(s, (118, 118, 120), edge=0.45)
    s.draw.line((0, 0, s.w, s.h), fill=(100, 100, 102), width=s.px(0.02))


def sandbags(s: Sprite) -> None:
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), fill=(112, 100, 70))
    bag_l, rows = s.unit * 0.5, max(2, round(s.h / (s.unit * 0.25)))
    bh = s.h / rows
    for r in range(rows):
        offset = (r % 2) * bag_l / 2
        x = -offset
        while x < s.w:
            tone = s.jitter((176, 158, 110), 12)
            s.draw.rounded_rectangle((x + 1, r * bh + 1, x + bag_l - 1, (r + 1) * bh - 1),
                                     radius=round(bh * 0.4), fill=tone,
                                     outline=shade(tone, 0.6), width=s.px(0.015))
            x += bag_l


def barrier(s: Sprite) -> None:
    concrete = s.jitter((170, 168, 160), 8)
    _frame(s, shade(concrete, 0.8), edge=0.6)
    s.draw.rectangle((0, s.h * 0.3, s.w - 1, s.h * 0.7), fill=concrete)
    count = max(1, round(s.w / (s.unit * 2)))
    for i in range(1, count):
        x = i * s.w / count
        s.draw.line((x, 0, x, s.h), fill=(90, 90, 88), width=s.px(0.03))


def pallet(s: Sprite) -> None:
    wood = s.jitter((176, 140, 90), 10)
    s.draw.rectangle((0, 0, s.w - 1, s.h - 1), fill=shade(wood, 0.5))
    boards = max(3, round(s.w / (s.unit * 0.18)))
    for i in range(boards):
        x0 = i * s.w / boards + 1
        s.draw.rectangle((x0, 0, x0 + s.w / boards * 0.7, s.h - 1), fill=s.jitter(wood, 8))


def generator(s: Sprite) -> None:
    body = (70, 100, 70)
    _frame(s, body, edge=0.5, radius=s.px(0.05))
    for k in range(1, 7):
        x = s.w * 0.08 + k * s.w * 0.06
        s.draw.line((x, s.h * 0.15, x, s.h * 0.85), fill=shade(body, 0.6), width=s.px(0.02))
    s.draw.rectangle((s.w * 0.6, s.h * 0.2, s.w * 0.9, s.h * 0.8), fill=(50, 50, 52),
                     outline=(20, 20, 20), width=s.px(0.02))


def reception(s: Sprite) -> None:
    wood = (112, 78, 54)  # walnut on dark stone: it must stand out from a pale lobby floor
    s.draw.rounded_rectangle((0, 0, s.w - 1, s.h - 1), radius=s.px(0.2), fill=(50, 54, 62),
                             outline=(24, 24, 28), width=s.px(0.03))
    s.draw.rounded_rectangle((s.px(0.12), s.px(0.12), s.w - 1 - s.px(0.12), s.h - 1 - s.px(0.12)),
                             radius=s.px(0.12), fill=wood)
    _monitor(s, s.w * 0.35, s.h * 0.4)
    _monitor(s, s.w * 0.65, s.h * 0.4)


def copier(s: Sprite) -> None:
    _frame(s, (210, 210, 206), edge=0.55, radius=s.px(0.04))
    s.draw.rectangle((s.w * 0.15, s.h * 0.2, s.w * 0.85, s.h * 0.6), fill=(60, 62, 66))


def generic(s: Sprite) -> None:
    _frame(s, (120, 110, 100), edge=0.5)


PAINTERS: dict[str, Painter] = {
    "crate": crate, "stack": stack, "rack": rack, "drums": drums, "bins": bins,
    "car": car, "van": van, "pickup": pickup, "wreck": wreck, "forklift": forklift,
    "dumpster": dumpster, "container": container, "desk": desk, "workstation": workstation,
    "table": table, "counter": counter, "bar": bar, "servers": servers, "shelf": shelf,
    "cabinet": cabinet, "sofa": sofa, "planter": planter, "tree": tree, "pillar": pillar,
    "sandbags": sandbags, "barrier": barrier, "pallet": pallet, "generator": generator,
    "reception": reception, "copier": copier, "pubtable": pubtable, "pooltable": pooltable,
    "streettree": streettree, "bench": bench,
}


def painter_for(cover: CoverObject) -> Painter:
    """The painter named by the id prefix (``crate-3`` -> crate), or a plain block."""
    return PAINTERS.get(cover.id.split("-")[0], generic)
