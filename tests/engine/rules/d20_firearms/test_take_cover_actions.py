"""Covering Fire: a foe who makes the Reflex save (DC 15) takes cover within half its
movement, moved there in the same apply when the command names the square, played through
the session API."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.battlemap import Wall
from engine.dice import GivenDice
from engine.geometry.cover import CoverLevel, cover_between
from engine.grid import Square
from engine.rules.base import BadOptions, Command
from engine.tokens import Side
from engine.turns.session import Encounter

from .builders import crate, fight, soldier

#: An id holding every separator the old 'id=x,y;...' text split on.
ODD = 'b, "the|one"=6,8;c=7:9'


def covered(b: str = "b", **stats: int) -> Encounter:
    """A covers the cone east; B (speed 30 ft, so 15 ft to dive) stands 30 ft away in it."""
    return fight(soldier("a", Side.PARTY, (0, 5)),
                 replace(soldier(b, Side.ENEMY, (6, 5), hp=100, **stats), name="B"),
                 soldier("c", Side.ENEMY, (0, 0)))


def cone(**options: object) -> Command:
    return Command.build("covering_fire", "a", squares=[(6, 5)], weapon="Assault rifle",
                         **options)


@pytest.mark.parametrize("b", ["b", ODD])
def test_a_foe_who_saves_moves_to_the_named_cover_square_in_the_same_apply(b: str) -> None:
    game = covered(b, reflex=5)
    fire = cone(take_cover={b: (6, 8)})
    preview = game.preview(fire)
    assert preview.legal, preview.reasons
    assert "B takes cover at (6, 8) on a save." in preview.notes
    # Attack 1 is a natural 1; B saves with 12 + 5 = 17 and is out of the later attacks.
    events = game.apply(fire, GivenDice([1, 12]))
    assert game.state.token(b).square == Square(6, 8)
    assert any("dives for cover at (6, 8) (15 ft)" in e.text for e in events)
    assert game.state.token(b).has_condition("Taking Cover")


def test_a_foe_who_saves_without_a_destination_is_left_for_the_gm() -> None:
    game = covered(reflex=5)
    events = game.apply(cone(), GivenDice([1, 12]))
    assert game.state.token("b").square == Square(6, 5)
    assert any("GM: move B to cover within 15 ft" in e.text for e in events)


def test_a_foe_who_fails_the_save_stays_put_even_with_a_destination() -> None:
    game = covered(reflex=0)
    events = game.apply(cone(take_cover={"b": (6, 8)}), GivenDice([1, 2, 1, 1]))
    assert game.state.token("b").square == Square(6, 5)
    assert any("fails the save" in e.text for e in events)


def test_the_cover_square_must_be_within_half_speed_for_a_foe_in_the_cone() -> None:
    game = covered(reflex=5)
    far = game.preview(cone(take_cover={"b": (6, 9)}))
    assert "within half its speed (15 ft)" in far.reasons[0]
    assert "not in the covered cone" in game.preview(cone(take_cover={"c": (1, 0)})).reasons[0]
    with pytest.raises(BadOptions, match="'b' must have a square"):
        game.preview(cone(take_cover={"b": "six"}))
    with pytest.raises(BadOptions, match="option 'take_cover' must be token ids each with a"):
        game.preview(cone(take_cover="b=6,8"))


def test_a_follow_up_moves_a_foe_who_saved_without_a_destination_out_of_turn() -> None:
    game = covered(reflex=5)
    dive = Command.build("take_cover", "b", squares=[(6, 8)])
    assert "not B's" in game.preview(dive).reasons[0]
    game.apply(cone(), GivenDice([1, 12]))
    assert "(half its speed)" in game.preview(
        Command.build("take_cover", "b", squares=[(6, 6), (6, 7), (6, 8), (6, 9)])).reasons[0]
    preview = game.preview(dive)
    assert preview.legal and preview.cost == "free", preview.reasons
    events = game.apply(dive)
    assert game.state.token("b").square == Square(6, 8)
    assert "dives for cover at (6, 8) (15 ft)" in events[-1].text
    assert not game.preview(Command.build("take_cover", "b", squares=[(6, 7)])).legal


def test_a_foe_who_saves_dives_behind_total_cover_when_the_map_offers_it() -> None:
    # The text: total cover is taken if possible, else the closest cover. A wall on the
    # left edge of column 6 from y = 6.5 down hides (6,7) from A entirely.
    game = covered(reflex=5)
    walled = replace(game.state, battlemap=replace(game.state.battlemap,
                                                   walls=(Wall((6.0, 6.5), (6.0, 12.0)),)))
    game = Encounter(walled)
    events = game.apply(cone(), GivenDice([1, 12]))
    assert game.state.token("b").square == Square(6, 7)
    assert cover_between(game.state.battlemap, game.state.token("a"),
                         game.state.token("b")).level is CoverLevel.TOTAL
    assert any("dives for cover at (6, 7)" in e.text for e in events)


def test_without_total_cover_in_reach_the_foe_takes_the_closest_cover() -> None:
    game = fight(soldier("a", Side.PARTY, (0, 5)), soldier("b", Side.ENEMY, (6, 5), hp=100,
                                                            reflex=5),
                 soldier("c", Side.ENEMY, (0, 0)), cover=(crate(5.0, 7.0),))
    game.apply(cone(), GivenDice([1, 12]))
    where = game.state.token("b")
    assert where.square != Square(6, 5)
    found = cover_between(game.state.battlemap, game.state.token("a"), where).level
    assert CoverLevel.NONE < found < CoverLevel.TOTAL
