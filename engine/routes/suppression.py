"""Suppressive Fire on the move: which final attacks a route draws.

Where a system's Suppressive Fire gives the shooter a final attack on each opponent who
moves through the area (while his firearm has ammunition left) and a penalty on the
mover's checks, a route is checked here against the areas in force: the system's rule
fills ``engine.geometry.suppression.SuppressionArea`` (with ``draws_final_attacks``), and
those areas can be passed as they are.

Rules-silent choices: "moves through" is any square the mover's footprint covers after
leaving its start square, the last one included; a shooter attacks a mover once per
route even if the route crosses his square twice; the -4 applies even when the shooter
is out of ammunition (the warning shots did their work).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from engine.grid import Square, squares_of_footprint
from engine.routes.graph import MovementGraph
from engine.routes.results import FinalAttack, Route
from engine.tokens import are_opponents

FINAL_ATTACK_PENALTY = -4
SUPPRESSED_CHECK_PENALTY = -4


class SuppressionLike(Protocol):
    """What a route needs of a Suppressive Fire in force; ``engine.geometry.suppression``'s
    ``SuppressionArea`` fits, and so does ``SuppressedArea``."""

    @property
    def shooter_id(self) -> str: ...

    @property
    def weapon(self) -> str: ...

    @property
    def squares(self) -> frozenset[Square]: ...


@dataclass(frozen=True, slots=True)
class SuppressedArea:
    """A Suppressive Fire action in force: who fires, with what, at which square(s)."""

    shooter_id: str
    weapon: str
    squares: frozenset[Square]


def _in_force(areas: Iterable[SuppressionLike]) -> list[SuppressionLike]:
    """Areas that draw final attacks: allowed ones whose rule says they do."""
    return [
        area
        for area in areas
        if getattr(area, "allowed", True) and getattr(area, "draws_final_attacks", True)
    ]


def final_attacks(
    movement: MovementGraph, mover_id: str, route: Route, areas: Iterable[SuppressionLike]
) -> tuple[FinalAttack, ...]:
    """One final attack per suppressing opponent whose square the route crosses (ammo left)."""
    mover = movement.token(mover_id)
    crossed = _crossed(route, mover.size)
    attacks = []
    for area in _in_force(areas):
        shooter = movement.tokens.get(area.shooter_id)
        if shooter is None or not are_opponents(shooter.side, mover.side):
            continue
        square = next((s for s in crossed if s in area.squares), None)
        if square is None:
            continue
        if shooter.weapon(area.weapon).ammo > 0:
            attacks.append(FinalAttack(shooter.id, area.weapon, square, FINAL_ATTACK_PENALTY))
    return tuple(attacks)


def _crossed(route: Route, size: int) -> list[Square]:
    seen: set[Square] = set()
    ordered: list[Square] = []
    for anchor in route.squares[1:]:
        for square in squares_of_footprint(anchor, size):
            if square not in seen:
                seen.add(square)
                ordered.append(square)
    return ordered


def with_suppression(
    movement: MovementGraph, mover_id: str, route: Route, areas: Iterable[SuppressionLike]
) -> Route:
    """The route with its final attacks and the mover's check penalty filled in."""
    mover = movement.token(mover_id)
    areas = _in_force(areas)
    crossed = set(_crossed(route, mover.size))
    suppressed = any(
        crossed & area.squares
        for area in areas
        if area.shooter_id in movement.tokens
        and are_opponents(movement.tokens[area.shooter_id].side, mover.side)
    )
    return replace(
        route,
        final_attacks=final_attacks(movement, mover_id, route, areas),
        check_penalty=SUPPRESSED_CHECK_PENALTY if suppressed else 0,
    )
