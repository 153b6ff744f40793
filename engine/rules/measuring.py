"""What the GM's measuring tools show, worked out here so that the map only draws it.

The template, line-of-sight, range-band and Deviation Diagram tools ask these functions and draw the
:class:`Measured` they return: an :class:`~engine.overlay.Overlay` (the same payload a
preview carries) and the lines of the tool's label. Whatever depends on the rule system (the
templates it offers and how they count squares, its cover table, its range bands) comes
from the :class:`~engine.rules.base.RuleSystem` given; nothing here names a system.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import shapely

from engine.encounter import EncounterState
from engine.geometry import (
    Inclusion,
    TemplateForm,
    TemplateSpec,
    cover_between,
    lay_template,
    range_bands,
    token_line_of_sight,
    visible_squares,
)
from engine.grid import Point, Square
from engine.overlay import (
    Modifier,
    Overlay,
    OverlayArea,
    OverlayRoute,
    OverlayToken,
    Role,
    ShapeKind,
    SquareMark,
    Tone,
)
from engine.routes.deviation import Roll, deviate, weapon_flight
from engine.routes.graph import MovementGraph
from engine.rules.base import RuleSystem
from engine.rules.overlays import sight_line, sight_to_square, template_overlay
from engine.words import counted


@dataclass(frozen=True, slots=True)
class Measured:
    """What a measuring tool shows: the overlay the map draws and the lines of its label."""

    overlay: Overlay
    lines: tuple[str, ...] = ()


# --- templates ---------------------------------------------------------------------------------

#: How each inclusion rule reads on the template tool's label.
INCLUSION_TEXT = {
    Inclusion.CENTRE: "a square counts when its centre is inside",
    Inclusion.PARTIAL: "a square counts when any part of it is beneath",
}
_SHAPE_KIND = {
    TemplateForm.CONE: ShapeKind.CONE,
    TemplateForm.CIRCLE: ShapeKind.CIRCLE,
    TemplateForm.SQUARE: ShapeKind.SQUARE,
    TemplateForm.LINE: ShapeKind.LINE,
    TemplateForm.TEARDROP: ShapeKind.POLYGON,
}


def system_template(system: RuleSystem, key: str) -> TemplateSpec:
    """The template of ``system`` with this key (KeyError naming the ones it has)."""
    for spec in system.templates:
        if spec.key == key:
            return spec
    known = ", ".join(spec.key for spec in system.templates)
    raise KeyError(f"{system.title} has no template {key!r} (it has {known})")


def template_origin(spec: TemplateSpec, point: Point) -> Point:
    """Where a template laid at ``point`` (square units) starts: the nearest grid
    intersection for a template laid from a corner, else the centre of the square under it
    (rules-silent, as MapTool lays them)."""
    x, y = point
    if spec.on_corner:
        return (float(round(x)), float(round(y)))
    return (math.floor(x) + 0.5, math.floor(y) + 0.5)


def template_label(state: EncounterState, spec: TemplateSpec, size: float) -> str:
    """The template's name with its size in the map's units ("Cone 15 ft")."""
    return f"{spec.label} {state.scale.describe(size)}" if spec.sized else spec.label


def measure_template(
    state: EncounterState,
    system: RuleSystem,
    spec: TemplateSpec,
    origin: Point,
    direction: float,
    size: float,
    *,
    clip_to_walls: bool = False,
) -> Measured:
    """``spec`` laid at ``origin``: its shape, the squares it covers under the system's
    inclusion rule and the tokens it touches. A ValueError says why it cannot be laid
    (cut to walls from a point off the map)."""
    result = lay_template(
        state, spec, origin, direction, size,
        inclusion=system.template_inclusion, clip_to_walls=clip_to_walls,
    )
    label = template_label(state, spec, size)
    overlay = template_overlay(
        label, result, _SHAPE_KIND[spec.form], origin,
        direction=direction if spec.turns else None,
        reach=size if spec.sized else spec.size,
        reasons=() if result.allowed else result.reasons,
    )
    touched = ", ".join(state.token(t).name for t in result.token_ids())
    lines = (
        label + (f", {direction:g}°" if spec.turns else ""),
        f"touches: {touched}" if touched else "touches nobody",
        INCLUSION_TEXT[system.template_inclusion],
        *result.reasons,
    )
    return Measured(overlay, lines)


# --- line of sight -----------------------------------------------------------------------------


def sight_radius(state: EncounterState) -> float:
    """Sight reaches across the whole map: the rule texts set no limit in light."""
    return float(state.battlemap.width + state.battlemap.height)


def sight_rings(state: EncounterState, viewer_id: str) -> Measured:
    """Who ``viewer_id`` sees: the viewer, each token it sees, and each it does not (refused)."""
    viewer = state.token(viewer_id)
    rings = [OverlayToken(viewer.id, Role.ACTOR, note="looking from here")]
    seen = 0
    for other in state.others(viewer.id):
        sees = token_line_of_sight(state.battlemap, viewer, other)
        seen += sees
        verb = "sees" if sees else "does not see"
        tone = Tone.LEGAL if sees else Tone.REFUSED
        rings.append(OverlayToken(other.id, Role.TARGET, note=f"{viewer.name} {verb} {other.name}",
                                  tone=tone))
    lines = (f"{viewer.name} sees {seen} of {counted(len(state.tokens) - 1, 'token')}",)
    return Measured(Overlay(tokens=tuple(rings)), lines)


def sight_to(state: EncounterState, system: RuleSystem, viewer_id: str, square: Square) -> Measured:
    """Sight from ``viewer_id`` to ``square``: to a token there, the cover lines (blocked ones
    refused) and its cover under the system's table; to an empty square, one line and
    whether it is seen. Nothing for the viewer's own square or one off the map."""
    viewer = state.token(viewer_id)
    if not state.battlemap.in_bounds(square):
        return Measured(Overlay())
    target = state.token_at(square)
    if target is not None and target.id == viewer.id:
        return Measured(Overlay())
    if target is not None:
        cover = cover_between(state.battlemap, viewer, target, system.cover_table)
        lines = shapely.get_parts(cover.lines)
        shapes = tuple(
            sight_line(line, Tone.REFUSED if blocked else Tone.LEGAL)
            for line, blocked in zip(lines, cover.blocked, strict=False)
        )
        text = f"{target.name}: cover {cover.level.words}"
        if cover.modifier is not None:
            text += f" ({cover.modifier})"
        return Measured(Overlay(shapes=shapes), (text, *cover.reasons))
    sees, shape = sight_to_square(state, viewer, square)
    words = "in sight" if sees else "out of sight"
    return Measured(Overlay(shapes=(shape,)), (f"square {square}: {words}",))


