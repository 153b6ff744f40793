"""Where a foe who makes the Covering Fire Reflex save dives for cover.

The Covering Fire command may say it with the option ``take_cover``, a mapping from token
id to the square its top-left corner ends on (``take_cover={"b": (6, 8), "c": (7, 9)}``).
The foe must be able to walk there within half its speed (the shared movement graph:
walls, doors, foes and difficult ground count). Without a destination the rule picks one
from the map: a square that gives total cover from the shooter if one is in reach,
otherwise the closest square that gives any cover (the nearest first; among equally near
ones, the best cover). Only when no square in reach gives cover does the choice stay the
foe's (prone or crouching): the log asks the GM, and until its own next turn the foe may
still move with the free, out-of-turn follow-up ``take_cover`` (actor: the foe; squares:
the destination, or the path square by square).
"""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.cover import CoverLevel, cover_between
from engine.grid import Square
from engine.routes.graph import graph_for
from engine.routes.results import Route
from engine.routes.search import cheapest_route, reach
from engine.routes.walk import path_problems
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms import tables
from engine.rules.d20_firearms.handlers import register
from engine.rules.overlays import route_overlay
from engine.tokens import Token

TAKE_COVER = "take_cover"
#: Combatant data key: this foe saved against Covering Fire and may still dive for cover.
COVER_OWED = "cover_owed"


def destinations(command: Command) -> dict[str, Square]:
    """The ``take_cover`` option: token id -> the square it dives to (the option schema has
    checked each is a square)."""
    return {token_id: square for token_id, square in command.pairs(TAKE_COVER).items()
            if isinstance(square, Square)}


