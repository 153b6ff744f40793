"""Spycraft movement as rules: which paths are legal, what they cost, how far a token may
go, and what moving does (the actions are in ``movement_actions``).

A move command carries its path (squares after the start, in order). The path must step
square to square, stay on the map, not end on another token, not pass through opponents,
and cost at most the allowance (difficult terrain counts double).
"""

from __future__ import annotations

from dataclasses import replace

from engine.battlemap import TerrainKind
from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square, path_cost_squares
from engine.rules.base import DragBand, Event, EventKind
from engine.rules.spycraft import board
from engine.rules.spycraft.fluid_initiative import FLUID_EVENTS
from engine.rules.spycraft.geometry_bridge import step_blocked
from engine.rules.spycraft.suppression_zones import suppression_on_move
from engine.tokens import Token, are_opponents
from engine.turns.combat import Phase

DIFFICULT_MULTIPLIER = 2
#: A double move: two Standard Moves, each a half action of up to the Speed, taken in one go
#: (one drag, one command, one undo). Its path costs up to twice the Speed, counted as one
#: path (our choice: where the first move ends is the mover's, so we do not split it).
DOUBLE_MOVE = "double"
DOUBLE_MOVE_HALVES = 2
TERRAIN_FLUID = FLUID_EVENTS["terrain"][0]


def path_reasons(
    state: EncounterState, mover: Token, path: tuple[Square, ...], allowance_squares: int
) -> list[str]:
    """Why a path is not a legal move for ``mover`` within ``allowance_squares``."""
    if not path:
        return ["a move needs a path of at least one square"]
    reasons: list[str] = []
    previous = mover.square
    occupancy = _occupancy(state.tokens)
    for square in path:
        if max(abs(square.x - previous.x), abs(square.y - previous.y)) != 1:
            reasons.append(f"the path jumps from {previous} to {square}")
            return reasons
        if mover.size == 1 and step_blocked(state, previous, square):
            reasons.append(f"a wall or closed door blocks the step from {previous} to {square}")
            return reasons
        for covered in mover.moved_to(square).squares:
            if not state.battlemap.in_bounds(covered):
                reasons.append(f"the path leaves the map at {covered}")
                return reasons
            other = occupancy.get(covered)
            if other is not None and other.id != mover.id and are_opponents(mover.side, other.side):
                reasons.append(f"{other.name} blocks the way at {covered}")
                return reasons
        previous = square
    for covered in mover.moved_to(path[-1]).squares:
        other = occupancy.get(covered)
        if other is not None and other.id != mover.id:
            reasons.append(f"{other.name} already stands on {covered}")
    cost = path_cost(state, mover, path)
    if cost > allowance_squares:
        reasons.append(
            f"the path costs {state.scale.describe(cost)}, more than the "
            f"{state.scale.describe(allowance_squares)} allowed"
        )
    return reasons


def _occupancy(tokens: tuple[Token, ...]) -> dict[Square, Token]:
    """Who stands where, the first token winning as in ``token_at``. One table per tokens
    tuple (kept by identity): a drag checks a path against the same tokens on every mouse
    move, and scanning every token per square is slow on a crowded map."""
    if _LAST_OCCUPANCY and _LAST_OCCUPANCY[0][0] is tokens:
        return _LAST_OCCUPANCY[0][1]
    occupancy: dict[Square, Token] = {}
    for token in tokens:
        for covered in token.squares:
            occupancy.setdefault(covered, token)
    _LAST_OCCUPANCY[:] = [(tokens, occupancy)]
    return occupancy


_LAST_OCCUPANCY: list[tuple[tuple[Token, ...], dict[Square, Token]]] = []


def path_cost(state: EncounterState, mover: Token, path: tuple[Square, ...]) -> int:
    """Squares the path costs; each step into difficult terrain costs double."""

    base = path_cost_squares((mover.square, *path), state.scale.diagonal)
    extra = sum(
        DIFFICULT_MULTIPLIER - 1
        for square in path
        if state.battlemap.terrain_at(square) is TerrainKind.DIFFICULT
    )
    return base + extra


