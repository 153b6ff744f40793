"""For every area-like action of every system, the preview's overlay is what the rule does.

Each action is set up legal (tests/engine/rules/legal_setups.py), previewed, then applied
with typed dice: for an area every die shows its best face, so attacks land and their events
name whom they touch; for a move every die shows 1, so free attacks miss. The tokens the
overlay says are rolled against or affected are exactly the tokens the resolution's events
name (besides the actor); every token standing on the overlay's squares is in the overlay; a
move's route ends where the token ends.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine.dice import GivenDice, SeededDice
from engine.overlay import Overlay, Role, ShapeKind, Tone
from engine.rules import get_system
from engine.rules.base import Command, Need
from engine.tokens import are_opponents
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import legal_setup

#: Actions that act on an area, a template or a cone (by system).
AREA_ACTIONS = [
    ("spycraft", "strafe"),
    ("spycraft", "suppressive_fire"),
    ("savage-worlds", "suppressive_fire"),
    ("savage-worlds", "area_attack"),
    ("d20-firearms", "suppressive_fire"),
    ("d20-firearms", "covering_fire"),
]
#: Actions that move the actor along a route (by system).
MOVES = [
    ("spycraft", "standard_move"),
    ("spycraft", "run"),
    ("spycraft", "withdraw"),
    ("spycraft", "total_defense"),
    ("spycraft", "five_foot_step"),
    ("savage-worlds", "move"),
    ("cities-without-number", "run"),
    ("cities-without-number", "charge"),
    ("d20-firearms", "move"),
    ("d20-firearms", "charge"),
    ("d20-firearms", "take_cover"),
]
#: Moves whose end an opposed roll decides: the overlay draws the approach to the target.
ROLLED_ENDS = [("spycraft", "bull_rush")]

TOUCHED = (Role.TARGET, Role.AFFECTED)


def high_dice() -> GivenDice:
    return GivenDice([20] * 40, fallback=SeededDice(1))


def low_dice() -> GivenDice:
    """Every die shows 1: free attacks on a mover miss, so it gets where it is going."""
    return GivenDice([1] * 40, fallback=SeededDice(1))


def named_in(events: tuple[engine.Event, ...], actor: str | None) -> set[str]:
    return {t for e in events for t in e.tokens} - {actor}


def standing_on(state: engine.EncounterState, overlay: Overlay, actor: str | None) -> set[str]:
    squares = overlay.squares()
    return {t.id for t in state.tokens if t.id != actor and squares.intersection(t.squares)}


@pytest.mark.parametrize(("system", "action"), AREA_ACTIONS, ids=lambda v: str(v))
def test_an_areas_overlay_is_what_the_rule_resolves(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    fight = Encounter(setup.state, seed=setup.seed)
    preview = fight.preview(setup.command)
    overlay = preview.overlay
    assert overlay.areas and overlay.squares(), "the action's area is drawn"
    inside = set(overlay.token_ids(*TOUCHED, Role.SPARED))
    assert standing_on(setup.state, overlay, setup.command.actor) == inside
    events = get_system(system).apply(setup.state, setup.command, high_dice())[1]
    assert named_in(events, setup.command.actor) == set(overlay.token_ids(*TOUCHED))


@pytest.mark.parametrize(("system", "action"), MOVES, ids=lambda v: str(v))
def test_a_moves_overlay_is_its_route_and_end_square(system: str, action: str) -> None:
    setup = legal_setup(system, action)
    command = setup.command
    if action == "total_defense" and not command.squares:
        command = _with_a_step(setup.state, command)
    preview = Encounter(setup.state, seed=setup.seed).preview(command)
    assert preview.legal, preview.reasons
    (route,) = preview.overlay.routes
    actor = setup.state.token(str(command.actor))
    assert route.tone is Tone.LEGAL and route.start == actor.square
    after, _ = get_system(system).apply(setup.state, command, low_dice())
    assert route.end == after.token(actor.id).square


def _with_a_step(state: engine.EncounterState, command: Command) -> Command:
    """Total Defense may stand still; give it a one-square move the rules allow."""
    system = get_system(state.system)
    actor = state.token(str(command.actor))
    for square in actor.square.neighbours():
        moved = Command.build(command.action, actor.id, squares=[square])
        if system.preview(state, moved).legal:
            return moved
    raise AssertionError("no free square next to the actor")


def test_every_move_of_every_system_draws_a_route() -> None:
    """Every catalogue action that walks a path is listed above, so none is left untested
    (a push that approaches a target first, Bull Rush, ends where the opposed roll says)."""
    walking = {
        (name, spec.key)
        for name in engine.system_names()
        for spec in get_system(name).catalogue
        if Need.PATH in spec.needs and Need.TARGET not in spec.needs
    }
    assert walking <= set(MOVES)


def test_every_action_that_moves_its_actor_is_tested_as_a_move() -> None:
    """Whatever its needs (a path, a square, a target), an action whose resolution moves
    the actor from its legal set-up is in MOVES, or draws its approach if a roll decides
    where it ends."""
    moving = set()
    for name in engine.system_names():
        for spec in get_system(name).catalogue:
            setup = legal_setup(name, spec.key)
            actor = setup.command.actor
            if actor is None:
                continue
            after, _ = get_system(name).apply(setup.state, setup.command, low_dice())
            if after.token(actor).square != setup.state.token(actor).square:
                moving.add((name, spec.key))
    assert moving <= {*MOVES, *ROLLED_ENDS}
    for system, action in ROLLED_ENDS:
        setup = legal_setup(system, action)
        preview = Encounter(setup.state, seed=setup.seed).preview(setup.command)
        (route,) = preview.overlay.routes
        assert route.start == setup.state.token(str(setup.command.actor)).square


@pytest.mark.parametrize(("pusher_scale", "inches"), [(0, 2), (1, 4)])
def test_a_pushs_overlay_is_the_shove_a_raise_then_gives(pusher_scale: int, inches: int) -> None:
    """Savage Worlds' Push draws the foe's shove as far as a raise takes it (2", doubled when
    the pusher's Scale is larger): won with a raise, the foe ends on the route's end."""
    setup = legal_setup("savage-worlds", "push")
    pusher = setup.state.token(str(setup.command.actor))
    state = setup.state.with_token(replace(pusher, stats={**pusher.stats,
                                                          "scale": pusher_scale}))
    foe = state.token(setup.command.targets[0])
    preview = Encounter(state, seed=setup.seed).preview(setup.command)
    (shove,) = preview.overlay.routes
    assert shove.start == foe.square and len(shove.squares) == 1 + inches
    assert preview.overlay.token_ids(Role.TARGET) == (foe.id,)
    raise_then_footing = GivenDice([12, 12, 1] + [1] * 30, fallback=SeededDice(1))
    after, _ = get_system("savage-worlds").apply(state, setup.command, raise_then_footing)
    assert after.token(foe.id).square == shove.end


def test_a_braces_cone_is_the_one_its_bonus_then_follows() -> None:
    """Spycraft's Brace lays a cone, not an attack: the preview's squares are the cone the
    braced shooter then has, and the tokens it marks are those who then face the +1."""
    from engine.rules.spycraft.board import BRACED, conditions_named
    from engine.rules.spycraft.geometry_bridge import braced_cone, in_cone

    setup = legal_setup("spycraft", "brace")
    preview = Encounter(setup.state, seed=setup.seed).preview(setup.command)
    after, _ = get_system("spycraft").apply(setup.state, setup.command, low_dice())
    shooter = after.token(str(setup.command.actor))
    (brace,) = conditions_named(shooter, BRACED)
    assert preview.overlay.squares() == braced_cone(after, shooter, brace.source).squares
    facing_the_bonus = {
        t.id for t in after.others(shooter.id)
        if are_opponents(shooter.side, t.side) and in_cone(after, shooter, t, brace.source)
    }
    assert set(preview.overlay.token_ids(Role.AFFECTED)) == facing_the_bonus


def test_an_aiming_cone_is_the_one_its_perception_bonus_then_follows() -> None:
    """d20 Aiming lays a 60-ft cone: the preview draws the cone the aimer then has, and the
    tokens it marks are exactly those the aimer then notices at +5 (the rest at -5)."""
    from engine.rules.d20_firearms.fire_areas import aiming_area
    from engine.rules.d20_firearms.perception_actions import AIM_DIRECTION, aiming_modifier

    setup = legal_setup("d20-firearms", "aim")
    preview = Encounter(setup.state, seed=setup.seed).preview(setup.command)
    after, _ = get_system("d20-firearms").apply(setup.state, setup.command, low_dice())
    aimer = after.token(str(setup.command.actor))
    direction = float(after.combat.combatant(aimer.id).get(AIM_DIRECTION, 0.0))
    (shape,) = preview.overlay.shapes
    assert shape.kind is ShapeKind.CONE and shape.direction == direction
    assert preview.overlay.squares() == aiming_area(after, aimer.id, direction).squares
    plus_five = set()
    for other in after.others(aimer.id):
        modifier = aiming_modifier(after, aimer, [other])
        assert modifier is not None
        if modifier.value > 0:
            plus_five.add(other.id)
    assert plus_five, "the set-up puts someone in the cone"
    assert set(preview.overlay.token_ids(Role.AFFECTED)) == plus_five
    assert standing_on(setup.state, preview.overlay, aimer.id) == plus_five


def test_every_area_an_action_previews_is_tested_above() -> None:
    """Any catalogue action whose legal preview draws an area is in AREA_ACTIONS (or is
    one of the cones above), so a new area-like action cannot go unchecked."""
    drawing = set()
    for name in engine.system_names():
        for spec in get_system(name).catalogue:
            setup = legal_setup(name, spec.key)
            if Encounter(setup.state, seed=setup.seed).preview(setup.command).overlay.areas:
                drawing.add((name, spec.key))
    cones = {("spycraft", "brace"), ("d20-firearms", "aim")}
    assert drawing <= {*AREA_ACTIONS, *cones}
    assert cones <= drawing
