"""Blind-Fire at tokens or at squares (50% miss chance, half the shots into empty squares
unless a Perception check located the enemies), played through the session API."""

from __future__ import annotations

from collections.abc import Iterable

from engine.dice import GivenDice
from engine.rules.base import Command, Event
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import crate, fight, soldier

RIFLE = "Assault rifle"


def behind_wall(**stats: int | bool | str) -> Encounter:
    """A crouches behind three-quarters cover; B stands in the open beyond it."""
    wall = crate(3.05, 0.0, "three_quarters")
    return fight(soldier("a", Side.PARTY, (2, 0), **stats), soldier("b", Side.ENEMY, (9, 0)),
                 cover=(wall,))


def texts(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]


def test_blind_fire_at_squares_after_locating_attacks_the_occupant_and_wastes_empty_shots(
) -> None:
    game = behind_wall(quick_recon=True)
    game.apply(Command("locate_enemies", "a"), GivenDice([20]))
    fire = Command.build("blind_fire", "a", squares=[(9, 0), (10, 0)], weapon=RIFLE,
                         full_auto=True)
    preview = game.preview(fire)
    assert preview.legal, preview.reasons
    assert "2 at square (9, 0) (B there)" in preview.summary
    assert "1 at square (10, 0) (empty now)" in preview.summary
    assert preview.targets == ("b",)
    assert preview.rolls[0] == "miss chance 1d100"
    ammo = game.state.token("a").weapon(RIFLE).ammo
    # Shot 1 at B: the d100 51 beats the miss chance, 19 hits, 2d8 typed as 7.
    # Shot 2 into the empty square is wasted. Shot 3 at B: the d100 10 misses.
    events = texts(game.apply(fire, GivenDice([51, 19, 7, 10])))
    assert game.state.token("b").stat("hp") == 13
    assert any("square (10, 0) (empty now) is wasted" in t for t in events)
    assert sum("miss chance takes it" in t for t in events) == 1
    assert game.state.token("a").weapon(RIFLE).ammo == ammo - preview.shots


def test_blind_fire_without_locating_sends_half_the_shots_into_empty_squares() -> None:
    game = behind_wall()
    fire = Command.build("blind_fire", "a", squares=[(9, 0)], weapon=RIFLE, full_auto=True)
    preview = game.preview(fire)
    assert "2 at square (9, 0) (B there)" in preview.summary
    assert "1 into empty squares" in preview.summary
    assert preview.rolls.count("miss chance 1d100") == 2
    events = texts(game.apply(fire, GivenDice([10, 50])))
    assert "1 of A's blind shots go into empty squares" in events[0]
    assert sum("miss chance takes it" in t for t in events) == 2


def test_blind_fire_at_one_empty_square_spends_the_shot() -> None:
    game = behind_wall()
    ammo = game.state.token("a").weapon(RIFLE).ammo
    fire = Command.build("blind_fire", "a", squares=[(11, 0)], weapon=RIFLE)
    assert game.preview(fire).rolls == ()
    events = texts(game.apply(fire, GivenDice([])))
    assert any("is wasted" in t for t in events)
    assert game.state.token("a").weapon(RIFLE).ammo < ammo
    assert game.state.token("b").stat("hp") == 20


def test_blind_fire_at_squares_needs_heavy_cover_a_point_and_the_map() -> None:
    open_field = fight(soldier("a", Side.PARTY, (2, 0)), soldier("b", Side.ENEMY, (9, 0)))
    fire = Command.build("blind_fire", "a", squares=[(9, 0)], weapon=RIFLE)
    assert "cover" in open_field.preview(fire).reasons[0]
    game = behind_wall()
    assert "target or a square" in game.preview(
        Command.build("blind_fire", "a", weapon=RIFLE)).reasons[0]
    assert "off the map" in game.preview(
        Command.build("blind_fire", "a", squares=[(40, 0)], weapon=RIFLE)).reasons[0]


def test_full_auto_blind_fire_costs_what_full_auto_fire_costs_and_one_shot_one_action() -> None:
    """Blind-Fire on full auto spends the three actions of Full-Auto Fire (its handler's
    cost); a single blind shot one action."""
    game = behind_wall()
    full = Command.build("blind_fire", "a", squares=[(9, 0)], weapon=RIFLE, full_auto=True)
    assert game.preview(full).cost == "3 of 3 actions"
    single = Command.build("blind_fire", "a", squares=[(9, 0)], weapon=RIFLE)
    assert game.preview(single).cost == "1 of 3 actions"
