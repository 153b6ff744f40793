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
#: A square counts when its centre lies in the template (on its edge counts).
INCLUSION = Inclusion.CENTRE

#: A step into difficult terrain costs this many times the step (handed to engine.routes as
#: ``RuleSystem.difficult_terrain_cost``). Rules-silent choice, the usual convention: double;
#: the Run and move text in the rule file name no terrain cost.
DIFFICULT_TERRAIN_COST = 2

#: One square is 1.5 m, every diagonal 1 square.
SCALE = GridScale(1.5, Unit.METRES, DiagonalRule.ONE)

#: The weapon fields these rules read (``RuleSystem.weapon_fields``): a weapon's range is its
#: normal range in metres (past it -2, long range the limit: attack_math), its magazine the
#: capacity. No fire modes and no rate of fire: the rule text has no burst or automatic fire.
WEAPON_FIELDS = (
    ("name", "Name"),
    ("damage", "Damage"),
    ("range_increment", "Normal range (m)"),
    ("ammo", "Ammo"),
    ("capacity", "Magazine"),
    ("melee", "Melee"),
    ("traits", "Traits"),
)
