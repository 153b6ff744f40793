"""Savage Worlds templates on the map's own grid.

The templates are sized in tabletop inches (Small, Medium and Large Blast: radius 1", 2" and
3"; the Cone: 9" long). The geometry package draws them one inch to a square; a map whose
squares stand for more or less than an inch gets them rescaled here, so a Medium Blast on
a 2"-square map covers a radius of one square.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.geometry.results import TemplateResult
from engine.geometry.templates import (
    TemplateForm,
    TemplateSpec,
    apply_template,
    circle_shape,
    teardrop_shape,
)
from engine.grid import Point, Unit
from engine.rules.savage_worlds.tables import INCLUSION

#: Blast templates by name: radius in inches.
BLASTS: dict[str, float] = {"small": 1.0, "medium": 2.0, "large": 3.0}
#: The Cone Template: 9 inches long, its far end a round of 1.5 inch radius.
CONE_LENGTH = 9.0
CONE_END_RADIUS = 1.5

#: The templates the GM lays on the map (sizes in squares of the usual one-inch grid).
TEMPLATES: tuple[TemplateSpec, ...] = (
    *(
        TemplateSpec(f"{name}_blast", f"{name.title()} Blast", TemplateForm.CIRCLE, radius,
                     on_corner=False, sized=False, turns=False)
        for name, radius in BLASTS.items()
    ),
    TemplateSpec("cone_template", "Cone Template", TemplateForm.TEARDROP, CONE_LENGTH,
                 on_corner=True, sized=False, end_radius=CONE_END_RADIUS),
)


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
        radius_inches = BLASTS[size.lower()]
    except KeyError:
        names = ", ".join(BLASTS)
        raise ValueError(f"no blast template called {size!r}; choose one of {names}") from None
    shape = circle_shape(centre, radius_inches * squares_per_inch(state))
    return apply_template(state, shape, origin=centre, inclusion=INCLUSION, clip_to_walls=True)



def cone(state: EncounterState, origin: Point, direction: float) -> TemplateResult:
    """The Cone Template from ``origin`` (its narrow end) pointing ``direction`` degrees,
    cut to what its origin can see."""
    scale = squares_per_inch(state)
    shape = teardrop_shape(origin, direction, CONE_LENGTH * scale, CONE_END_RADIUS * scale)
    return apply_template(state, shape, origin=origin, inclusion=INCLUSION, clip_to_walls=True)
