"""What every legal preview of a catalogue action must carry in its overlay, the only thing
the desktop draws: shared by the every-action overlay tests and the conformance suite's
random play (which reaches variants no set-up has: a Strafe over opponents, a blast with a
friend in total cover)."""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.grid import Square
from engine.overlay import Overlay, Role
from engine.rules.base import Command, Preview

#: Roles of the tokens a command is rolled against or acts on (not the actor, not a friend
#: an area leaves out).
ACTED_ON = (Role.TARGET, Role.AFFECTED, Role.THREAT)


def drawn_squares(state: EncounterState, overlay: Overlay) -> set[Square]:
    """Every square the overlay puts something on: areas, routes, marks, ringed tokens."""
    squares = set(overlay.squares()) | {m.square for m in overlay.marks}
    squares |= {s for route in overlay.routes for s in route.squares}
    for token_id in overlay.token_ids():
        squares |= set(state.token(token_id).squares)
    return squares


def overlay_problems(state: EncounterState, command: Command, preview: Preview) -> list[str]:
    """Why a legal preview's overlay is not what the map should draw (empty: it is)."""
    overlay = preview.overlay
    problems = []
    acted_on = overlay.token_ids(*ACTED_ON)
    if len(set(acted_on)) != len(acted_on):
        problems.append(f"a token is ringed twice: {acted_on}")
    if set(acted_on) != set(preview.targets):
        problems.append(f"the overlay acts on {acted_on}, the preview on {preview.targets}")
    if overlay.tokens and overlay.token_ids(Role.ACTOR) != (command.actor,):
        problems.append(f"the actor ringed is {overlay.token_ids(Role.ACTOR)}")
    # A shape the rule lays counts as named even when it covers no square (a cone off the map).
    named = (preview.targets or preview.squares or preview.shapes or command.targets
             or command.squares)
    if bool(overlay) != bool(named):
        problems.append("the overlay is empty" if named else "the overlay draws what no one named")
    drawn = drawn_squares(state, overlay)
    if not set(preview.squares) | set(command.squares) <= drawn:
        problems.append("a square the preview or the command names is not drawn")
    if not set(command.targets) <= set(overlay.token_ids()):
        problems.append(f"a target of the command is not drawn: {command.targets}")
    shown = {m for t in overlay.tokens for m in t.modifiers}
    # With nothing to draw (a roll of the actor's own), the label lists the modifiers.
    if named and not set(preview.modifiers) <= shown:
        problems.append(f"modifiers not on any ringed token: {set(preview.modifiers) - shown}")
    return problems
