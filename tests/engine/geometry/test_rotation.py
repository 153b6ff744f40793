"""Turning the map by 90 degrees turns every answer: sight, visible squares, cover, Strafe."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap
from engine.encounter import EncounterState
from engine.geometry.cover import cover_between
from engine.geometry.strafe import check_chain
from engine.geometry.visibility import visible_squares
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token, Weapon
from tests.engine.geometry.strategies import maps, rotate_map, rotate_square, squares


def token(token_id: str, square: Square, side: Side = Side.PARTY) -> Token:
    gun = Weapon("SMG", range_increment=20.0, ammo=30, capacity=30)
    return Token(token_id, token_id, side, square, weapons=(gun,))


@settings(max_examples=40, deadline=None)
@given(maps, squares)
def test_visible_squares_turn_with_the_map(battlemap: BattleMap, viewer: Square) -> None:
    plain = visible_squares(battlemap, token("v", viewer), 6).squares
    turned = visible_squares(rotate_map(battlemap), token("v", rotate_square(viewer)), 6).squares
    assert turned == {rotate_square(s) for s in plain}


@settings(max_examples=60, deadline=None)
@given(maps, squares, squares)
def test_cover_turns_with_the_map(battlemap: BattleMap, a: Square, b: Square) -> None:
    if a == b:
        return
    plain = cover_between(battlemap, token("a", a), token("b", b))
    turned = cover_between(
        rotate_map(battlemap), token("a", rotate_square(a)), token("b", rotate_square(b))
    )
    assert turned.level is plain.level


@settings(max_examples=40, deadline=None)
@given(maps, squares, st.lists(squares, min_size=1, max_size=5, unique=True))
def test_strafe_verdict_turns_with_the_map(
    battlemap: BattleMap, shooter: Square, chain: list[Square]
) -> None:
    if shooter in chain:
        return
    plain_state = EncounterState("p", "spycraft", FIVE_FOOT, battlemap, (token("s", shooter),))
    turned_state = EncounterState(
        "t", "spycraft", FIVE_FOOT, rotate_map(battlemap), (token("s", rotate_square(shooter)),)
    )
    plain = check_chain(plain_state, "s", chain)
    turned = check_chain(turned_state, "s", [rotate_square(s) for s in chain])
    assert len(turned.reasons) == len(plain.reasons)
