"""What a preview asks the map to draw: the typed overlay of :class:`engine.rules.base.Preview`.

A rule fills its preview's overlay from the very computation its resolution uses, so the map
can never show what the rule will not do. The desktop draws these parts generically, knowing
no rule system:

* :class:`OverlayArea`: an area and the squares it covers (a Suppressive Fire template, a
  Strafe sweep, where a Withdraw may end), with its exact outline when it has one;
* :class:`SquareMark`: one square with a short label and, when refused, the reason (a Strafe
  chain's Defense steps, "a friend stands here");
* :class:`OverlayRoute`: a path in order (the mover's top-left square, start first) and its
  end square;
* :class:`OverlayToken`: a token the command touches, its role and its modifiers;
* :class:`OverlayShape`: a cone, circle, square or line template as a shape;
* :class:`OverlayNote`: a short text beside a square (a ruler leg's distance).

Coordinates are square units (x right, y down; square (x, y) spans [x, x+1] x [y, y+1]),
angles degrees clockwise from east, as in :mod:`engine.geometry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypeVar

import shapely

from engine.grid import Square

T = TypeVar("T")
_Toned = TypeVar("_Toned", "OverlayArea", "OverlayRoute")


@dataclass(frozen=True, slots=True)
class Modifier:
    """A named number that changes a roll or a count ("Aim +1", "Brace +1 fluid")."""

    name: str
    value: int
    applies_to: str = "attack"

    def __str__(self) -> str:
        return f"{self.name} {self.value:+d} ({self.applies_to})"


class Tone(StrEnum):
    """How a part reads: what the command does, what the rule refuses, context, a hint drawn
    softer than the rest, or what a viewer does not see (the map darkens it)."""

    LEGAL = "legal"
    REFUSED = "refused"
    INFO = "info"
    HINT = "hint"  # background a tool only suggests (where a weapon could fly)
    UNSEEN = "unseen"  # out of a viewer's sight: drawn as fog


class Role(StrEnum):
    """Why a token is in the overlay."""

    ACTOR = "actor"  # the token acting
    TARGET = "target"  # the command's target: rolled against
    AFFECTED = "affected"  # under an area (suppressed, under a template, swept)
    SPARED = "spared"  # inside the area, but the rule leaves it out (a friend in a Strafe)
    THREAT = "threat"  # a token that reacts (a free attack on a Withdraw, a final attack)


class ShapeKind(StrEnum):
    CONE = "cone"
    CIRCLE = "circle"
    SQUARE = "square"
    LINE = "line"
    POLYGON = "polygon"


@dataclass(frozen=True, slots=True)
class OverlayArea:
    """An area a rule names, the squares it covers, and its exact outline when it has one
    (a blast cut by walls; None: the squares are the area)."""

    label: str
    squares: frozenset[Square]
    tone: Tone = Tone.LEGAL
    reason: str = ""
    outline: shapely.Geometry | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "squares", frozenset(Square(*s) for s in self.squares))


@dataclass(frozen=True, slots=True)
class SquareMark:
    """One square with a label ("+2 Defense") and, for a refused square, why."""

    square: Square
    label: str
    tone: Tone = Tone.LEGAL
    reason: str = ""


@dataclass(frozen=True, slots=True)
class OverlayRoute:
    """A path, start first, with its cost as a label; a refused route says why. A ``walked``
    route is the token's standing on its start (a big token's line runs through its centre);
    a measurement or a flight is not, and runs through the squares' own centres."""

    squares: tuple[Square, ...]
    label: str = ""
    tone: Tone = Tone.LEGAL
    reason: str = ""
    walked: bool = True

    def __post_init__(self) -> None:
        if not self.squares:
            raise ValueError("a route needs at least one square")
        object.__setattr__(self, "squares", tuple(Square(*s) for s in self.squares))

    @property
    def start(self) -> Square:
        return self.squares[0]

    @property
    def end(self) -> Square:
        return self.squares[-1]


