"""Geometry of the battle map with Shapely 2: sight, cover, templates, areas, sweeps.

Conventions (shared with ``engine.grid``):

* Coordinates are in square units, x to the right and y **down**; square (x, y) spans
  [x, x+1] x [y, y+1]. Every Shapely shape returned here is in these units, ready for
  the desktop to scale into scene coordinates.
* Angles are in degrees, measured clockwise on screen from "east" (+x), because y grows
  downwards: 90 degrees points down the map (+y).
* Line of sight follows one rule everywhere: any corner of one square to any corner of the
  other, see ``engine.geometry.los``.
* Results are frozen dataclasses: the shape, the squares covered, the tokens affected with
  their modifiers, and, when something is not allowed, the reasons in plain words.
* Where the rule texts are silent we chose, and the modules say so: cones are quarter
  circles (90 degrees) measured with true distance; range bands count squares with the
  map's diagonal rule; cover grades come from the share of blocked corner lines; a
  sweep's "directly behind" means the shooter's centre line to a square passes through
  the inside of another swept square.
* No rule system is named here: a system's numbers (its cover table, range bands, which
  squares a template covers, its templates) are parameters it hands over.
* Derived per-map structures (the sight index) are cached by map, so repeated questions
  about the same ``BattleMap`` reuse them.
"""

from engine.geometry.areas import (
    RangeBand,
    RangeBands,
    RangeTable,
    load_range_table,
    map_reach,
    range_bands,
    token_centre,
    token_cone,
)
from engine.geometry.cover import (
    CoverLevel,
    CoverResult,
    CoverTable,
    cover_between,
    load_cover_table,
)
from engine.geometry.los import (
    CORNER_INSET,
    SightResult,
    SightTable,
    explain_line_of_sight,
    first_blocker,
    has_line_of_sight,
    sight_pairs,
    squares_see_each_other,
    token_line_of_sight,
    token_sees_square,
)
from engine.geometry.results import AffectedToken, Modifier, TemplateResult, squares_shape
from engine.geometry.strafe import ChainCheck, check_chain
from engine.geometry.suppression import SuppressionArea
from engine.geometry.templates import (
    STANDARD_TEMPLATES,
    Inclusion,
    TemplateForm,
    TemplateSpec,
    apply_template,
    circle_template,
    cone_template,
    covered_squares,
    lay_template,
    line_template,
    square_template,
    teardrop_shape,
)
from engine.geometry.visibility import (
    VisibleSquares,
    visibility_polygon,
    visibility_polygons,
    visible_squares,
)

__all__ = [
    "CORNER_INSET",
    "STANDARD_TEMPLATES",
    "AffectedToken",
    "ChainCheck",
    "CoverLevel",
    "CoverResult",
    "CoverTable",
    "Inclusion",
    "Modifier",
    "RangeBand",
    "RangeBands",
    "RangeTable",
    "SightResult",
    "SightTable",
    "SuppressionArea",
    "TemplateForm",
    "TemplateResult",
    "TemplateSpec",
    "VisibleSquares",
    "apply_template",
    "check_chain",
    "circle_template",
    "cone_template",
    "cover_between",
    "covered_squares",
    "explain_line_of_sight",
    "first_blocker",
    "has_line_of_sight",
    "lay_template",
    "line_template",
    "load_cover_table",
    "load_range_table",
    "map_reach",
    "range_bands",
    "sight_pairs",
    "square_template",
    "squares_see_each_other",
    "squares_shape",
    "teardrop_shape",
    "token_centre",
    "token_cone",
    "token_line_of_sight",
    "token_sees_square",
    "visibility_polygon",
    "visibility_polygons",
    "visible_squares",
]
