"""Templates: cone, circle, square, line, teardrop; the two inclusion rules; laying a spec."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.battlemap import BattleMap, Wall
from engine.encounter import EncounterState
from engine.geometry.templates import (
    STANDARD_TEMPLATES,
    Inclusion,
    TemplateForm,
    TemplateSpec,
    circle_template,
    cone_template,
    lay_template,
    line_template,
    square_template,
    teardrop_shape,
)
from engine.grid import FIVE_FOOT, Square
from engine.tokens import Side, Token

CENTRE = Inclusion.CENTRE


def encounter(
    battlemap: BattleMap | None = None, tokens: tuple[Token, ...] = ()
) -> EncounterState:
    return EncounterState("test", "any", FIVE_FOOT, battlemap or BattleMap(20, 20), tokens)


def test_partial_rule_counts_squares_even_partly_beneath() -> None:
    # A radius of 2 centred on a square reaches into the 5x5 block around it, but not its
    # four corners.
    result = circle_template(encounter(), (10.5, 10.5), 2, inclusion=Inclusion.PARTIAL)
    assert len(result.squares) == 21
    assert Square(12, 11) in result.squares and Square(12, 12) not in result.squares


def test_centre_rule_counts_only_squares_whose_centre_is_inside() -> None:
    result = circle_template(encounter(), (10.5, 10.5), 2, inclusion=CENTRE)
    assert len(result.squares) == 13
    assert Square(12, 10) in result.squares and Square(12, 11) not in result.squares


@pytest.mark.parametrize("radius", [1, 2, 3])
def test_a_circle_has_the_radius_it_is_given(radius: float) -> None:
    result = circle_template(encounter(), (10.0, 10.0), radius, inclusion=CENTRE)
    assert result.shape.area == pytest.approx(math.pi * radius**2, rel=0.01)


def test_partial_rule_ignores_a_square_merely_touched_on_its_edge() -> None:
    result = square_template(encounter(), (5.0, 5.0), 2, inclusion=Inclusion.PARTIAL)
    assert result.squares == {Square(4, 4), Square(5, 4), Square(4, 5), Square(5, 5)}


def test_cone_covers_quarter_circle_from_a_corner() -> None:
    # A 15-ft (3-square) d20 cone from the corner (10, 10) pointing down-right (45 degrees).
    result = cone_template(encounter(), (10.0, 10.0), 45, 3, inclusion=CENTRE)
    assert Square(10, 10) in result.squares and Square(12, 11) in result.squares
    assert Square(12, 12) not in result.squares  # centre 3.5 squares away
    assert Square(9, 10) not in result.squares  # behind the apex


def test_line_at_an_angle_and_the_tokens_it_touches() -> None:
    ogre = Token("ogre", "Ogre", Side.ENEMY, Square(5, 4), size=2)
    spy = Token("spy", "Spy", Side.PARTY, Square(5, 9))
    result = line_template(encounter(tokens=(ogre, spy)), (0.0, 4.5), 0, 10, inclusion=CENTRE)
    assert result.token_ids() == ("ogre",)
    assert result.affected("ogre").squares == (Square(5, 4), Square(6, 4))
    assert {Square(x, 4) for x in range(10)} <= result.squares


def test_a_teardrop_is_as_long_as_it_is_told_with_a_round_end() -> None:
    shape = teardrop_shape((2.0, 10.0), 0, 9.0, 1.5)
    minx, miny, maxx, maxy = shape.bounds
    assert maxx - minx == pytest.approx(9.0, abs=0.01)
    assert maxy - miny == pytest.approx(3.0, abs=0.01)  # the round end is 2 x 1.5 wide


def test_a_teardrop_shorter_than_its_round_end_is_refused() -> None:
    with pytest.raises(ValueError, match="round of radius"):
        teardrop_shape((2.0, 10.0), 0, 2.0, 1.5)


def test_laying_a_teardrop_spec_counts_by_the_inclusion_given() -> None:
    spec = TemplateSpec("drop", "Drop", TemplateForm.TEARDROP, 9.0, True, False, end_radius=1.5)
    result = lay_template(encounter(), spec, (2.0, 10.0), 0, 99, inclusion=Inclusion.PARTIAL)
    assert Square(10, 9) in result.squares and Square(11, 9) not in result.squares


@pytest.mark.parametrize("spec", STANDARD_TEMPLATES, ids=lambda spec: spec.key)
def test_laying_each_standard_spec_is_the_template_of_its_form(spec: TemplateSpec) -> None:
    state, origin = encounter(), (10.0, 10.0)
    laid = lay_template(state, spec, origin, 30.0, 4, inclusion=CENTRE)
    direct = {
        TemplateForm.CONE: lambda: cone_template(state, origin, 30.0, 4, inclusion=CENTRE),
        TemplateForm.CIRCLE: lambda: circle_template(state, origin, 4, inclusion=CENTRE),
        TemplateForm.SQUARE: lambda: square_template(
            state, origin, 4, direction=30.0, inclusion=CENTRE
        ),
        TemplateForm.LINE: lambda: line_template(state, origin, 30.0, 4, inclusion=CENTRE),
    }[spec.form]()
    assert laid.squares == direct.squares and laid.squares


def test_a_circle_clipped_to_walls_does_not_pass_through_them() -> None:
    battlemap = BattleMap(20, 20, walls=(Wall((11, 0), (11, 20)),))
    result = circle_template(
        encounter(battlemap), (10.0, 10.0), 3, inclusion=Inclusion.PARTIAL, clip_to_walls=True
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
