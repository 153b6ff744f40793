"""Several copies of a character put down together ("Add 4 Razor gunmen"): numbered, on the
free squares nearest the GM's square, never through a wall."""

from __future__ import annotations

import pytest

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.files.roster import character_copies
from engine.grid import Square
from engine.rules import get_system
from engine.tokens import Side, Token


def state_with(*tokens: Token, walls: tuple[Wall, ...] = ()) -> EncounterState:
    return EncounterState("Prep", "spycraft", get_system("spycraft").scale,
                          BattleMap(12, 8, walls=walls), tokens=tokens)


GUNMAN = Token("razor", "Razor gunman", Side.ENEMY, Square(0, 0))


def test_four_copies_are_numbered_and_stand_on_free_squares_around_the_click() -> None:
    state = state_with(Token("kestrel", "Kestrel", Side.PARTY, Square(5, 4)))
    copies = character_copies(GUNMAN, state, Square(5, 4), 4)
    assert [t.name for t in copies] == [f"Razor gunman {n}" for n in range(1, 5)]
    assert len({t.id for t in copies} | {"kestrel"}) == 5
    squares = [t.square for t in copies]
    assert len(set(squares)) == 4 and Square(5, 4) not in squares  # Kestrel stands there
    assert all(max(abs(s.x - 5), abs(s.y - 4)) == 1 for s in squares)  # the ring around


def test_numbers_go_on_after_those_on_the_map() -> None:
    state = state_with(GUNMAN, Token("razor-2", "Razor gunman 2", Side.ENEMY, Square(1, 0)))
    copies = character_copies(GUNMAN, state, Square(6, 6), 3)
    assert [t.name for t in copies] == ["Razor gunman 3", "Razor gunman 4", "Razor gunman 5"]
    assert not {t.id for t in copies} & {"razor", "razor-2"}


def test_a_group_dropped_in_a_room_stays_in_it() -> None:
    """A wall at x=3 from the top to y=8: a click at (2,4) fills the left room's squares
    (columns 0-2) before any square beyond the wall, however near."""
    wall = Wall((3, 0), (3, 8))
    copies = character_copies(GUNMAN, state_with(walls=(wall,)), Square(2, 4), 9)
    assert all(t.square.x <= 2 for t in copies)
    assert len(copies) == 9


def test_fewer_when_the_room_is_full_and_a_count_below_one_is_refused() -> None:
    walls = (Wall((0, 1), (2, 1)), Wall((2, 0), (2, 1)))  # a closet of squares (0,0), (1,0)
    copies = character_copies(GUNMAN, state_with(walls=walls), Square(0, 0), 4)
    assert sorted(t.square for t in copies) == [Square(0, 0), Square(1, 0)]
    with pytest.raises(ValueError, match="1 or more"):
        character_copies(GUNMAN, state_with(), Square(0, 0), 0)
