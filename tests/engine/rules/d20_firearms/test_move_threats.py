"""A d20 Move's preview names the attacks the move draws, as its resolution fires them: a
foe stepping into a covered cone draws the Covering Fire, and its shooter is ringed as a
threat on the map (the drag draws this overlay)."""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.grid import Square
from engine.overlay import Role
from engine.routes import cheapest_route, graph_for
from engine.rules import get_system
from engine.rules.base import Command
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import legal_setup
from tests.engine.rules.overlay_checks import overlay_problems

#: Dee (e2) starts outside Ann's (a1) covered cone, which opens east of Ann at (6, 6).
OUTSIDE, INTO_CONE, BESIDE_CONE = Square(3, 2), Square(8, 4), Square(5, 2)


def covered_state() -> EncounterState:
    """Ann covers a cone east of her; it is Dee's turn, and Dee stands outside the cone."""
    setup = legal_setup("d20-firearms", "covering_fire")
    fight = Encounter(setup.state, seed=1)
    fight.apply(setup.command)
    # Dee as she was before the cone's first volley (it may down her), away from the cone.
    dee = setup.state.token("e2").moved_to(OUTSIDE)
    fight = Encounter(fight.state.with_token(dee), seed=1)
    for _ in range(len(fight.state.combat.order)):
        if fight.state.combat.active == "e2":
            return fight.state
        fight.apply(Command("end_turn"))
    raise AssertionError("Dee's turn never came")


def move_to(state: EncounterState, end: Square) -> Command:
    graph = graph_for(state, difficult_cost=get_system("d20-firearms").difficult_terrain_cost)
    route = cheapest_route(graph, "e2", end)
    assert route is not None
    return Command("move", "e2", squares=tuple(route.squares[1:]))


def test_a_move_into_the_covered_cone_rings_the_shooter_as_a_threat() -> None:
    state = covered_state()
    game = Encounter(state, seed=3)
    command = move_to(state, INTO_CONE)
    preview = game.preview(command)
    assert preview.legal, preview.reasons
    assert preview.overlay.token_ids(Role.THREAT) == ("a1",)
    assert "Covering Fire" in preview.overlay.token("a1").note
    assert preview.targets == ("a1",)
    assert overlay_problems(state, command, preview) == []
    events = game.apply(command)
    assert any("Covering Fire" in e.text for e in events), [e.text for e in events]


def test_a_move_that_stays_out_of_the_cone_draws_no_threat_and_no_shot() -> None:
    state = covered_state()
    game = Encounter(state, seed=3)
    command = move_to(state, BESIDE_CONE)
    preview = game.preview(command)
    assert preview.legal and not preview.overlay.token_ids(Role.THREAT) and not preview.notes
    assert not any("Covering Fire" in e.text for e in game.apply(command))
