"""Savage Worlds Adventure Edition on the turn engine (system name ``savage-worlds``).

Initiative by the Action Deck (``deck``), Hold (``hold``), Trait rolls (``traits``),
conditions and their durations (``conditions``), the attack maneuvers (``maneuvers``),
opposed maneuvers and Support (``opposed_maneuvers``) and Suppressive Fire.
"""

from engine.rules.savage_worlds.system import SYSTEM, SavageWorldsSystem

__all__ = ["SYSTEM", "SavageWorldsSystem"]