def sight_fog(state: EncounterState, viewer_id: str) -> Measured:
    """The fog over what ``viewer_id`` does not see: one unseen area, the map's squares it
    does not see and the exact region outside what it sees (the map darkens it)."""
    viewer = state.token(viewer_id)
    seen = visible_squares(state.battlemap, viewer, sight_radius(state))
    board = shapely.box(0, 0, state.battlemap.width, state.battlemap.height)
    unseen = frozenset(state.battlemap.squares()) - seen.squares
    fog = OverlayArea(f"not seen by {viewer.name}", unseen, Tone.UNSEEN,
                      outline=board.difference(seen.shape))
    return Measured(Overlay(areas=(fog,)), (f"fog over what {viewer.name} does not see",))


# --- range bands -------------------------------------------------------------------------------


def measure_range(state: EncounterState, system: RuleSystem, actor_id: str, weapon: str,
                  ) -> Measured:
    """The range bands of ``actor_id``'s ``weapon`` under the system's range table, near
    first (each an area labelled with its name and modifier), and every other token in its
    band (ringed, with the band's modifier and, as its note, the band's label) or out of
    range (refused). A ValueError says why there are none (no table, no range increment)."""
    table = system.range_table
    if table is None:
        raise ValueError(f"{system.title} has no range bands")
    bands = range_bands(state, actor_id, weapon, table)
    labels = {band.name: f"{band.name}: {band.modifier.value:+d}" for band in bands.bands}
    areas = tuple(
        OverlayArea(labels[band.name], frozenset(), Tone.INFO, outline=band.shape)
        for band in bands.bands
    )
    actor = state.token(actor_id)
    scale = state.scale
    lines = [f"{actor.name}, {weapon}: maximum {scale.describe(bands.maximum)}"]
    if bands.cqb is not None:
        lines.append(f"CQB Range: {scale.describe(bands.cqb)}")
    lines.append(f"half the maximum: {scale.describe(bands.half_maximum)}")
    rings = [OverlayToken(actor_id, Role.ACTOR)]
    for affected in bands.tokens:
        band = affected.modifiers[0]
        modifier = Modifier(band.rule, band.value, band.applies_to)
        rings.append(OverlayToken(affected.token_id, Role.TARGET, (modifier,),
                                  note=labels.get(band.rule, band.rule)))
        lines.append(f"{state.token(affected.token_id).name}: {band.rule} ({band.value:+d})")
    for token_id in bands.out_of_range:
        rings.append(OverlayToken(token_id, Role.TARGET, note="out of range", tone=Tone.REFUSED))
        lines.append(f"{state.token(token_id).name}: out of range")
    return Measured(Overlay(areas=areas, tokens=tuple(rings)), tuple(lines))


