"""The numbers this system hands to engine.geometry: its cover table and range bands (JSON
beside this module, editable) and which squares a template or cone covers."""

from __future__ import annotations

from engine.geometry.areas import RangeTable, load_range_table
from engine.geometry.cover import CoverTable, load_cover_table
from engine.geometry.templates import Inclusion
from engine.grid import DiagonalRule, GridScale, Unit

_PACKAGE = __name__.rpartition(".")[0]
COVER: CoverTable = load_cover_table(_PACKAGE)
RANGES: RangeTable = load_range_table(_PACKAGE)
#: A square counts when any part of it lies beneath the template (merely touching an edge
#: does not).
INCLUSION = Inclusion.PARTIAL

#: A step into difficult terrain costs this many times the step (handed to engine.routes as
#: ``RuleSystem.difficult_terrain_cost``). Rules-silent choice, the usual convention: double;
#: the rule file names no terrain cost.
DIFFICULT_TERRAIN_COST = 2

#: The tabletop inch: one square is 1", every diagonal 1 square.
SCALE = GridScale(1.0, Unit.INCHES, DiagonalRule.ONE)
