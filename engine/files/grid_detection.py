"""Find the square grid of a battle-map picture: its size in pixels and where its lines fall.

How (NumPy only): along each axis, build a profile of where the picture has lines: for each
boundary between neighbouring columns (or rows), the share of rows (or columns) where the
brightness steps there by more than the picture's own noise. A grid line crosses the whole
picture, so it counts in nearly every row however faint it is; a token, a label or a wall
counts only where it stands, however bright. (Summing the steps instead let the bright
walls, tokens and labels of Killbox's own exports drown their faint grid lines.) The
profile's slow rise and fall (a textured room beside a plain one) is taken out, so the lines
stand on zero. Grid lines, and the joints of a tiled floor, make that profile repeat. Its
autocorrelation peaks at every multiple of the period; the first strong peak gives the
period roughly, and a straight-line fit through the sub-pixel positions of all the peaks
gives it to a fraction of a pixel (70.4 px a square is found as such). The offset is the
circular mean of the profile folded on that period, so it is sub-pixel too. Both axes must
agree: squares are square.

``confidence`` (0..1) is how strongly the picture repeats at that period on both axes; below
:data:`GRID_FOUND` there is no grid to speak of and the GM should draw one square by hand.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from engine.files.images import ImageProblem, check_image

#: Confidence from which a grid counts as found.
GRID_FOUND = 0.5
#: Smallest square looked for, in pixels of the picture as analysed.
MIN_SQUARE_PIXELS = 8
#: A step in brightness (0..255) smaller than this is no line, whatever the picture's noise.
MIN_STEP = 8.0
#: Steps count from this many times the picture's typical (median) step between neighbours.
NOISE_STEPS = 2.0
#: Half the width, in pixels, of the running median taken out of a profile as its baseline.
BASELINE_HALF = 8
#: Pictures are analysed at most this many pixels wide or high (then scaled back), for speed.
ANALYSIS_SIDE = 2048
#: Squares whose sizes differ by more than this fraction between the axes are no grid.
AXES_AGREE = 0.03

Picture = bytes | str | os.PathLike[str] | Image.Image | NDArray[np.generic]


class GridGuess(NamedTuple):
    """What :func:`detect_grid` found: square size and offset in picture pixels, confidence."""

    pixels_per_square: float
    offset_x: float
    offset_y: float
    confidence: float

    @property
    def found(self) -> bool:
        return self.confidence >= GRID_FOUND


class NoGrid(ValueError):
    """The picture cannot be read as a picture (detect_grid's answer for "no grid" is a low
    confidence, not this error)."""


def _grey(picture: Picture) -> tuple[NDArray[np.float64], float]:
    """The picture in grey levels, at most ANALYSIS_SIDE across, and the factor it shrank by."""
    if isinstance(picture, np.ndarray):
        array = np.asarray(picture, dtype=np.float64)
        return (array.mean(axis=2) if array.ndim == 3 else array), 1.0
    if isinstance(picture, Image.Image):
        image = picture
    else:
        data = picture if isinstance(picture, bytes) else Path(picture).read_bytes()
        try:
            check_image(data)
        except ImageProblem as problem:
            raise NoGrid(str(problem)) from problem
        image = Image.open(io.BytesIO(data))
    shrink = max(image.size) / ANALYSIS_SIDE
    grey = image.convert("L")
    if shrink <= 1:
        return np.asarray(grey, dtype=np.float64), 1.0
    size = (round(image.size[0] / shrink), round(image.size[1] / shrink))
    grey = grey.resize(size, Image.Resampling.BOX)
    return np.asarray(grey, dtype=np.float64), image.size[0] / size[0]


def _profile(grey: NDArray[np.float64], axis: int) -> NDArray[np.float64]:
    """Line presence between neighbouring columns (axis=1) or rows (axis=0), above its
    running median, smoothed.

    Index i is the boundary at coordinate i + 1 (between pixel i and pixel i + 1).
    """
    steps = np.abs(np.diff(grey, axis=axis))
    threshold = max(MIN_STEP, NOISE_STEPS * float(np.median(steps)))
    presence = (steps > threshold).mean(axis=1 - axis)
    padded = np.pad(presence, BASELINE_HALF, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * BASELINE_HALF + 1)
    edges = np.clip(presence - np.median(windows, axis=1), 0, None)
    kernel = np.exp(-0.5 * (np.arange(-4, 5) / 1.5) ** 2)
    smooth = np.convolve(edges, kernel / kernel.sum(), mode="same")
    return np.asarray(smooth, dtype=np.float64)


def _autocorrelation(profile: NDArray[np.float64]) -> NDArray[np.float64]:
    """Normalised, unbiased autocorrelation by lag (1 at lag 0)."""
    centred = profile - profile.mean()
    n = len(centred)
    spectrum = np.fft.rfft(centred, 2 * n)
    raw = np.fft.irfft(spectrum * np.conj(spectrum))[:n]
    if raw[0] <= 1e-12:
        return np.zeros(n)
    unbiased = raw / (n - np.arange(n))
    return np.asarray(unbiased / (raw[0] / n), dtype=np.float64)


def _peak_near(values: NDArray[np.float64], centre: float, reach: float) -> float | None:
    """Sub-sample position of the highest value within ``reach`` of ``centre``."""
    low = max(1, int(np.floor(centre - reach)))
    high = min(len(values) - 2, int(np.ceil(centre + reach)))
    if high <= low:
        return None
    index = low + int(np.argmax(values[low : high + 1]))
    a, b, c = values[index - 1], values[index], values[index + 1]
    bend = a - 2 * b + c
    shift = 0.5 * (a - c) / bend if bend < 0 else 0.0
    return index + float(np.clip(shift, -0.5, 0.5))


def _period(profile: NDArray[np.float64]) -> tuple[float, float]:
    """(period, strength) of the profile's repetition; strength 0 when none."""
    n = len(profile)
    correlation = _autocorrelation(profile)
    longest = n // 3  # at least three squares across the picture
    if longest <= MIN_SQUARE_PIXELS:
        return 0.0, 0.0
    lags = np.arange(MIN_SQUARE_PIXELS, longest)
    window = correlation[MIN_SQUARE_PIXELS:longest]
    local = (window > correlation[lags - 1]) & (window >= correlation[lags + 1]) & (window > 0)
    candidates = lags[local]
    if not len(candidates):
        return 0.0, 0.0
    best = correlation[candidates].max()
    # The first strong peak: the others are its multiples (two squares, three squares...).
    rough = float(candidates[correlation[candidates] >= 0.8 * best][0])
    ks: list[int] = []
    positions: list[float] = []
    estimate = rough
    for k in range(1, int((2 * n / 3) // rough) + 1):
        found = _peak_near(correlation, k * estimate, max(2.0, estimate / 5))
        if found is None:
            break
        ks.append(k)
        positions.append(found)
        estimate = float(np.dot(ks, positions) / np.dot(ks, ks))
    strength = float(np.interp(estimate, np.arange(n), correlation))
    return estimate, max(0.0, min(1.0, strength))


def _offset(profile: NDArray[np.float64], period: float) -> float:
    """Where the lines fall, in [0, period): the profile's circular mean on that period."""
    weights = np.clip(profile - np.median(profile), 0, None) ** 2
    where = np.arange(len(profile)) + 1.0  # boundary coordinates
    angle = 2 * np.pi * where / period
    mean = np.arctan2((weights * np.sin(angle)).sum(), (weights * np.cos(angle)).sum())
    return float((mean / (2 * np.pi) * period) % period)


def detect_grid(picture: Picture) -> GridGuess:
    """The grid of a battle-map picture: ``(pixels_per_square, offset_x, offset_y, confidence)``.

    ``picture`` is PNG, JPEG or WebP bytes, a path, a Pillow image or an array. The offset is
    where the first grid line lies, in [0, pixels_per_square) picture pixels from the left and
    top. A confidence below :data:`GRID_FOUND` (``guess.found`` false) means no grid was
    found: ask the GM. NoGrid is raised only for something that is not a readable picture.
    """
    grey, scale = _grey(picture)
    if grey.ndim != 2 or min(grey.shape) < 3 * MIN_SQUARE_PIXELS:
        return GridGuess(0.0, 0.0, 0.0, 0.0)
    across = _profile(grey, axis=1)
    down = _profile(grey, axis=0)
    period_x, strength_x = _period(across)
    period_y, strength_y = _period(down)
    if not (period_x and period_y):
        return GridGuess(0.0, 0.0, 0.0, 0.0)
    agree = abs(period_x - period_y) / max(period_x, period_y) <= AXES_AGREE
    if agree:
        period = (period_x + period_y) / 2
        confidence = min(strength_x, strength_y)
    else:  # not a square grid: report the stronger axis, with little confidence
        period = period_x if strength_x >= strength_y else period_y
        confidence = min(strength_x, strength_y) * 0.3
    offset_x = _offset(across, period)
    offset_y = _offset(down, period)
    return GridGuess(period * scale, offset_x * scale, offset_y * scale, round(confidence, 3))