# --- the Deviation Diagram ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeviationDiagram:
    """The Deviation Diagram around a square: ``measured`` to draw, and for each d8 number
    the square a scatter lands on (None: that number is rolled again) and the path of a
    weapon sent flying that way at the rule's longest flight."""

    measured: Measured
    landings: Mapping[int, Square | None]
    flights: Mapping[int, tuple[Square, ...]]


class _Rerolled(Exception):
    """The engine asked for another d8: the number tried does not land."""


def _fixed(*values: int) -> Roll:
    """Dice that show ``values`` in turn; asking for more means the number did not land."""
    given: Iterator[int] = iter(values)

    def roll(expression: str) -> int:
        try:
            return next(given)
        except StopIteration:
            raise _Rerolled(expression) from None

    return roll


def deviation_diagram(state: EncounterState, system: RuleSystem, movement: MovementGraph,
                      origin: Square) -> DeviationDiagram | None:
    """What each d8 number does around ``origin`` (a token there scatters as itself) under
    the system's ``deviation`` part, and how far a weapon flies each way; None when the
    system has no Deviation Diagram. Nothing is rolled: each number is tried in turn."""
    rule = system.deviation
    if rule is None:
        return None
    token = state.token_at(origin)
    anchor = token.square if token is not None else origin
    landings: dict[int, Square | None] = {}
    flights: dict[int, tuple[Square, ...]] = {}
    routes: list[OverlayRoute] = []
    for number in rule.diagram:
        try:
            landings[number] = deviate(
                movement, anchor, _fixed(number), size=token.size if token else 1,
                ignore=(token.id,) if token else (), diagram=rule.diagram,
            ).square
        except _Rerolled:
            landings[number] = None
        flights[number] = weapon_flight(movement, origin,
                                        _fixed(number, rule.longest_flight), rule).path
        if len(flights[number]) > 1:
            # Background to the marks, and a weapon's, not the token's, path.
            routes.append(OverlayRoute(flights[number], f"d8 {number}: a weapon's longest flight",
                                       Tone.HINT, walked=False))
    marks = []
    for number, (dx, dy) in rule.diagram.items():
        square = Square(anchor.x + dx, anchor.y + dy)
        if not state.battlemap.in_bounds(square):
            continue
        landed = landings[number]
        reason = f"lands on {landed}" if landed else "taken: roll again"
        marks.append(SquareMark(square, str(number), Tone.LEGAL if landed else Tone.REFUSED,
                                f"d8 {number}: {reason}"))
    free = [str(n) for n, square in landings.items() if square is not None]
    lines = (f"Deviation Diagram from {anchor}",
             f"lands on {', '.join(free)}" if free else "no free square",
             f"lines: a weapon's longest flight ({counted(rule.longest_flight, 'square')})")
    overlay = Overlay(marks=tuple(marks), routes=tuple(routes))
    return DeviationDiagram(Measured(overlay, lines), landings, flights)
