"""Building a preview's overlay from what a rule computed (no rule system named here).

Each rule calls these with the very values its resolution uses (the template it applies, the
route it walks, the tokens it rolls against), so the overlay is the rule's own answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import shapely

from engine.encounter import EncounterState
from engine.geometry.areas import token_centre
from engine.geometry.los import token_sees_square
from engine.geometry.results import AffectedToken, TemplateResult
from engine.grid import Square
from engine.overlay import (
    Modifier,
    Overlay,
    OverlayArea,
    OverlayRoute,
    OverlayShape,
    OverlayToken,
    Role,
    ShapeKind,
    SquareMark,
    Tone,
)
from engine.routes.results import Route
from engine.tokens import Token


def tone_of(reasons: Sequence[str]) -> Tone:
    return Tone.REFUSED if reasons else Tone.LEGAL


def route_overlay(
    state: EncounterState,
    mover_id: str,
    path: Sequence[Square],
    label: str = "",
    reasons: Sequence[str] = (),
) -> Overlay:
    """A mover's route from where it stands along ``path`` (start excluded), ending on the
    path's last square; refused (with the reasons) when ``reasons`` are given."""
    try:
        start = state.token(mover_id).square
    except KeyError:
        return Overlay()
    squares = (start, *(Square(*s) for s in path))
    route = OverlayRoute(squares, label, tone_of(reasons), "; ".join(reasons))
    return Overlay(routes=(route,), tokens=(OverlayToken(mover_id, Role.ACTOR),))


def area_overlay(
    label: str,
    squares: Iterable[Square],
    *,
    outline: shapely.Geometry | None = None,
    reasons: Sequence[str] = (),
) -> Overlay:
    """One area and the squares it covers."""
    area = OverlayArea(label, frozenset(squares), tone_of(reasons), "; ".join(reasons), outline)
    return Overlay(areas=(area,))


def overlay_tokens(
    affected: Iterable[AffectedToken], role: Role = Role.AFFECTED
) -> tuple[OverlayToken, ...]:
    """Tokens an area touches, with the geometry's modifiers as overlay modifiers."""
    return tuple(
        OverlayToken(
            t.token_id,
            role,
            tuple(Modifier(m.rule, m.value, m.applies_to) for m in t.modifiers),
        )
        for t in affected
    )


def template_overlay(
    label: str,
    template: TemplateResult,
    kind: ShapeKind,
    origin: tuple[float, float],
    *,
    direction: float | None = None,
    reach: float | None = None,
    tokens: Iterable[OverlayToken] | None = None,
    reasons: Sequence[str] = (),
) -> Overlay:
    """A template: its shape, the squares it covers and the tokens it touches (by default
    every token the template lists, as affected)."""
    tone = tone_of(reasons)
    shape = OverlayShape(kind, label, template.shape, origin, direction, reach, tone)
    touched = tuple(tokens) if tokens is not None else overlay_tokens(template.tokens)
    return area_overlay(
        label, template.squares, outline=template.shape, reasons=reasons
    ).plus(Overlay(shapes=(shape,), tokens=touched))


def target_overlay(
    actor_id: str,
    targets: Iterable[str],
    modifiers: Iterable[Modifier] = (),
    *,
    note: str = "",
) -> Overlay:
    """The actor and the tokens its command is rolled against or acts on, each target with
    ``modifiers``: the ones the preview lists, which apply to the roll against it. The
    handler names the targets, so the map rings exactly the tokens the resolution uses.
    With no target there is nothing to ring: the map already marks whose turn it is."""
    targets = tuple(targets)
    if not targets:
        return Overlay()
    mods = tuple(modifiers)
    return Overlay(
        tokens=(
            OverlayToken(actor_id, Role.ACTOR),
            *(OverlayToken(t, Role.TARGET, mods, note) for t in targets),
        )
    )


def chosen_squares(
    actor_id: str, squares: Iterable[Square], label: str, modifiers: Iterable[Modifier] = ()
) -> Overlay:
    """The actor and the squares its command names (where it picks something up, where it
    stands off): a mark on each, and the actor with ``modifiers`` that apply to its own roll.
    With no square there is nothing to mark."""
    marks = tuple(SquareMark(Square(*s), label) for s in squares)
    if not marks:
        return Overlay()
    return Overlay(marks=marks, tokens=(OverlayToken(actor_id, Role.ACTOR, tuple(modifiers)),))


def approach_overlay(
    actor_id: str,
    route: Sequence[Square],
    target_id: str,
    modifiers: Iterable[Modifier] = (),
    label: str = "",
) -> Overlay:
    """A route that ends in an attack (a Charge): the route, start first, and its target."""
    parts = (OverlayRoute(tuple(route), label),) if route else ()
    return Overlay(
        routes=parts,
        tokens=(
            OverlayToken(actor_id, Role.ACTOR),
            OverlayToken(target_id, Role.TARGET, tuple(modifiers)),
        ),
    )


def refused_lines_overlay(tried: Iterable[tuple[Route, str]]) -> Overlay:
    """Lines the rules tried for a command and refused, each drawn refused with its reason
    (a Charge's straight lines to every space it could attack from: the GM sees which
    line a refusal is for)."""
    return Overlay(routes=tuple(
        OverlayRoute(route.squares, tone=Tone.REFUSED, reason=why)
        for route, why in tried if route.squares
    ))


def pending_markers(state: EncounterState) -> Overlay:
    """A marker on each token with an action waiting for its moment (a Ready, a Delay, a
    Stand Off, a Hold...): what it waits to do, in the words the pending action carries."""
    marks: list[OverlayToken] = []
    for pending in state.combat.pending:
        if all(t.id != pending.token_id for t in state.tokens):
            continue
        what = pending.action.replace("_", " ") or pending.kind.replace("_", " ")
        note = f"{pending.kind.replace('_', ' ')}: {what}"
        if pending.trigger:
            note += f" (when {pending.trigger})"
        marks.append(OverlayToken(pending.token_id, Role.ACTOR, note=note))
    return Overlay(tokens=tuple(marks))


def lasting_area(
    label: str, squares: Iterable[Square], outline: shapely.Geometry | None = None
) -> Overlay:
    """An area that stays on the map while its effect lasts (context, not a new command)."""
    return Overlay(areas=(OverlayArea(label, frozenset(squares), Tone.INFO, "", outline),))


def sight_line(line: shapely.Geometry, tone: Tone) -> OverlayShape:
    """A line of sight as a line shape: clear (legal) or blocked (refused: the map dashes it)."""
    start = shapely.get_coordinates(line)[0]
    label = "clear line" if tone is Tone.LEGAL else "blocked line"
    return OverlayShape(ShapeKind.LINE, label, line, (float(start[0]), float(start[1])), tone=tone)


def sight_to_square(
    state: EncounterState, viewer: Token, square: Square
) -> tuple[bool, OverlayShape]:
    """Whether ``viewer`` sees ``square`` (any corner to any corner), and the line the map
    draws for it, from the viewer's centre to the square's."""
    sees = token_sees_square(state.battlemap, viewer, square)
    line = shapely.LineString([token_centre(viewer), square.centre])
    return sees, sight_line(line, Tone.LEGAL if sees else Tone.REFUSED)
