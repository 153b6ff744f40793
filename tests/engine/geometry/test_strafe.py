"""A swept chain of squares: gaps, repeats, squares behind, sight (no rule numbers here)."""

import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.geometry.strafe import _behind, check_chain
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token, Weapon


def sweep(ammo: int = 30, battlemap: BattleMap | None = None) -> EncounterState:
    gun = Weapon("SMG", range_increment=20.0, ammo=ammo, capacity=30, modes=("full auto",))
    shooter = Token("me", "Shooter", Side.PARTY, Square(0, 5), weapons=(gun,))
    thug = Token("thug", "Thug", Side.ENEMY, Square(6, 4))
    brute = Token("brute", "Brute", Side.ENEMY, Square(6, 6), size=2)  # (6,6) (7,6) (6,7) (7,7)
    pal = Token("pal", "Pal", Side.ALLY, Square(6, 8))
    return EncounterState(
        "s", "spycraft", FIVE_FOOT, battlemap or BattleMap(20, 20), (shooter, thug, brute, pal)
    )


COLUMN = [Square(6, y) for y in range(3, 9)]  # (6,3) .. (6,8), across the line of fire


def test_gaps_repeats_and_squares_behind_are_refused_with_reasons() -> None:
    gap = check_chain(sweep(), "me", [Square(6, 3), Square(6, 5)])
    assert "square (6,5) does not touch (6,3): the chain has a gap" in gap.reasons
    twice = check_chain(sweep(), "me", [Square(6, 3), Square(6, 4), Square(6, 3)])
    assert "square (6,3) is strafed twice" in twice.reasons
    behind = check_chain(sweep(), "me", [Square(4, 5), Square(5, 5)])
    assert behind.reasons == ("square (5,5) is directly behind (4,5) as seen from the shooter",)
    assert behind.reasons_at(Square(5, 5)) == behind.reasons
    assert behind.reasons_at(Square(4, 5)) == ()


def test_the_shooters_own_square_and_squares_off_the_map_are_refused() -> None:
    result = check_chain(sweep(), "me", [Square(0, 5), Square(-1, 5)])
    assert result.reasons_at(Square(0, 5)) == ("square (0,5) is the shooter's own",)
    assert "square (-1,5) is off the map" in result.reasons_at(Square(-1, 5))


def test_squares_out_of_sight_cannot_be_strafed() -> None:
    walled = BattleMap(20, 20, walls=(Wall((5, 0), (5, 5)),))
    result = check_chain(sweep(battlemap=walled), "me", [Square(6, 3), Square(6, 4)])
    assert "the shooter cannot see square (6,3)" in result.reasons


@settings(max_examples=80, deadline=None)
# The line from near (0, 0) to (13.5, 10.5) grazes the corner (9, 7) of square (9, 6).
@example(origin=(1.1920928955078125e-07, 0.0), chain=[Square(9, 6), Square(13, 10)])
@given(
    st.tuples(st.floats(0, 20), st.floats(0, 20)),
    st.lists(
        st.builds(Square, st.integers(0, 19), st.integers(0, 19)),
        min_size=2,
        max_size=6,
        unique=True,
    ),
)
def test_directly_behind_matches_a_plain_shapely_clip(
    origin: tuple[float, float], chain: list[Square]
) -> None:
    expected = []
    for i, far in enumerate(chain):
        line = shapely.LineString([origin, far.centre])
        for j, near in enumerate(chain):
            box = shapely.box(near.x, near.y, near.x + 1, near.y + 1)
            if i != j and line.intersection(box).length > 1e-6:
                expected.append(f"square {far} is directly behind {near} as seen from the shooter")
    found = [reason for _, reason in _behind(origin, chain)]
    assert set(found) == set(expected)
