"""Line of sight: the any-corner-to-any-corner rule, walls, doors, windows, big tokens."""

import pytest

from engine.battlemap import BattleMap, CoverObject, Portal, PortalKind, PortalState, Wall
from engine.geometry import (
    explain_line_of_sight,
    has_line_of_sight,
    sight_pairs,
    token_line_of_sight,
    token_sees_square,
)
from engine.grid import Square
from engine.tokens import Side, Token

# A wall along x = 5 from the top to y = 6, with a doorway from y = 6 to y = 7.
WALL = Wall((5, 0), (5, 6))
LOWER = Wall((5, 7), (5, 10))


def room(
    portal_kind: PortalKind = PortalKind.DOOR, state: PortalState = PortalState.CLOSED
) -> BattleMap:
    return BattleMap(
        10, 10, walls=(WALL, LOWER), portals=(Portal("d1", (5, 6), (5, 7), portal_kind, state),)
    )


def test_open_field_sees_everything() -> None:
    assert has_line_of_sight(BattleMap(10, 10), Square(0, 0), Square(9, 9))


def test_wall_blocks_squares_on_either_side() -> None:
    battlemap = room()
    assert not has_line_of_sight(battlemap, Square(4, 2), Square(5, 2))
    assert not has_line_of_sight(battlemap, Square(0, 0), Square(9, 9))


def test_line_along_a_wall_on_the_same_side_is_clear() -> None:
    battlemap = room()
    assert has_line_of_sight(battlemap, Square(4, 0), Square(4, 9))


@pytest.mark.parametrize(
    ("kind", "state", "sees"),
    [
        (PortalKind.DOOR, PortalState.CLOSED, False),
        (PortalKind.DOOR, PortalState.LOCKED, False),
        (PortalKind.DOOR, PortalState.OPEN, True),
        (PortalKind.WINDOW, PortalState.CLOSED, True),
    ],
)
def test_doors_block_unless_open_and_windows_never_block(
    kind: PortalKind, state: PortalState, sees: bool
) -> None:
    assert has_line_of_sight(room(kind, state), Square(4, 6), Square(5, 6)) is sees


def test_touching_only_a_free_wall_end_is_not_blocked() -> None:
    # A short wall whose lower end sits at (3, 3): squares (2, 3) and (3, 2) are diagonal
    # across that end; the straight line between their near corners only grazes it.
    battlemap = BattleMap(6, 6, walls=(Wall((3, 0), (3, 3)),))
    assert has_line_of_sight(battlemap, Square(2, 2), Square(3, 3))
    assert has_line_of_sight(battlemap, Square(2, 3), Square(3, 2))


def test_joined_walls_do_not_leak_at_the_joint() -> None:
    # A closed corner: walls along x = 3 and y = 3 meeting at (3, 3) wall off the top-right room.
    battlemap = BattleMap(6, 6, walls=(Wall((3, 0), (3, 3)), Wall((3, 3), (6, 3))))
    assert not has_line_of_sight(battlemap, Square(2, 3), Square(3, 2))
    assert not has_line_of_sight(battlemap, Square(0, 5), Square(5, 0))


def test_sight_blocking_cover_blocks_and_low_cover_does_not() -> None:
    crates = CoverObject("c1", "crates", ((4, 0), (5, 0), (5, 10), (4, 10)), blocks_sight=True)
    low = CoverObject("c1", "low wall", ((4, 0), (5, 0), (5, 10), (4, 10)))
    assert not has_line_of_sight(BattleMap(10, 10, cover=(crates,)), Square(1, 1), Square(8, 1))
    assert has_line_of_sight(BattleMap(10, 10, cover=(low,)), Square(1, 1), Square(8, 1))


def test_big_token_sees_through_a_gap_with_any_of_its_squares() -> None:
    # Wall along x = 5 with a gap only at row 3; a 2x2 token covering rows 2-3 looks through it.
    battlemap = BattleMap(10, 10, walls=(Wall((5, 0), (5, 3)), Wall((5, 4), (5, 10))))
    viewer = Token("v", "Ogre", Side.ENEMY, Square(2, 2), size=2)
    target = Token("t", "Agent", Side.PARTY, Square(6, 3))
    hidden = Token("h", "Spy", Side.PARTY, Square(6, 9))
    assert token_line_of_sight(battlemap, viewer, target)
    assert token_line_of_sight(battlemap, target, viewer)
    assert not token_line_of_sight(battlemap, viewer, hidden)


def test_a_token_sees_a_square_when_any_of_its_squares_does() -> None:
    battlemap = BattleMap(10, 10, walls=(Wall((5, 0), (5, 3)), Wall((5, 4), (5, 10))))
    ogre = Token("v", "Ogre", Side.ENEMY, Square(2, 2), size=2)
    assert token_sees_square(battlemap, ogre, Square(7, 3))  # through the gap at row 3
    assert not token_sees_square(battlemap, ogre, Square(6, 9))
    assert token_sees_square(battlemap, ogre, Square(3, 3))  # its own square
    with pytest.raises(ValueError, match=r"square \(12,0\) lies outside"):
        token_sees_square(battlemap, ogre, Square(12, 0))


def test_off_map_square_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"square \(12,0\) lies outside the 10x10 map"):
        has_line_of_sight(BattleMap(10, 10), Square(0, 0), Square(12, 0))


def test_sight_pairs_answers_every_pair_once_and_agrees_with_tokens() -> None:
    battlemap = BattleMap(10, 10, walls=(Wall((5, 0), (5, 3)), Wall((5, 4), (5, 10))))
    tokens = (
        Token("v", "Ogre", Side.ENEMY, Square(2, 2), size=2),
        Token("t", "Agent", Side.PARTY, Square(6, 3)),
        Token("h", "Spy", Side.PARTY, Square(6, 9)),
    )
    pairs = sight_pairs(battlemap, tokens)
    assert set(pairs) == {("v", "t"), ("v", "h"), ("t", "h")}
    for (a, b), sees in pairs.items():
        first = next(t for t in tokens if t.id == a)
        second = next(t for t in tokens if t.id == b)
        assert sees == token_line_of_sight(battlemap, first, second)
    assert pairs[("v", "t")] and not pairs[("v", "h")]
    # Either order through sees(); the mapping keeps one key per pair.
    assert pairs.sees("h", "v") == pairs.sees("v", "h") == pairs[("v", "h")]
    assert pairs.sees("t", "t")
    with pytest.raises(KeyError):
        pairs[("t", "v")]
    assert len(pairs) == 3 and dict(pairs) == {key: pairs[key] for key in pairs}


def test_explained_sight_gives_a_clear_line_or_names_the_blocker() -> None:
    battlemap = room()
    agent = Token("a", "Agent", Side.PARTY, Square(4, 2))
    thug = Token("t", "Thug", Side.ENEMY, Square(6, 2))
    guard = Token("g", "Guard", Side.ENEMY, Square(4, 8))
    blocked = explain_line_of_sight(battlemap, agent, thug)
    assert not blocked.sees
    assert "Agent cannot see Thug" in blocked.reasons[0] and "a wall" in blocked.reasons[0]
    seen = explain_line_of_sight(battlemap, agent, guard)
    assert seen.sees and not seen.reasons
    assert seen.line.length == pytest.approx(6, abs=1)
    door = explain_line_of_sight(
        room(),
        Token("b", "Spy", Side.PARTY, Square(4, 6)),
        Token("c", "Cop", Side.ENEMY, Square(6, 6)),
    )
    assert "the closed door between (4,6) and (5,6)" in door.reasons[0]
