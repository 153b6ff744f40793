"""Result values shared by the geometry functions: modifiers, affected tokens, templates."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import shapely

from engine.grid import Square
from engine.tokens import are_opponents

if TYPE_CHECKING:
    from engine.encounter import EncounterState


@dataclass(frozen=True)
class Modifier:
    """A number a rule adds to one roll, named so the GM can read where it comes from."""

    rule: str
    value: int
    applies_to: str
    note: str = ""

    def __str__(self) -> str:
        return f"{self.rule}: {self.value:+d} {self.applies_to}"


@dataclass(frozen=True)
class AffectedToken:
    """A token an area touches: which of its squares lie inside, and what changes for it."""

    token_id: str
    squares: tuple[Square, ...]
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class TemplateResult:
    """An area on the map: its shape (square units), the squares it covers, tokens it touches.

    ``reasons`` explains, in plain words, anything that limits or forbids the area;
    ``allowed`` is False when the rules forbid it (the shape is still given, to draw).
    """

    shape: shapely.Geometry
    squares: frozenset[Square]
    tokens: tuple[AffectedToken, ...] = ()
    reasons: tuple[str, ...] = field(default=())
    allowed: bool = True

    def token_ids(self) -> tuple[str, ...]:
        return tuple(t.token_id for t in self.tokens)

    def affected(self, token_id: str) -> AffectedToken:
        for token in self.tokens:
            if token.token_id == token_id:
                return token
        raise KeyError(f"token {token_id!r} is not touched by this area")


def opponents_inside(
    encounter: EncounterState, token_id: str, squares: Iterable[Square],
    modifiers: tuple[Modifier, ...],
) -> tuple[AffectedToken, ...]:
    """Each opponent of ``token_id`` with a square among ``squares``, given ``modifiers``."""
    inside = set(squares)
    token = encounter.token(token_id)
    return tuple(
        AffectedToken(other.id, under, modifiers)
        for other in encounter.others(token_id)
        if are_opponents(token.side, other.side)
        and (under := tuple(s for s in other.squares if s in inside))
    )


def squares_shape(squares: Iterable[Square]) -> shapely.Geometry:
    """The outline of a set of squares, in square units."""
    unique = sorted(set(squares))
    if not unique:
        return shapely.Polygon()
    xy = np.asarray(unique, dtype=np.float64)
    boxes = shapely.box(xy[:, 0], xy[:, 1], xy[:, 0] + 1, xy[:, 1] + 1)
    # Distinct squares never overlap, so the fast coverage union applies.
    return shapely.coverage_union_all(boxes)
