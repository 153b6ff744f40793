"""Spycraft Strafe: chain checks, cumulative Defense bonuses, shots (3 per square)."""

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.geometry.strafe import _behind_reasons, check_strafe
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


def test_strafe_targets_each_occupied_square_with_cumulative_defense_bonus() -> None:
    result = check_strafe(sweep(), "me", COLUMN, "SMG")
    assert result.legal, result.reasons
    assert [(t.token_id, t.square, t.defense_bonus) for t in result.targets] == [
        ("thug", Square(6, 4), 2),
        ("brute", Square(6, 6), 4),  # a large opponent in two strafed squares
        ("brute", Square(6, 7), 6),  # is two separate targets
        ("pal", Square(6, 8), 8),
    ]
    assert result.shots == 18  # 3 per square: the description rules over the table's 2
    assert result.warnings and "Pal" in result.warnings[0]


def test_bonuses_can_count_from_the_other_end() -> None:
    result = check_strafe(sweep(), "me", COLUMN, "SMG", from_end=True)
    first = result.targets[0]
    assert (first.square, first.defense_bonus) == (Square(6, 8), 2)


def test_needs_nine_shots_and_at_most_a_third_of_them_in_squares() -> None:
    result = check_strafe(sweep(ammo=8), "me", COLUMN[:2], "SMG")
    assert not result.legal
    assert "has 8 shots left; Strafe needs 9 or more" in result.reasons[0]
    result = check_strafe(sweep(ammo=15), "me", COLUMN, "SMG")  # 6 squares > 15 // 3 = 5
    assert any("can strafe at most 5" in r for r in result.reasons)
    assert check_strafe(sweep(ammo=18), "me", COLUMN, "SMG").legal


def test_never_more_than_ten_squares() -> None:
    chain = [Square(8, y) for y in range(0, 11)]
    result = check_strafe(sweep(ammo=30), "me", chain, "SMG")
    assert any("at most 10" in r for r in result.reasons)


def test_gaps_repeats_and_squares_behind_are_refused_with_reasons() -> None:
    gap = check_strafe(sweep(), "me", [Square(6, 3), Square(6, 5)], "SMG")
    assert "square (6,5) does not touch (6,3): the chain has a gap" in gap.reasons
    twice = check_strafe(sweep(), "me", [Square(6, 3), Square(6, 4), Square(6, 3)], "SMG")
    assert "square (6,3) is strafed twice" in twice.reasons
    behind = check_strafe(sweep(), "me", [Square(4, 5), Square(5, 5)], "SMG")
    assert behind.reasons == ("square (5,5) is directly behind (4,5) as seen from the shooter",)


def test_squares_out_of_sight_cannot_be_strafed() -> None:
    walled = BattleMap(20, 20, walls=(Wall((5, 0), (5, 5)),))
    result = check_strafe(sweep(battlemap=walled), "me", [Square(6, 3), Square(6, 4)], "SMG")
    assert "the shooter cannot see square (6,3)" in result.reasons


@settings(max_examples=80, deadline=None)
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
    found = _behind_reasons(origin, chain)
    assert set(found) == set(expected)
