"""A new encounter: a blank grid of a given size, or a battle-map picture with its grid.

What File > New, a picture dropped on the window and ``killbox PICTURE`` all call. The
scale and the diagonal rule come from the rule system; the grid of a picture is the one the
GM accepted (``grid=``) or, left out, the one :func:`engine.files.grid_detection.detect_grid`
finds; a picture without a findable grid is refused with :class:`NoGridFound`, which says to
give one.
"""

from __future__ import annotations

import math
import os
from dataclasses import replace
from pathlib import Path

from engine.battlemap import Background, BattleMap
from engine.encounter import EncounterState
from engine.files.grid_detection import GridGuess, detect_grid
from engine.files.images import ImageProblem, check_image
from engine.rules import get_system
from engine.rules.base import CommandError, RuleSystem
from engine.turns.session import Encounter

#: Largest map made from a picture or asked for, in squares a side.
MAX_SQUARES = 400
#: A last column or row of squares counts when at least this much of it is in the picture.
PARTIAL_SQUARE = 0.95

Grid = tuple[float, float, float] | GridGuess


class NoGridFound(CommandError):
    """The picture shows no grid Killbox can find; the GM gives one (grid=...)."""


def new_encounter(
    system: str | RuleSystem,
    name: str,
    *,
    size: tuple[int, int] | None = None,
    picture: bytes | str | os.PathLike[str] | None = None,
    grid: Grid | None = None,
    seed: int | None = None,
) -> Encounter:
    """A new, empty encounter of ``system`` called ``name``, ready for the editing commands.

    Give ``size=(width, height)`` in squares for a blank map, or ``picture=`` (PNG, JPEG or
    WebP bytes or path) for a battle map; its ``grid=(pixels_per_square, offset_x, offset_y)``
    is found when left out. With both, ``size`` is the map's size over the picture.
    """
    rules = get_system(system) if isinstance(system, str) else system
    if not name.strip():
        raise CommandError("an encounter needs a name")
    if picture is None:
        if size is None:
            raise CommandError("say the map's size in squares (size=(w, h)) or give a picture")
        width, height = _checked_size(size)
        state = EncounterState(name, rules.name, rules.scale, BattleMap(width, height))
        return Encounter(state, rules, seed=seed)
    data = picture if isinstance(picture, bytes) else Path(picture).read_bytes()
    try:
        _, (picture_width, picture_height) = check_image(data)
    except ImageProblem as problem:
        raise CommandError(f"the picture is refused: {problem}") from problem
    if grid is None:
        guess = detect_grid(data)
        if not guess.found:
            raise NoGridFound(
                f"no grid found in the picture (confidence {guess.confidence:.2f}); give its "
                "grid=(pixels_per_square, offset_x, offset_y), e.g. by drawing one square"
            )
        grid = guess
    pixels, offset_x, offset_y = float(grid[0]), float(grid[1]), float(grid[2])
    if not (math.isfinite(pixels) and pixels > 0):
        raise CommandError(f"pixels per square must be a positive number, not {pixels}")
    if size is None:
        size = (
            squares_across(picture_width, pixels, offset_x),
            squares_across(picture_height, pixels, offset_y),
        )
    width, height = _checked_size(size)
    fight = Encounter(EncounterState(name, rules.name, rules.scale, BattleMap(width, height)),
                      rules, seed=seed)
    stem = Path(picture).stem if not isinstance(picture, bytes) else "map"
    image = fight.add_image(data, stem)
    background = Background(image, pixels, offset_x, offset_y)
    state = replace(fight.state, battlemap=replace(fight.state.battlemap, background=background))
    return Encounter(state, rules, seed=seed, images=fight.images)


def squares_across(pixels_long: int, pixels_per_square: float, offset: float) -> int:
    """Whole squares from the first grid line to the picture's edge (a nearly whole last one
    counts); the grid dialog shows the same count before the map is made."""
    return max(1, math.floor((pixels_long - offset) / pixels_per_square + 1 - PARTIAL_SQUARE))


def _checked_size(size: tuple[int, int]) -> tuple[int, int]:
    width, height = size
    for value, what in ((width, "width"), (height, "height")):
        if isinstance(value, bool) or not isinstance(value, int) or not (
            1 <= value <= MAX_SQUARES
        ):
            raise CommandError(
                f"the map's {what} must be a whole number of squares from 1 to {MAX_SQUARES}, "
                f"not {value!r}"
            )
    return width, height
