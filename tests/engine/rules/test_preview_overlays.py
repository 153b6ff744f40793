"""Every preview carries what the map draws (issue 13, must-have 3).

The desktop draws a preview's typed overlay and nothing else, so for every catalogue action
of every system, set up legal (tests/engine/rules/legal_setups.py): the tokens the overlay
says are rolled against, affected or threatening are exactly the preview's targets, each
single target carries the preview's modifiers, the targets are among the tokens the
resolution names, and every square the preview or the command names is drawn.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.dice import GivenDice, SeededDice
from engine.overlay import Role
from engine.rules import get_system
from engine.rules.base import Need, Preview
from engine.turns.combat import PendingAction
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import LegalSetUp, every_action, legal_setup
from tests.engine.rules.overlay_checks import overlay_problems

ACTIONS = every_action()


def legal_preview(system: str, action: str) -> tuple[LegalSetUp, Preview]:
    setup = legal_setup(system, action)
    preview = Encounter(setup.state, seed=setup.seed).preview(setup.command)
    assert preview.legal, preview.reasons
    return setup, preview


@pytest.mark.parametrize(("system", "action"), ACTIONS, ids=lambda v: str(v))
def test_the_overlay_rings_exactly_the_previews_targets(system: str, action: str) -> None:
    setup, preview = legal_preview(system, action)
    assert overlay_problems(setup.state, setup.command, preview) == []
    if Need.TARGET in get_system(system).action(action).needs:
        assert set(setup.command.targets) <= set(preview.overlay.token_ids(Role.TARGET))


@pytest.mark.parametrize(("system", "action"), ACTIONS, ids=lambda v: str(v))
def test_the_overlay_carries_the_previews_modifiers(system: str, action: str) -> None:
    _, preview = legal_preview(system, action)
    overlay = preview.overlay
    targets = [t for t in overlay.tokens if t.role is Role.TARGET]
    if len(targets) == 1 and not overlay.areas:
        assert targets[0].modifiers == preview.modifiers
    shown = {m for t in overlay.tokens for m in t.modifiers}
    assert set(preview.modifiers) <= shown  # also asked of random play (overlay_checks)


@pytest.mark.parametrize(("system", "action"), ACTIONS, ids=lambda v: str(v))
def test_the_ringed_targets_are_those_the_rule_resolves_against(system: str, action: str) -> None:
    """Applied with every die at its best face, the events name each target the overlay
    rings (an attack rolls against it, an aid helps it, a maneuver moves it)."""
    setup, preview = legal_preview(system, action)
    dice = GivenDice([20] * 40, fallback=SeededDice(1))
    _, events = get_system(system).apply(setup.state, setup.command, dice)
    named = {t for event in events for t in event.tokens}
    assert set(preview.overlay.token_ids(Role.TARGET)) <= named


@pytest.mark.parametrize(("system", "action"), ACTIONS, ids=lambda v: str(v))
def test_the_handler_itself_fills_the_overlay(system: str, action: str) -> None:
    """The handler, not the engine's route for a bare path, names what to draw."""
    setup, preview = legal_preview(system, action)
    own = get_system(system).describe_action(setup.state, setup.command).overlay
    assert own == preview.overlay


@pytest.mark.parametrize(("system", "action"), ACTIONS, ids=lambda v: str(v))
def test_a_walked_route_is_the_path_the_preview_names(system: str, action: str) -> None:
    """A route from the actor's square is the path the preview says the move takes (a
    Run's straight line, not the squares picked)."""
    setup, preview = legal_preview(system, action)
    start = setup.state.token(str(setup.command.actor)).square
    for route in preview.overlay.routes:
        if route.start == start and preview.squares:
            # A charge's preview names its path with the start square, a move's without.
            path = preview.squares[1:] if preview.squares[0] == start else preview.squares
            assert route.squares[1:] == path


def test_a_run_picked_by_its_end_square_draws_the_line_it_runs() -> None:
    setup = legal_setup("spycraft", "run")
    end = setup.command.squares[-1]
    command = replace(setup.command, squares=(end,))
    preview = Encounter(setup.state, seed=setup.seed).preview(command)
    assert preview.legal, preview.reasons
    (route,) = preview.overlay.routes
    assert len(preview.squares) > 1 and route.squares[1:] == preview.squares
    after, _ = get_system("spycraft").apply(setup.state, command, GivenDice([1] * 40))
    assert route.end == after.token(str(command.actor)).square


def test_a_move_through_suppressive_fire_draws_its_route_and_the_shooter() -> None:
    """Crossing an opponent's suppressed square adds the shooter (a final attack) and the
    square to the move's own route; the shooter is among the preview's targets."""
    setup = legal_setup("spycraft", "standard_move")
    (square,) = setup.command.squares
    zone = PendingAction("e1", "suppress", "", "suppressive_fire",
                         {"x": square.x, "y": square.y, "weapon": "rifle",
                          "round": setup.state.combat.round})
    state = replace(setup.state, combat=replace(setup.state.combat,
                                                pending=(*setup.state.combat.pending, zone)))
    preview = Encounter(state, seed=setup.seed).preview(setup.command)
    assert preview.legal, preview.reasons
    (route,) = preview.overlay.routes
    assert route.end == square
    assert preview.overlay.token_ids(Role.THREAT) == ("e1",) == preview.targets
    assert square in {m.square for m in preview.overlay.marks}



def test_a_bull_rush_through_its_targets_suppressive_fire_rings_the_target_once() -> None:
    """The approach crosses a square the target itself suppresses: the target is ringed
    once, as the target, with the final attack it gets noted (random play found two rings)."""
    setup = legal_setup("spycraft", "bull_rush")
    target = str(setup.command.target)
    route = Encounter(setup.state, seed=setup.seed).preview(setup.command).squares
    assert route, "the set-up's Bull Rush walks an approach"
    zone = PendingAction(target, "suppress", "", "suppressive_fire",
                         {"x": route[0].x, "y": route[0].y, "weapon": "rifle",
                          "round": setup.state.combat.round})
    state = replace(setup.state, combat=replace(setup.state.combat,
                                                pending=(*setup.state.combat.pending, zone)))
    preview = Encounter(state, seed=setup.seed).preview(setup.command)
    assert preview.legal, preview.reasons
    assert overlay_problems(state, setup.command, preview) == []
    assert preview.overlay.token_ids().count(target) == 1
    ring = preview.overlay.token(target)
    assert ring.role is Role.TARGET and "final attack with the rifle" in ring.note
