"""What the party sees, asked of ``engine.geometry`` (fog of war for the player view).

``party_sees`` asks afresh; ``PartySight`` keeps each party token's answer and asks again
only for the tokens that moved (or for all, when the map changed: a door, a wall).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.measuring import sight_radius
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


@dataclass(frozen=True)
class PartyView:
    """The party's sight: the squares any party token sees, and each token's answer
    (``engine.geometry.VisibleSquares``: its ``outlines`` are the regions seen from the
    token's sight corners, what the fog is drawn from)."""

    squares: frozenset[Square]
    views: tuple[Any, ...]


class PartySight:
    """``party_sees`` kept up to date: only what changed is asked again."""

    def __init__(self) -> None:
        self._answers: dict[str, tuple[object, Square, int, float, Any]] = {}

    def update(self, state: EncounterState) -> PartyView | None:
        """The party's sight in ``state``; None when the engine cannot say (then: no fog)."""
        function = _visible_squares_function()
        if function is None:
            return None
        radius = sight_radius(state)
        bm = state.battlemap
        answers: dict[str, tuple[object, Square, int, float, Any]] = {}
        for token in state.tokens:
            if token.side is not Side.PARTY:
                continue
            known = self._answers.get(token.id)
            if known is not None and known[:4] == (bm, token.square, token.size, radius):
                answers[token.id] = known
            else:
                answers[token.id] = (
                    bm,
                    token.square,
                    token.size,
                    radius,
                    function(bm, token, radius),
                )
        self._answers = answers
        views = tuple(answer[4] for answer in answers.values())
        squares: set[Square] = set()
        for view in views:
            squares |= view.squares
        return PartyView(frozenset(squares), views)
