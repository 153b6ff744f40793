"""Savage Worlds templates on the map's own grid.

The templates are sized in tabletop inches (Small, Medium and Large Blast: radius 1", 2" and
3"; the Cone: 9" long). The geometry package draws them one inch to a square; a map whose
squares stand for more or less than an inch gets them rescaled here, so a Medium Blast on
a 2"-square map covers a radius of one square.
"""

from __future__ import annotations

import shapely
import shapely.affinity

from engine.encounter import EncounterState
from engine.geometry.results import TemplateResult
from engine.geometry.templates import (
    SAVAGE_BLASTS,
    apply_template,
    circle_shape,
    savage_cone_shape,
)
from engine.grid import Point, Unit


def squares_per_inch(state: EncounterState) -> float:
    if state.scale.unit is not Unit.INCHES:
        raise ValueError(
            f"a Savage Worlds template needs a map measured in inches, not {state.scale.unit}"
        )
    return 1.0 / state.scale.square_size


def blast(state: EncounterState, centre: Point, size: str = "medium") -> TemplateResult:
    """A Small, Medium or Large Blast Template centred on ``centre`` (square units),
    cut to what its centre can see."""
    try:
        radius_inches = SAVAGE_BLASTS[size.lower()]
    except KeyError:
        raise ValueError(f"no blast template called {size!r}") from None
    shape = circle_shape(centre, radius_inches * squares_per_inch(state))
    return apply_template(state, shape, origin=centre, clip_to_walls=True)


def cone(state: EncounterState, origin: Point, direction: float) -> TemplateResult:
    """The Cone Template from ``origin`` towards ``direction`` (degrees clockwise from east)."""
    factor = squares_per_inch(state)
    shape: shapely.Geometry = shapely.affinity.scale(
        savage_cone_shape(origin, direction), factor, factor, origin=origin
    )
    return apply_template(state, shape, origin=origin, clip_to_walls=True)
