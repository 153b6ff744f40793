"""Templates: cone, circle, square, line, Savage Worlds blasts and cone; inclusion rules."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.geometry.templates import (
    Inclusion,
    blast_template,
    circle_template,
    cone_template,
    line_template,
    savage_cone_template,
    square_template,
)
from engine.grid import FIVE_FOOT, SAVAGE_INCH, Square
from engine.tokens import Side, Token


def encounter(
    system: str = "spycraft", battlemap: BattleMap | None = None, tokens: tuple[Token, ...] = ()
) -> EncounterState:
    scale = SAVAGE_INCH if system == "savage-worlds" else FIVE_FOOT
    return EncounterState("test", system, scale, battlemap or BattleMap(20, 20), tokens)


def test_savage_medium_blast_counts_squares_even_partly_beneath() -> None:
    # Suppressive Fire / blast rule: anyone even partly under the template. A 2-inch radius
    # centred on a square reaches into the 5x5 block around it, but not its four corners.
    result = blast_template(encounter("savage-worlds"), (10.5, 10.5), "medium")
    assert len(result.squares) == 21
    assert Square(12, 11) in result.squares and Square(12, 12) not in result.squares


def test_d20_burst_counts_only_squares_whose_centre_is_inside() -> None:
    result = circle_template(encounter("d20-firearms"), (10.5, 10.5), 2)
    assert len(result.squares) == 13
    assert Square(12, 10) in result.squares and Square(12, 11) not in result.squares


@pytest.mark.parametrize(("size", "radius"), [("small", 1), ("medium", 2), ("large", 3)])
def test_blast_sizes_are_one_two_and_three_inches(size: str, radius: float) -> None:
    result = blast_template(encounter("savage-worlds"), (10.0, 10.0), size)
    assert result.shape.area == pytest.approx(math.pi * radius**2, rel=0.01)


def test_unknown_blast_names_the_choices() -> None:
    with pytest.raises(ValueError, match="small, medium, large"):
        blast_template(encounter("savage-worlds"), (5.0, 5.0), "huge")


def test_partial_rule_ignores_a_square_merely_touched_on_its_edge() -> None:
    result = square_template(encounter(), (5.0, 5.0), 2, inclusion=Inclusion.PARTIAL)
    assert result.squares == {Square(4, 4), Square(5, 4), Square(4, 5), Square(5, 5)}


def test_cone_covers_quarter_circle_from_a_corner() -> None:
    # A 15-ft (3-square) d20 cone from the corner (10, 10) pointing down-right (45 degrees).
    result = cone_template(encounter(), (10.0, 10.0), 45, 3)
    assert Square(10, 10) in result.squares and Square(12, 11) in result.squares
    assert Square(12, 12) not in result.squares  # centre 3.5 squares away
    assert Square(9, 10) not in result.squares  # behind the apex


def test_line_at_an_angle_and_the_tokens_it_touches() -> None:
    ogre = Token("ogre", "Ogre", Side.ENEMY, Square(5, 4), size=2)
    spy = Token("spy", "Spy", Side.PARTY, Square(5, 9))
    result = line_template(encounter(tokens=(ogre, spy)), (0.0, 4.5), 0, 10)
    assert result.token_ids() == ("ogre",)
    assert result.affected("ogre").squares == (Square(5, 4), Square(6, 4))
    assert {Square(x, 4) for x in range(10)} <= result.squares


def test_savage_cone_is_nine_inches_long() -> None:
    result = savage_cone_template(encounter("savage-worlds"), (2.0, 10.0), 0)
    minx, _, maxx, _ = result.shape.bounds
    assert maxx - minx == pytest.approx(9.0, abs=0.01)
    assert Square(10, 9) in result.squares and Square(11, 9) not in result.squares


def test_a_blast_clipped_to_walls_does_not_pass_through_them() -> None:
    battlemap = BattleMap(20, 20, walls=(Wall((11, 0), (11, 20)),))
    result = blast_template(
        encounter("savage-worlds", battlemap), (10.0, 10.0), "large", clip_to_walls=True
    )
    assert all(s.x < 11 for s in result.squares)
    assert result.reasons


@settings(max_examples=60, deadline=None)
@given(
    st.floats(2, 18),
    st.floats(2, 18),
    st.floats(-360, 360),
    st.floats(0.5, 8),
    st.floats(10, 180),
    st.sampled_from(list(Inclusion)),
)
def test_cone_squares_lie_within_the_circle_of_its_radius(
    x: float, y: float, direction: float, length: float, angle: float, rule: Inclusion
) -> None:
    state = encounter()
    cone = cone_template(state, (x, y), direction, length, angle=angle, inclusion=rule)
    circle = circle_template(state, (x, y), length, inclusion=rule)
    assert cone.squares <= circle.squares


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 17),
    st.integers(2, 17),
    st.sampled_from([0, 30, 45, 90, 200]),
    st.floats(1, 6),
    st.sampled_from(list(Inclusion)),
)
def test_rotating_the_map_rotates_a_cone(
    x: int, y: int, direction: float, length: float, rule: Inclusion
) -> None:
    size = 20
    state = encounter()
    plain = cone_template(state, (x, y), direction, length, inclusion=rule).squares
    turned = cone_template(state, (size - y, x), direction + 90, length, inclusion=rule).squares
    assert turned == {Square(size - 1 - s.y, s.x) for s in plain}
