"""The GM's set_portal command: open, close or lock a door or window, in every rule system."""

from __future__ import annotations

import pytest

from engine.battlemap import BattleMap, Portal, PortalKind, PortalState, Wall
from engine.encounter import EncounterState
from engine.grid import Square
from engine.routes import cheapest_route, graph_for
from engine.rules import get_system, system_names
from engine.rules.base import BadOptions, Command, IllegalCommand
from engine.tokens import Side, Token
from engine.turns.combat import Phase
from engine.turns.session import Encounter


def doorway(system: str) -> EncounterState:
    """A 6x3 room cut in two by a wall at x=3 with a closed door (3,1)-(3,2) and a window."""
    battlemap = BattleMap(
        6,
        3,
        walls=(Wall((3, 0), (3, 1)),),
        portals=(
            Portal("door-1", (3, 1), (3, 2)),
            Portal("win-1", (3, 2), (3, 3), PortalKind.WINDOW),
        ),
    )
    tokens = (
        Token("a", "Agent", Side.PARTY, Square(1, 1)),
        Token("b", "Guard", Side.ENEMY, Square(5, 0)),
    )
    return EncounterState("Doorway", system, get_system(system).scale, battlemap, tokens)


def door(state: EncounterState) -> PortalState:
    return state.battlemap.portal("door-1").state


@pytest.mark.parametrize("system", system_names())
def test_opening_a_door_is_one_undo_step_with_a_log_line(system: str) -> None:
    fight = Encounter(doorway(system))
    events = fight.apply(Command.build("set_portal", portal="door-1", state="open"))
    assert door(fight.state) is PortalState.OPEN
    assert [e.text for e in events] == ["The door between (2,1) and (3,1) opens."]
    assert fight.log[-1].text == "The door between (2,1) and (3,1) opens."
    fight.undo()
    assert door(fight.state) is PortalState.CLOSED
    assert not fight.can_undo


@pytest.mark.parametrize("system", system_names())
def test_legal_in_the_middle_of_a_fight_without_using_a_turn(system: str) -> None:
    fight = Encounter(doorway(system))
    fight.apply(Command("start_combat"))
    before = fight.state.combat
    fight.apply(Command.build("set_portal", portal="door-1", state="locked"))
    assert door(fight.state) is PortalState.LOCKED
    assert fight.state.combat.phase is Phase.ROUND
    assert fight.state.combat.active == before.active
    assert fight.state.combat.order == before.order


def test_the_movement_graph_follows_the_door() -> None:
    fight = Encounter(doorway("spycraft"))
    goal = Square(4, 1)
    assert cheapest_route(graph_for(
        fight.state, difficult_cost=2
    ), "a", goal) is None  # door closed
    fight.apply(Command.build("set_portal", portal="door-1", state="open"))
    route = cheapest_route(graph_for(fight.state, difficult_cost=2), "a", goal)
    assert route is not None and route.squares[-1] == goal
    fight.apply(Command.build("set_portal", portal="door-1", state="closed"))
    assert cheapest_route(graph_for(fight.state, difficult_cost=2), "a", goal) is None


def test_an_unknown_state_is_a_command_error_naming_it() -> None:
    fight = Encounter(doorway("savage-worlds"))
    with pytest.raises(BadOptions, match="option 'state' must be one of 'open', 'closed'"):
        fight.preview(Command.build("set_portal", portal="door-1", state="ajar"))


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"portal": "door-9", "state": "open"}, "no door or window 'door-9'"),
        ({"portal": "door-1", "state": "closed"}, "door between (2,1) and (3,1) is already closed"),
    ],
)
def test_bad_requests_name_the_problem(options: dict[str, str], reason: str) -> None:
    fight = Encounter(doorway("savage-worlds"))
    command = Command.build("set_portal", **options)
    preview = fight.preview(command)
    assert not preview.legal and any(reason in r for r in preview.reasons)
    with pytest.raises(IllegalCommand):
        fight.apply(command)


def test_a_window_closes_with_its_own_words() -> None:
    fight = Encounter(doorway("d20-firearms"))
    command = Command.build("set_portal", portal="win-1", state="open")
    assert fight.preview(command).summary == "The window between (2,2) and (3,2) opens."
    events = fight.apply(command)
    assert events[0].text == "The window between (2,2) and (3,2) opens."
