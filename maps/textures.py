"""Floor textures for the generated map pictures, as numpy arrays (height x width x RGB).

Every texture is made for the whole canvas from a seeded generator, so seams and slab
joints line up with the grid wherever a floor region is cut out of it. The noise is kept
subtle on purpose: a battle map floor should read as a surface, not compete with tokens.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray
from PIL import Image

Array = NDArray[np.float32]
Texture = Callable[[int, int, int, np.random.Generator], Array]


def smooth_noise(rng: np.random.Generator, height: int, width: int, cell: int) -> Array:
    """Value noise in about -1..1 that varies over ``cell`` pixels (bicubic upscaling)."""
    rows, cols = height // cell + 3, width // cell + 3
    coarse = rng.uniform(0, 255, (rows, cols)).astype(np.uint8)
    big = Image.fromarray(coarse, "L").resize((cols * cell, rows * cell), Image.Resampling.BICUBIC)
    array = np.asarray(big, dtype=np.float32)[cell: cell + height, cell: cell + width]
    return (array - 127.5) / 127.5


def grain(rng: np.random.Generator, height: int, width: int) -> Array:
    return rng.normal(0.0, 1.0, (height, width)).astype(np.float32)


def _tint(base: tuple[int, int, int], light: Array) -> Array:
    """A flat colour modulated by a lightness field (added to every channel)."""
    colour = np.array(base, dtype=np.float32)
    return colour[None, None, :] + light[:, :, None]


def _grid_lines(height: int, width: int, spacing: int, thickness: int = 2) -> Array:
    """1.0 on grid-aligned joint lines every ``spacing`` pixels, else 0.0."""
    ys = (np.arange(height) % spacing) < thickness
    xs = (np.arange(width) % spacing) < thickness
    return (ys[:, None] | xs[None, :]).astype(np.float32)


def concrete(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    light = 9 * smooth_noise(rng, height, width, pps * 2) + 4 * smooth_noise(
        rng, height, width, pps // 4
    ) + 2.5 * grain(rng, height, width)
    stains = np.clip(smooth_noise(rng, height, width, pps) - 0.55, 0, None) * 40
    joints = _grid_lines(height, width, pps * 4, 2) * 22
    return _tint((132, 130, 124), light - stains - joints)


def asphalt(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    light = 5 * smooth_noise(rng, height, width, pps * 3) + 5 * grain(rng, height, width)
    speckle = (rng.random((height, width)) > 0.985).astype(np.float32) * 18
    return _tint((64, 64, 68), light + speckle)


def sidewalk(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    slabs = rng.normal(0, 5, (height // pps + 1, width // pps + 1)).astype(np.float32)
    per_slab = np.kron(slabs, np.ones((pps, pps), dtype=np.float32))[:height, :width]
    light = per_slab + 4 * smooth_noise(rng, height, width, pps // 2) + 3 * grain(
        rng, height, width
    )
    joints = _grid_lines(height, width, pps, 2) * 30
    return _tint((140, 138, 132), light - joints)


def carpet(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    tiles = ((np.arange(height)[:, None] // pps + np.arange(width)[None, :] // pps) % 2) * 4.0
    light = tiles + 3 * smooth_noise(rng, height, width, pps) + 4 * grain(rng, height, width)
    base = _tint((70, 78, 92), light.astype(np.float32))
    base[..., 2] += 3 * grain(rng, height, width)
    return base


def tile(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    size = pps // 2
    tiles = rng.normal(0, 3, (height // size + 1, width // size + 1)).astype(np.float32)
    per_tile = np.kron(tiles, np.ones((size, size), dtype=np.float32))[:height, :width]
    light = per_tile + 2 * grain(rng, height, width)
    grout = _grid_lines(height, width, size, 2) * 35
    return _tint((196, 194, 186), light - grout)


def wood_floor(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    plank = pps // 4
    rows = height // plank + 1
    out = np.zeros((height, width), dtype=np.float32)
    grain_x = np.asarray(
        Image.fromarray(rng.uniform(0, 255, (height, width // 16 + 1)).astype(np.uint8), "L")
        .resize((width, height), Image.Resampling.BILINEAR),
        dtype=np.float32,
    )
    streak = (grain_x - 127.5) / 127.5 * 6
    for row in range(rows):
        y0, y1 = row * plank, min((row + 1) * plank, height)
        if y0 >= height:
            break
        x = -int(rng.integers(0, pps * 3))
        while x < width:
            length = int(rng.integers(pps * 2, pps * 5))
            a, b = max(x, 0), min(x + length, width)
            out[y0:y1, a:b] = rng.normal(0, 9)
            if 0 <= x < width:
                out[y0:y1, x: x + 2] -= 25
            x += length
        out[y0: y0 + 1, :] -= 28
    return _tint((126, 88, 56), out + streak + 2 * grain(rng, height, width))


def gravel(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    light = 8 * smooth_noise(rng, height, width, pps * 2) + 9 * grain(rng, height, width)
    dots = rng.random((height, width))
    light += (dots > 0.97) * 26 - (dots < 0.03) * 26
    return _tint((128, 120, 106), light.astype(np.float32))


def dirt(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    light = 12 * smooth_noise(rng, height, width, pps * 2) + 5 * smooth_noise(
        rng, height, width, pps // 4
    ) + 4 * grain(rng, height, width)
    return _tint((118, 98, 72), light)


def grass(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    light = 10 * smooth_noise(rng, height, width, pps * 2) + 6 * grain(rng, height, width)
    base = _tint((72, 98, 52), light)
    base[..., 0] += 6 * smooth_noise(rng, height, width, pps)
    return base


def grating(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    mesh = _grid_lines(height, width, pps // 8, 2) * 26
    light = 3 * smooth_noise(rng, height, width, pps) + 2 * grain(rng, height, width)
    return _tint((72, 76, 82), light + mesh)


def roof(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    light = 6 * smooth_noise(rng, height, width, pps * 2) + 7 * grain(rng, height, width)
    seams = ((np.arange(width) % (pps * 2)) < 3)[None, :].astype(np.float32) * 14
    return _tint((74, 70, 72), light - seams)


def night_city(height: int, width: int, pps: int, rng: np.random.Generator) -> Array:
    """The view down from a high floor at night: dark, with scattered lit windows."""
    light = 5 * smooth_noise(rng, height, width, pps * 2) + 2 * grain(rng, height, width)
    base = _tint((18, 22, 36), light)
    lit = (rng.random((height // 6 + 1, width // 6 + 1)) > 0.93).astype(np.float32)
    window = np.zeros((6, 6), dtype=np.float32)
    window[1:4, 1:4] = 1.0  # a lit window three pixels square, on a six-pixel lattice
    mask = np.kron(lit, window)[:height, :width]
    base += mask[:, :, None] * np.array([120, 100, 50], dtype=np.float32)
    return base


TEXTURES: dict[str, Texture] = {
    "concrete": concrete,
    "asphalt": asphalt,
    "sidewalk": sidewalk,
    "carpet": carpet,
    "tile": tile,
    "wood": wood_floor,
    "gravel": gravel,
    "dirt": dirt,
    "grass": grass,
    "grating": grating,
    "roof": roof,
    "night_city": night_city,
}
