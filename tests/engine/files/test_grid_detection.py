"""detect_grid on generated battle maps: drawn lines, tiled floors, odd offsets, fractional sizes,
noise, and pictures with no grid at all."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw

from engine.files.grid_detection import GRID_FOUND, NoGrid, detect_grid


def lined(width: int, height: int, square: float, ox: float, oy: float, *, noise: float = 0.0,
          seed: int = 1) -> Image.Image:
    """A brown floor with dark 2-px grid lines centred on ox + k * square (and oy + k * square)."""
    image = Image.new("RGB", (width, height), (120, 100, 70))
    draw = ImageDraw.Draw(image)
    x = ox
    while x < width:
        draw.rectangle([x - 1, 0, x, height], fill=(25, 25, 25))
        x += square
    y = oy
    while y < height:
        draw.rectangle([0, y - 1, width, y], fill=(25, 25, 25))
        y += square
    return _noisy(image, noise, seed)


def tiled(width: int, height: int, square: float, ox: float, oy: float, *, seed: int = 2,
          noise: float = 12.0) -> Image.Image:
    """A floor of flagstones of random shades, one per square, no lines drawn."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:height, 0:width]
    tx = np.floor((xs - ox) / square).astype(int) + 1
    ty = np.floor((ys - oy) / square).astype(int) + 1
    shades = rng.integers(50, 210, (tx.max() + 1, ty.max() + 1))
    grey = shades[tx, ty].astype(float) + rng.normal(0, noise, (height, width))
    return Image.fromarray(np.clip(grey, 0, 255).astype(np.uint8)).convert("RGB")


def _noisy(image: Image.Image, noise: float, seed: int) -> Image.Image:
    if not noise:
        return image
    rng = np.random.default_rng(seed)
    array = np.asarray(image, dtype=float) + rng.normal(0, noise, (image.size[1], image.size[0], 3))
    return Image.fromarray(np.clip(array, 0, 255).astype(np.uint8))


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def near_mod(found: float, wanted: float, period: float, tolerance: float) -> bool:
    """``found`` equals ``wanted`` modulo the period, within ``tolerance`` pixels."""
    gap = (found - wanted) % period
    return min(gap, period - gap) <= tolerance


CASES = [
    # (width, height, square, offset_x, offset_y, noise)
    (800, 600, 64.0, 0.0, 0.0, 0.0),
    (800, 600, 70.4, 13.0, 27.0, 20.0),
    (1000, 700, 50.5, 31.0, 8.0, 20.0),
    (900, 900, 37.25, 5.0, 33.0, 35.0),
    (640, 480, 23.6, 11.0, 2.0, 10.0),
    (3000, 2000, 100.0, 40.0, 60.0, 15.0),  # analysed at a smaller size, scaled back
]


@pytest.mark.parametrize(("width", "height", "square", "ox", "oy", "noise"), CASES)
def test_drawn_grid_lines_are_found_to_a_fraction_of_a_pixel(
    width: int, height: int, square: float, ox: float, oy: float, noise: float
) -> None:
    guess = detect_grid(png(lined(width, height, square, ox, oy, noise=noise)))
    assert guess.found and guess.confidence > 0.8
    assert guess.pixels_per_square == pytest.approx(square, abs=0.05)
    assert near_mod(guess.offset_x, ox, square, 1.0), guess
    assert near_mod(guess.offset_y, oy, square, 1.0), guess
    assert 0 <= guess.offset_x < guess.pixels_per_square


@pytest.mark.parametrize(("square", "ox", "oy"), [(60.6, 17.0, 41.0), (48.0, 0.0, 0.0),
                                                  (72.3, 55.0, 9.5)])
def test_a_tiled_floor_without_lines_gives_its_grid(square: float, ox: float, oy: float) -> None:
    guess = detect_grid(tiled(900, 700, square, ox, oy))
    assert guess.found
    assert guess.pixels_per_square == pytest.approx(square, abs=0.1)
    assert near_mod(guess.offset_x, ox, square, 1.5), guess
    assert near_mod(guess.offset_y, oy, square, 1.5), guess


def test_every_picture_format_and_kind_of_input_reads_the_same(tmp_path) -> None:  # type: ignore[no-untyped-def]
    picture = lined(640, 480, 40.0, 10.0, 20.0)
    path = tmp_path / "map.webp"
    picture.save(path, "WEBP", lossless=True)
    answers = [detect_grid(png(picture)), detect_grid(picture), detect_grid(path),
               detect_grid(np.asarray(picture))]
    for answer in answers:
        assert answer.pixels_per_square == pytest.approx(40.0, abs=0.05)
    jpeg = io.BytesIO()
    picture.save(jpeg, "JPEG", quality=70)
    assert detect_grid(jpeg.getvalue()).pixels_per_square == pytest.approx(40.0, abs=0.1)


@pytest.mark.parametrize(
    "picture",
    [
        np.random.default_rng(3).integers(0, 255, (600, 800)).astype(np.uint8),  # noise
        np.tile(np.linspace(0, 255, 800), (600, 1)),  # a smooth gradient
        np.full((400, 400), 128.0),  # one flat colour
    ],
    ids=["noise", "gradient", "flat"],
)
def test_a_picture_without_a_grid_says_so(picture: np.ndarray) -> None:
    guess = detect_grid(picture)
    assert not guess.found and guess.confidence < GRID_FOUND


def test_stripes_one_way_only_are_no_square_grid() -> None:
    image = Image.new("L", (800, 600), 150)
    draw = ImageDraw.Draw(image)
    for x in range(0, 800, 50):
        draw.rectangle([x, 0, x + 1, 600], fill=20)
    assert not detect_grid(image).found


def test_a_file_that_is_no_picture_is_an_error_naming_the_problem() -> None:
    with pytest.raises(NoGrid, match="not a PNG, JPEG or WebP"):
        detect_grid(b"not a picture at all")
