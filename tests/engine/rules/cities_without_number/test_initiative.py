"""Cities Without Number initiative: 1d8 + best Dex per side, PCs win ties."""

from __future__ import annotations

from engine.battlemap import BattleMap
from engine.dice import GivenDice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules import get_system
from engine.rules.base import Command
from engine.rules.cities_without_number.initiative import (
    group_sides,
    individual_tiebreak,
    roll_sides,
)
from engine.rules.cities_without_number.tables import SCALE as METRIC
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
    """In the order the system keeps, a side's members share its count and tiebreak, and
    the side that rolled higher comes first (party 5+3 = 8, enemy 1+1 = 2)."""
    state = EncounterState("Ranks", "cities-without-number", METRIC, BattleMap(10, 4), TOKENS)
    system = get_system("cities-without-number")
    after, _ = system.apply(state, Command("start_combat"), GivenDice([5, 1]))
    rank = {c.token_id: (c.initiative, c.tiebreak) for c in after.combat.order}
    assert rank["pc1"] == rank["pc2"] == rank["ally"]
    assert rank["goon1"] == rank["goon2"] != rank["pc1"]
    first = {c.token_id for c in after.combat.order[:3]}
    assert first == {"pc1", "pc2", "ally"}


def test_allies_may_roll_as_their_own_side() -> None:
    sides = group_sides(TOKENS, allies_with_party=False)
    assert set(sides) == {"party", "ally", "enemy"}


def test_individual_initiative_tiebreak_favours_pcs_then_dexterity() -> None:
    assert individual_tiebreak(TOKENS[0]) > individual_tiebreak(TOKENS[4])
    assert individual_tiebreak(TOKENS[1]) > individual_tiebreak(TOKENS[0])
