"""The numbers this system hands to engine.geometry and engine.routes: its cover table and
range bands (JSON beside this module, editable), which squares a template or cone covers, and
its Deviation Diagram."""

from __future__ import annotations

from engine.geometry.areas import RangeTable, load_range_table
from engine.geometry.cover import CoverTable, load_cover_table
from engine.geometry.templates import Inclusion
from engine.routes.deviation import DeviationRule

_PACKAGE = __name__.rpartition(".")[0]
COVER: CoverTable = load_cover_table(_PACKAGE)
RANGES: RangeTable = load_range_table(_PACKAGE)
#: A square counts when its centre lies in the template (on its edge counts).
INCLUSION = Inclusion.CENTRE
#: A weapon sent flying (Disarm with a threat) goes 1d4+1 squares; the d8 numbering of the
#: neighbours is the shared default (no text prints the diagram).
DEVIATION = DeviationRule(flight="1d4+1")

#: A step into difficult terrain costs this many times the step (handed to engine.routes as
#: ``RuleSystem.difficult_terrain_cost``). Rules-silent choice, the usual convention: double;
#: the rule file only says terrain reduces Speed (its page is not here).
DIFFICULT_TERRAIN_COST = 2