@dataclass(frozen=True, slots=True)
class OverlayToken:
    """A token the command touches: its role, the modifiers that apply to it, a note, and
    whether it is refused (a token out of sight, out of range: the map dashes it red)."""

    token_id: str
    role: Role = Role.TARGET
    modifiers: tuple[Modifier, ...] = ()
    note: str = ""
    tone: Tone = Tone.LEGAL


@dataclass(frozen=True, slots=True)
class OverlayShape:
    """A template as a shape: its outline, where it starts, which way it points and how far
    it reaches (square units; None where the kind has no direction or reach)."""

    kind: ShapeKind
    label: str
    outline: shapely.Geometry
    origin: tuple[float, float]
    direction: float | None = None
    reach: float | None = None
    tone: Tone = Tone.LEGAL


@dataclass(frozen=True, slots=True)
class OverlayNote:
    """A short text beside a square, kept readable at any zoom (a ruler leg's distance)."""

    square: Square
    text: str
    tone: Tone = Tone.INFO

    def __post_init__(self) -> None:
        object.__setattr__(self, "square", Square(*self.square))


@dataclass(frozen=True, slots=True)
class Overlay:
    """Everything a preview asks the map to draw. Empty by default."""

    areas: tuple[OverlayArea, ...] = ()
    marks: tuple[SquareMark, ...] = ()
    routes: tuple[OverlayRoute, ...] = ()
    tokens: tuple[OverlayToken, ...] = ()
    shapes: tuple[OverlayShape, ...] = ()
    notes: tuple[OverlayNote, ...] = ()

    def __bool__(self) -> bool:
        return bool(
            self.areas or self.marks or self.routes or self.tokens or self.shapes or self.notes
        )

    def squares(self, tone: Tone = Tone.LEGAL) -> frozenset[Square]:
        """The squares of the areas with ``tone`` (by default: what the command covers)."""
        return frozenset().union(*(a.squares for a in self.areas if a.tone is tone))

    def token_ids(self, *roles: Role) -> tuple[str, ...]:
        """The tokens in the overlay with one of ``roles`` (all roles when none given)."""
        return tuple(t.token_id for t in self.tokens if not roles or t.role in roles)

    def token(self, token_id: str) -> OverlayToken:
        for token in self.tokens:
            if token.token_id == token_id:
                return token
        raise KeyError(f"token {token_id!r} is not in this overlay")

    def refused(self, reasons: tuple[str, ...]) -> Overlay:
        """The overlay of a command the rules refuse: every legal area, route and shape turns
        refused, keeping its own reason or taking ``reasons``. Marks keep their own verdict:
        they say which squares are fine and which are the trouble."""
        why = "; ".join(reasons)

        def turn(part: _Toned) -> _Toned:
            if part.tone is not Tone.LEGAL:
                return part
            return replace(part, tone=Tone.REFUSED, reason=getattr(part, "reason", "") or why)

        return Overlay(
            areas=tuple(turn(a) for a in self.areas),
            marks=self.marks,
            routes=tuple(turn(r) for r in self.routes),
            tokens=self.tokens,
            shapes=tuple(
                s if s.tone is not Tone.LEGAL else replace(s, tone=Tone.REFUSED)
                for s in self.shapes
            ),
            notes=self.notes,
        )

    def plus(self, *others: Overlay) -> Overlay:
        """This overlay with the parts of ``others`` after its own."""
        parts = (self, *others)
        return Overlay(
            areas=_joined(p.areas for p in parts),
            marks=_joined(p.marks for p in parts),
            routes=_joined(p.routes for p in parts),
            tokens=_joined(p.tokens for p in parts),
            shapes=_joined(p.shapes for p in parts),
            notes=_joined(p.notes for p in parts),
        )


def _joined(groups: Iterable[tuple[T, ...]]) -> tuple[T, ...]:
    return tuple(item for group in groups for item in group)
