"""RuleSystem.drag_bands: what one drag in combat may spend, nearest band first.

A GM from a VTT's drag ruler drags as far as the token should go. Each bundled system lets
one drag spend more than its ordinary move where its rules allow: Spycraft's two Standard
Moves (both half actions), d20's double and triple move from the action pool, Cities
Without Number's second Move with the Main action, Savage Worlds' run with the running die
(rolled at the drop). Each band's walk is legal with its options, spends what it says, is
logged, and is one undo; one square past the last band is refused; a band the budget cannot
pay for is not offered and its command is refused.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.dice import GivenDice
from engine.grid import Square
from engine.rules.base import Command, DragBand
from engine.rules.drag_reach import band_for
from engine.turns.combat import Phase
from engine.turns.session import Encounter
from tests.engine.rules.legal_setups import ACTOR, SEED, open_room

#: Per system: the longest band's name, the budget it leaves from a fresh turn, the log line.
LONGEST = {
    "spycraft": ("double move", {"half": 0, "bonus": 0},
                 "Ann double-moves to (42,12) (60 ft): both half actions."),
    "d20-firearms": ("triple move", {"actions": 0}, "Ann moves to (48,12) (3 move actions)."),
    "cities-without-number": ("double move", {"main": 0, "move": 0},
                              "Ann moves to (42,12) (the Move and the Main action)."),
    "savage-worlds": ("run", {"actions": 3, "pace": 0}, "Ann moves to (42,12)."),
}


def east(squares: int) -> tuple[Square, ...]:
    return tuple(Square(30 + step, 12) for step in range(1, squares + 1))


def drag(fight: Encounter, band: DragBand, squares: int) -> Command:
    return Command(fight.system.ordinary_move_key, ACTOR, squares=east(squares),
                   options=band.options)


@pytest.mark.parametrize("system_name", sorted(LONGEST))
def test_the_first_band_is_the_ordinary_move_and_a_longer_one_follows(system_name: str) -> None:
    fight = open_room(system_name)
    bands = fight.system.drag_bands(fight.state, ACTOR)
    assert bands[0].reach == fight.system.move_allowance(fight.state, ACTOR)
    assert bands[0].options == ()
    assert bands[-1].name == LONGEST[system_name][0]
    assert [b.reach for b in bands] == sorted(b.reach for b in bands)
    assert bands[-1].reach > bands[0].reach
    assert band_for(bands, bands[0].reach + 1) == 1 and band_for(bands, bands[-1].reach + 1) is None


@pytest.mark.parametrize("system_name", sorted(LONGEST))
def test_the_longest_band_walks_its_reach_spends_it_and_one_undo_takes_it_back(
    system_name: str,
) -> None:
    fight = open_room(system_name)
    before = fight.state
    band = fight.system.drag_bands(fight.state, ACTOR)[-1]
    _, budget, logged = LONGEST[system_name]
    command = drag(fight, band, band.reach)
    preview = fight.preview(command)
    assert preview.legal, preview.reasons
    dice = GivenDice([6])  # Savage Worlds' running die at its best; the others roll nothing
    events = fight.apply(command, dice)
    assert fight.state.token(ACTOR).square == east(band.reach)[-1]
    assert dict(fight.state.combat.combatant(ACTOR).budget) == budget
    assert logged in [e.text for e in events]
    fight.undo()
    assert fight.state == before


@pytest.mark.parametrize("system_name", sorted(LONGEST))
def test_one_square_past_the_longest_band_is_refused(system_name: str) -> None:
    fight = open_room(system_name)
    band = fight.system.drag_bands(fight.state, ACTOR)[-1]
    assert not fight.preview(drag(fight, band, band.reach + 1)).legal


@pytest.mark.parametrize("system_name", sorted(LONGEST))
def test_the_ordinary_move_alone_refuses_the_longer_walk(system_name: str) -> None:
    fight = open_room(system_name)
    first = fight.system.drag_bands(fight.state, ACTOR)[0]
    assert fight.preview(drag(fight, first, first.reach)).legal
    assert not fight.preview(drag(fight, first, first.reach + 1)).legal


# ---- Spycraft: two Standard Moves


def spend(fight: Encounter, command: Command) -> None:
    fight.apply(command, GivenDice([]))


def test_spycraft_with_one_half_action_left_offers_no_double_move_and_refuses_it() -> None:
    fight = open_room("spycraft")
    spend(fight, Command("crouch", ACTOR))
    bands = fight.system.drag_bands(fight.state, ACTOR)
    assert [b.name for b in bands] == ["move"]
    double = Command("standard_move", ACTOR, squares=east(8), options=(("double", True),))
    reasons = fight.preview(double).reasons
    assert any("2 half actions" in r and "1 half action left" in r for r in reasons), reasons


def test_spycraft_refuses_a_double_move_in_the_surprise_round() -> None:
    fight = open_room("spycraft")
    state = replace(fight.state, combat=replace(fight.state.combat, phase=Phase.SURPRISE))
    fight = Encounter(state, seed=SEED)
    assert [b.name for b in fight.system.drag_bands(fight.state, ACTOR)] == ["move"]
    double = Command("standard_move", ACTOR, squares=east(8), options=(("double", True),))
    assert any("surprise round" in r for r in fight.preview(double).reasons)


# ---- d20: movement actions from the pool


def test_d20_offers_as_many_moves_as_the_pool_holds() -> None:
    fight = open_room("d20-firearms")
    spend(fight, Command("move", ACTOR, squares=east(1)))
    spend(fight, Command("move", ACTOR, squares=(Square(32, 12),)))
    bands = fight.system.drag_bands(fight.state, ACTOR)
    assert [b.name for b in bands] == ["move"]
    twice = Command("move", ACTOR, squares=(Square(33, 12), Square(34, 12)),
                    options=(("moves", 2),))
    assert fight.preview(twice).reasons == ("needs 2 actions, 1 left",)


def test_d20_a_disabled_soldier_gets_one_move() -> None:
    fight = open_room("d20-firearms")
    disabled = fight.state.token(ACTOR)
    state = fight.state.with_token(replace(disabled, stats={**disabled.stats, "hp": 0}))
    bands = fight.system.drag_bands(state, ACTOR)
    assert [b.name for b in bands] == ["move"]


# ---- Cities Without Number: the Main action as a second Move


def test_cwn_once_the_move_is_spent_no_second_move_and_it_is_refused() -> None:
    fight = open_room("cities-without-number")
    spend(fight, Command("run", ACTOR, squares=east(1)))
    assert [b.name for b in fight.system.drag_bands(fight.state, ACTOR)] == ["move"]
    second = Command("run", ACTOR, squares=(Square(32, 12),), options=(("second_move", True),))
    assert fight.preview(second).reasons == ("this takes both the Main and the Move action",)


# ---- Savage Worlds: Pace and the running die


def test_savage_run_reaches_pace_and_the_die_and_the_preview_gives_the_odds() -> None:
    fight = open_room("savage-worlds")
    move, run = fight.system.drag_bands(fight.state, ACTOR)
    assert run.reach == move.reach + 6 and run.rolled == "the running die (1d6)"
    preview = fight.preview(drag(fight, run, move.reach + 3))
    assert preview.notes == ("the running die must show 3 or more to get there (67%)",)


def test_savage_a_short_running_die_stops_the_token_on_the_route() -> None:
    fight = open_room("savage-worlds")
    move, run = fight.system.drag_bands(fight.state, ACTOR)
    events = fight.apply(drag(fight, run, move.reach + 5), GivenDice([2]))
    assert fight.state.token(ACTOR).square == east(move.reach + 2)[-1]
    texts = [e.text for e in events]
    assert 'Ann runs: +2" of Pace.' in texts
    assert f'The running die falls short: Ann stops after {move.reach + 2}".' in texts


def test_savage_after_running_once_or_defending_no_run_band() -> None:
    fight = open_room("savage-worlds")
    run = fight.system.drag_bands(fight.state, ACTOR)[-1]
    fight.apply(drag(fight, run, 1), GivenDice([1]))
    assert [b.name for b in fight.system.drag_bands(fight.state, ACTOR)] == ["move"]
    fight = open_room("savage-worlds")
    spend(fight, Command("defend", ACTOR))
    assert [b.name for b in fight.system.drag_bands(fight.state, ACTOR)] == ["move"]
