"""What the party sees, asked of ``engine.geometry`` (fog of war for the player view)."""

from __future__ import annotations

import importlib
from typing import Any

from engine.encounter import EncounterState
from engine.grid import Square
from engine.tokens import Side


def _visible_squares_function() -> Any | None:
    for name in ("engine.geometry", "engine.geometry.visibility"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        function = getattr(module, "visible_squares", None)
        if function is not None:
            return function
    return None


def sight_radius(state: EncounterState) -> float:
    """Sight reaches across the whole map: the rule texts set no limit in light."""
    bm = state.battlemap
    return float(bm.width + bm.height)


def party_sees(state: EncounterState) -> frozenset[Square] | None:
    """Squares any party token sees; None when the engine cannot say (then: no fog)."""
    function = _visible_squares_function()
    if function is None:
        return None
    seen: set[Square] = set()
    radius = sight_radius(state)
    for token in state.tokens:
        if token.side is Side.PARTY:
            seen |= function(state.battlemap, token, radius).squares
    return frozenset(seen)