def slowed_by_terrain(state: EncounterState, mover: Token, path: tuple[Square, ...]) -> bool:
    """Whether the path's Speed is reduced by terrain (it enters difficult terrain)."""
    return any(state.battlemap.terrain_at(square) is TerrainKind.DIFFICULT for square in path)


def terrain_note(mover: Token) -> str:
    return (f"Terrain slows {mover.name}: {TERRAIN_FLUID:+d} Initiative at the round's end "
            "(fluid initiative).")


def queue_terrain_fluid(
    state: EncounterState, mover_id: str, path: tuple[Square, ...]
) -> tuple[EncounterState, list[Event]]:
    """Table: Fluid Initiative Modifiers: a move whose Speed terrain reduces costs 2 (each
    such move; the map sees it, so it is queued without the GM)."""
    mover = state.token(mover_id)
    if not path or not state.combat.has(mover_id) or not slowed_by_terrain(state, mover, path):
        return state, []
    state = board.add_fluid(state, mover_id, TERRAIN_FLUID)
    return state, [Event(EventKind.INITIATIVE, terrain_note(mover), (mover_id,))]


def speed_squares(state: EncounterState, mover: Token) -> int:
    speed = mover.speed
    for cheap in board.conditions_named(mover, board.CHEAP_SHOT):
        if cheap.source == "speed":
            speed = max(0.0, speed + cheap.value)  # the condition carries -10 ft
    if mover.has_condition(board.PRONE) or mover.has_condition(board.SPRAWLED):
        speed = min(speed, state.scale.square_size)
    return state.scale.squares(speed)


def drag_bands(state: EncounterState, token_id: str) -> tuple[DragBand, ...]:
    """A drag's reach: a Standard Move (a half action, up to the Speed), then a double move
    (both half actions, twice the Speed) when both are still to spend and it is not the
    surprise round (whose one full action may not be split into two half actions) nor a
    Press's lone half action."""
    mover = state.token(token_id)
    speed = speed_squares(state, mover)
    bands: tuple[DragBand, ...] = (DragBand("move", speed, "1 half action"),)
    if not state.combat.has(token_id):
        return bands
    mine = state.combat.combatant(token_id)
    left = mine.budget.get("half", 0) + mine.budget.get("bonus", 0)
    if (left >= DOUBLE_MOVE_HALVES and state.combat.phase is not Phase.SURPRISE
            and not mine.get("bonus_only", False)):
        bands += (DragBand("double move", speed * DOUBLE_MOVE_HALVES, "both half actions",
                           ((DOUBLE_MOVE, True),)),)
    return bands


def move_token(
    state: EncounterState,
    mover_id: str,
    path: tuple[Square, ...],
    verb: str = "moves",
    dice: Dice | None = None,
    spent: str = "",
) -> tuple[EncounterState, list[Event]]:
    """Move along a path; Aim at a mover that goes past 5 ft, and the mover's own Aim
    and Brace, end. ``spent`` says what the move cost when the log should say it (a
    double move's both half actions)."""
    mover = state.token(mover_id)
    state = state.with_token(mover.moved_to(path[-1]))
    events = [
        Event(
            EventKind.MOVE,
            f"{mover.name} {verb} to {path[-1]} "
            f"({state.scale.describe(path_cost(state, mover, path))})"
            + (f": {spent}." if spent else "."),
            (mover_id,),
        )
    ]
    state, slowed = queue_terrain_fluid(state, mover_id, path)
    events.extend(slowed)
    for name in (board.AIMING, board.BRACED):
        if mover.has_condition(name):
            state = board.remove_condition(state, mover_id, name)
            events.append(
                Event(EventKind.CONDITION, f"{mover.name} moved: no longer {name}.", (mover_id,))
            )
    if path_cost(state, mover, path) > 1:
        for other in state.tokens:
            stale = [c for c in other.conditions if c.name == board.AIMING and c.source == mover_id]
            if stale:
                kept = tuple(c for c in other.conditions if c not in stale)
                state = state.with_token(replace(other, conditions=kept))
                events.append(
                    Event(
                        EventKind.CONDITION,
                        f"{other.name} loses his Aim: {mover.name} moved.",
                        (other.id,),
                    )
                )
    if dice is not None:

        state, suppressed = suppression_on_move(state, mover_id, path, dice)
        events.extend(suppressed)
    return state, events


