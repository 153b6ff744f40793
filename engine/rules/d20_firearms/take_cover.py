"""Where a foe who makes the Covering Fire Reflex save dives for cover.

The Covering Fire command may say it with the option ``take_cover``: ``"b=6,8;c=7,9"``
(token id, then the square its top-left corner ends on). The foe must be able to walk
there within half its speed (the shared movement graph: walls, doors, foes and difficult
ground count). A foe who saves without a destination stays put and the log asks the GM to
move it. Whether the square really gives cover is the GM's call, as the text leaves the
choice of cover (or going prone) to the table.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.grid import Square
from engine.routes.graph import graph_for
from engine.routes.results import Route
from engine.routes.search import cheapest_route
from engine.rules import common
from engine.rules.base import Command, Event, EventKind
from engine.rules.d20_firearms import special_actions as special
from engine.tokens import Token

TAKE_COVER = "take_cover"


def destinations(command: Command) -> dict[str, Square]:
    """The ``take_cover`` option as {token id: square}; ValueError naming a bad entry."""
    text = str(command.option(TAKE_COVER, "") or "")
    found: dict[str, Square] = {}
    for entry in filter(None, (part.strip() for part in text.split(";"))):
        token_id, _, where = entry.partition("=")
        x, _, y = where.partition(",")
        try:
            square = Square(int(x), int(y))
        except ValueError:
            raise ValueError(f"take_cover entry {entry!r} is not 'token=x,y'") from None
        if token_id.strip() in found:
            raise ValueError(f"take_cover names {token_id.strip()!r} twice")
        found[token_id.strip()] = square
    return found


def half_speed_squares(state: EncounterState, token: Token) -> int:
    return int(special.takes_cover_reach_ft(token.speed) // state.scale.distance(1))


def cover_route(state: EncounterState, token: Token, square: Square) -> Route | None:
    if square == token.square:
        return None
    return cheapest_route(graph_for(state), token.id, square,
                          budget=half_speed_squares(state, token))


def destination_reasons(state: EncounterState, command: Command, in_cone: tuple[str, ...],
                        ) -> list[str]:
    """Why the command's cover destinations cannot be used ([] when they can)."""
    try:
        wanted = destinations(command)
    except ValueError as error:
        return [str(error)]
    ends: set[Square] = set()
    for token_id, square in wanted.items():
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


def dive_for_cover(state: EncounterState, command: Command, token_id: str,
                   ) -> tuple[EncounterState, Event]:
    """Move a foe who made the save to its named square, or ask the GM to move it."""
    token = state.token(token_id)
    reach = special.takes_cover_reach_ft(token.speed)
    square = destinations(command).get(token_id)
    route = cover_route(state, token, square) if square is not None else None
    if square is None or route is None:
        why = "" if square is None else f" ({tuple(square)} is out of reach now)"
        return state, Event(EventKind.NOTE, f"GM: move {token.name} to cover within "
                            f"{reach:g} ft, or mark it prone or crouching{why}.", (token_id,))
    state = common.put(state, token.moved_to(route.squares[-1]))
    return state, Event(EventKind.MOVE, f"{token.name} dives for cover at {tuple(square)} "
                        f"({route.cost.text}).", (token_id,))
