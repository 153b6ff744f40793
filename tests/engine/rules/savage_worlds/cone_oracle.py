"""The Savage Worlds Cone Template built straight from the rules' numbers, as a test oracle.

The app lays the Cone through its ``TemplateSpec`` (``templates.TEMPLATES``); this builds
the same template by hand (a 9" teardrop with a 1.5" round end, scaled to the map's grid)
so the tests can check that the laid template covers what the rules do.
"""

from __future__ import annotations

import shapely
import shapely.affinity

from engine.encounter import EncounterState
from engine.geometry.results import TemplateResult
from engine.geometry.templates import apply_template, teardrop_shape
from engine.grid import Point
from engine.rules.savage_worlds.tables import INCLUSION
from engine.rules.savage_worlds.templates import CONE_END_RADIUS, CONE_LENGTH, squares_per_inch


def cone(state: EncounterState, origin: Point, direction: float) -> TemplateResult:
    """The Cone Template from ``origin`` towards ``direction`` (degrees clockwise from east)."""
    factor = squares_per_inch(state)
    shape: shapely.Geometry = shapely.affinity.scale(
        teardrop_shape(origin, direction, CONE_LENGTH, CONE_END_RADIUS), factor, factor,
        origin=origin,
    )
    return apply_template(state, shape, origin=origin, inclusion=INCLUSION, clip_to_walls=True)
