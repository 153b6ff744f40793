"""Cities Without Number initiative: 1d8 + best Dex per side, PCs win ties."""

from __future__ import annotations

from engine.dice import GivenDice
from engine.grid import Square
from engine.rules.cities_without_number.initiative import (
    group_sides,
    individual_tiebreak,
    roll_sides,
    side_ranks,
)
from engine.tokens import Side, Token


def tok(tid: str, side: Side, dex: int, x: int) -> Token:
    return Token(tid, tid, side, Square(x, 0), stats={"dex_mod": dex})


TOKENS = (
    tok("pc1", Side.PARTY, 1, 0),
    tok("pc2", Side.PARTY, 2, 1),
    tok("ally", Side.ALLY, 3, 2),
    tok("goon1", Side.ENEMY, 0, 3),
    tok("goon2", Side.ENEMY, 1, 4),
)


def test_each_side_adds_its_best_dexterity_modifier() -> None:
    order = roll_sides(TOKENS, GivenDice([4, 6]))
    # Allies join the PCs by default, so the party's best Dex is the ally's +3.
    by_side = {r.side: r for r in order}
    assert by_side["party"].bonus == 3
    assert by_side["enemy"].bonus == 1
    assert by_side["party"].roll.expression == "1d8+3"


def test_higher_side_total_acts_first() -> None:
    order = roll_sides(TOKENS, GivenDice([2, 8]))  # party 2+3 = 5, enemy 8+1 = 9
    assert [r.side for r in order] == ["enemy", "party"]
    assert [r.total for r in order] == [9, 5]


def test_pcs_win_ties() -> None:
    order = roll_sides(TOKENS, GivenDice([3, 5]))  # party 3+3 = 6, enemy 5+1 = 6
    assert [(r.side, r.total) for r in order] == [("party", 6), ("enemy", 6)]
    order = roll_sides(tuple(reversed(TOKENS)), GivenDice([5, 3]))  # enemy rolls first
    assert [(r.side, r.total) for r in order] == [("party", 6), ("enemy", 6)]


def test_members_of_a_side_share_its_rank() -> None:
    ranks = side_ranks(roll_sides(TOKENS, GivenDice([5, 1])))
    assert ranks["pc1"] == ranks["pc2"] == ranks["ally"] == 0
    assert ranks["goon1"] == ranks["goon2"] == 1


def test_allies_may_roll_as_their_own_side() -> None:
    sides = group_sides(TOKENS, allies_with_party=False)
    assert set(sides) == {"party", "ally", "enemy"}


def test_individual_initiative_tiebreak_favours_pcs_then_dexterity() -> None:
    assert individual_tiebreak(TOKENS[0]) > individual_tiebreak(TOKENS[4])
    assert individual_tiebreak(TOKENS[1]) > individual_tiebreak(TOKENS[0])