def half_speed_squares(state: EncounterState, token: Token) -> int:
    return int(special.takes_cover_reach_ft(token.speed) // state.scale.distance(1))


def cover_route(state: EncounterState, token: Token, square: Square) -> Route | None:
    if square == token.square:
        return None
    return cheapest_route(graph_for(
        state, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    ), token.id, square,
                          budget=half_speed_squares(state, token))


def destination_reasons(state: EncounterState, command: Command, in_cone: tuple[str, ...],
                        ) -> list[str]:
    """Why the command's cover destinations cannot be used ([] when they can)."""
    ends: set[Square] = set()
    for token_id, square in destinations(command).items():
        if token_id not in in_cone:
            return [f"take_cover names {token_id!r}, who is not in the covered cone"]
        token = state.token(token_id)
        if not state.battlemap.in_bounds(square):
            return [f"{token.name}'s cover square {tuple(square)} is off the map"]
        reach = special.takes_cover_reach_ft(token.speed)
        if cover_route(state, token, square) is None:
            return [f"{token.name} cannot reach {tuple(square)} within half its speed "
                    f"({reach:g} ft) to take cover"]
        if square in ends:
            return [f"two foes cannot both take cover on {tuple(square)}"]
        ends.add(square)
    return []


def cover_from_map(state: EncounterState, token: Token, shooter: Token) -> Square | None:
    """Where the rule sends a foe diving: total cover from the shooter if any square within
    half its speed gives it, otherwise the closest square giving any cover; None when no
    square in reach gives cover (or the foe already has total cover where it stands)."""
    here = cover_between(state.battlemap, shooter, token).level
    if here is CoverLevel.TOTAL:
        return None
    area = reach(graph_for(
        state, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    ), token.id, half_speed_squares(state, token))
    candidates: list[tuple[int, int, int, int, int, Square]] = []
    for square in area.squares:
        level = cover_between(state.battlemap, shooter, token.moved_to(square)).level
        if level <= here:
            continue
        cost = area.route_to(square).cost.squares
        candidates.append((level is not CoverLevel.TOTAL, cost, -int(level), square.y, square.x,
                           square))
    return min(candidates)[-1] if candidates else None


def dive_for_cover(state: EncounterState, command: Command, token_id: str,
                   shooter_id: str | None = None) -> tuple[EncounterState, Event]:
    """Move a foe who made the save to its named square, to the cover the map offers, or
    (no cover in reach) ask the GM."""
    token = state.token(token_id)
    reach_ft = special.takes_cover_reach_ft(token.speed)
    square = destinations(command).get(token_id)
    if square is None and shooter_id is not None:
        square = cover_from_map(state, token, state.token(shooter_id))
    route = cover_route(state, token, square) if square is not None else None
    if square is None or route is None:
        why = "" if square is None else f" ({tuple(square)} is out of reach now)"
        if state.combat.has(token_id):  # one the GM put down mid-fight has no turn to keep it
            state = common.set_data(state, token_id, **{COVER_OWED: True})
        return state, Event(EventKind.NOTE, f"GM: move {token.name} to cover within "
                            f"{reach_ft:g} ft (the take_cover action), or mark it prone or "
                            f"crouching{why}.", (token_id,))
    state = common.put(state, token.moved_to(route.squares[-1]))
    return state, Event(EventKind.MOVE, f"{token.name} dives for cover at {tuple(square)} "
                        f"({route.cost.text}).", (token_id,))


# --- the follow-up: the foe dives once the GM knows where ------------------------------------


def _follow_up_route(state: EncounterState, command: Command) -> tuple[list[str], int]:
    """(reasons, cost in squares) for the follow-up's destination or path."""
    reasons, cost, _ = _follow_up_way(state, command)
    return reasons, cost


def _follow_up_way(state: EncounterState, command: Command,
                   ) -> tuple[list[str], int, tuple[Square, ...]]:
    """(reasons, cost in squares, the squares passed, start excluded) for the follow-up: a
    far square alone is reached by the cheapest route, anything else is the path given."""
    token = actor_of(state, command)
    if not command.squares:
        return ["choose the square to take cover on"], 0, ()
    if len(command.squares) == 1 and max(abs(command.squares[0].x - token.square.x),
                                         abs(command.squares[0].y - token.square.y)) > 1:
        route = cover_route(state, token, command.squares[0])
        if route is None:
            return [f"{token.name} cannot reach {tuple(command.squares[0])} within half its "
                    "speed"], 0, tuple(command.squares)
        return [], route.cost.squares, tuple(route.squares[1:])
    reasons, cost = path_problems(
        state, token.id, command.squares, difficult_cost=tables.DIFFICULT_TERRAIN_COST
    )
    return reasons, cost, tuple(command.squares)


def _follow_up_check(state: EncounterState, command: Command) -> list[str]:
    token = actor_of(state, command)
    if not common.data(state, token.id, COVER_OWED, False):
        return [f"{token.name} has no Covering Fire save to dive for cover with"]
    reasons, cost = _follow_up_route(state, command)
    if reasons:
        return reasons
    reach = special.takes_cover_reach_ft(token.speed)
    if state.scale.distance(cost) > reach:
        return [f"the way is {state.scale.describe(cost)}; {token.name} may dive {reach:g} ft "
                "(half its speed)"]
    return []


def _follow_up_describe(state: EncounterState, command: Command) -> Preview:
    token = actor_of(state, command)
    _, cost, way = _follow_up_way(state, command)
    return Preview(command, True, summary=f"Take Cover: {token.name} dives "
                   f"{state.scale.describe(cost)} to {tuple(command.squares[-1])} after "
                   "saving against Covering Fire.", squares=command.squares, cost="free",
                   overlay=route_overlay(state, token.id, way, "Take Cover"))


def _follow_up_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    token = actor_of(state, command)
    _, cost = _follow_up_route(state, command)
    end = command.squares[-1]
    state = common.put(state, token.moved_to(end))
    state = common.set_data(state, token.id, **{COVER_OWED: False})
    return state, (Event(EventKind.MOVE, f"{token.name} dives for cover at {tuple(end)} "
                         f"({state.scale.describe(cost)}).", (token.id,)),)


# Free and out of turn: a foe who saved dives for cover before his own next turn.
register(TAKE_COVER, _follow_up_check, _follow_up_describe, _follow_up_resolve, out_of_turn=True)
