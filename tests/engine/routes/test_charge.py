"""Charge: the closest-space clear-path rule clause by clause, and the run-up Charge, each with
the numbers a system hands over (here the d20 and Cities Without Number ones)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.grid import Square
from engine.routes import MovementGraph, RouteError
from engine.routes.charge import RunUpCharge, charge, charge_options
from engine.rules.cities_without_number.combat_rules import CHARGE as RUN_UP
from engine.rules.d20_firearms.combat_rules import CHARGE as CLOSEST
from engine.tokens import Side
from tests.engine.routes.helpers import encounter, token

HERO = token("hero", Side.PARTY, 0, 5)
THUG = token("thug", Side.ENEMY, 6, 5)


def d20(*extra, **kwargs) -> MovementGraph:  # type: ignore[no-untyped-def]
    return MovementGraph(
        encounter(tokens=[HERO, THUG, *extra], system="d20-firearms", **kwargs), difficult_cost=2
    )


def test_d20_charge_moves_straight_to_the_closest_attack_square() -> None:
    option = charge(d20(), "hero", "thug", rule=CLOSEST, reach=1)
    assert option.allowed
    assert option.route is not None
    assert option.route.squares == tuple(Square(x, 5) for x in range(6))
    assert option.route.cost.text == "25 ft"
    assert (option.attack_bonus, option.defence_penalty) == (2, -2)


CORRIDOR = [((0, 5), (20, 5)), ((0, 6), (20, 6))]


def test_d20_charge_is_forbidden_when_the_line_holds_an_ally() -> None:
    option = charge(
        d20(token("friend", Side.ALLY, 3, 5), walls=CORRIDOR), "hero", "thug", rule=CLOSEST, reach=1
    )
    assert not option.allowed
    assert option.reasons == (
        "toward (5,5): square (3,5) on the straight line holds an ally (Friend)",)


# The clear path is about *any* line from the starting space to the ending space: the
# corner-to-corner lines sweep the charger's square along the move. The thug stands at (6,5);
# (5,4), (5,5) and (5,6) are equally close attack squares (25 ft each), and the lines to the
# two diagonal ones sweep through the row's squares too, (5,5) included.
IN_FRONT = [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


@pytest.mark.parametrize("square", IN_FRONT)
def test_d20_charge_is_refused_with_an_ally_on_any_line_to_every_closest_square(
    square: tuple[int, int],
) -> None:
    option = charge(d20(token("friend", Side.ALLY, *square)), "hero", "thug", rule=CLOSEST, reach=1)
    assert not option.allowed
    assert any("Friend" in r for r in option.reasons)


@pytest.mark.parametrize("square", IN_FRONT)
def test_d20_charge_is_refused_with_difficult_terrain_on_any_line(
    square: tuple[int, int],
) -> None:
    option = charge(d20(difficult=[square]), "hero", "thug", rule=CLOSEST, reach=1)
    assert not option.allowed
    assert any("difficult terrain" in r for r in option.reasons)


def test_d20_charge_along_a_row_ignores_what_only_touches_the_row() -> None:
    # Squares beside the row share only an edge with the swept squares: no line enters them.
    beside = [token("a", Side.ALLY, 3, 4), token("b", Side.ALLY, 3, 6)]
    option = charge(d20(*beside, difficult=[(2, 4), (2, 6)]), "hero", "thug", rule=CLOSEST, reach=1)
    assert option.allowed and option.route is not None
    assert option.route.end == Square(5, 5)


def test_d20_charge_on_a_diagonal_counts_the_squares_its_corner_lines_cross() -> None:
    # From (0,0) to the closest square (3,3) beside a thug at (4,4): the centre line only
    # touches the corners of (1,0), but the line from the start's top-right corner to the
    # end's top-right corner runs through it.
    hero, thug = token("hero", Side.PARTY, 0, 0), token("thug", Side.ENEMY, 4, 4)
    crate = MovementGraph(encounter(tokens=[hero, thug], difficult=[(1, 0)],
                                    system="d20-firearms"), difficult_cost=2)
    option = charge(crate, "hero", "thug", rule=CLOSEST, reach=1)
    assert not option.allowed
    assert "toward (3,3): square (1,0) on the straight line is difficult terrain" in option.reasons
    open_field = MovementGraph(encounter(tokens=[hero, thug], difficult=[(2, 0)],
                                         system="d20-firearms"), difficult_cost=2)
    # (2,0) is off every line
    assert charge(open_field, "hero", "thug", rule=CLOSEST, reach=1).allowed


def test_d20_charge_is_refused_by_a_wall_any_line_crosses() -> None:
    # A wall segment beside the diagonal, cutting the swept band but missing the centre line.
    hero, thug = token("hero", Side.PARTY, 0, 0), token("thug", Side.ENEMY, 4, 4)
    walled = MovementGraph(encounter(tokens=[hero, thug], walls=[((2.0, 1.0), (2.0, 1.6))],
                                     system="d20-firearms"), difficult_cost=2)
    option = charge(walled, "hero", "thug", rule=CLOSEST, reach=1)
    assert not option.allowed
    assert any("crosses a wall" in r for r in option.reasons)


def test_the_rule_says_which_creatures_are_helpless() -> None:
    # The rule's own test passes a creature at 0 hit points that carries no condition.
    downed = token("downed", Side.ENEMY, 3, 5, hp=0)
    conditions_only = replace(CLOSEST, passable_creature=None)
    assert not charge(d20(downed), "hero", "thug", rule=conditions_only, reach=1).allowed
    assert charge(d20(downed), "hero", "thug", rule=CLOSEST, reach=1).allowed


def test_d20_charge_ignores_helpless_creatures_on_the_line() -> None:
    sleeper = token("sleeper", Side.ENEMY, 3, 5, conditions=["Helpless"])
    assert charge(d20(sleeper), "hero", "thug", rule=CLOSEST, reach=1).allowed


def test_d20_charge_is_forbidden_through_difficult_terrain() -> None:
    option = charge(d20(difficult=[(2, 5)]), "hero", "thug", rule=CLOSEST, reach=1)
    # Each problem once, naming every space whose line it is on.
    assert option.reasons == (
        "toward (5,5), (5,4) and (5,6): square (2,5) on the straight line is difficult terrain",)


def test_d20_charge_is_forbidden_through_blocking_terrain_or_walls() -> None:
    assert "toward (5,5), (5,4) and (5,6): square (2,5) on the straight line blocks movement" in (
        charge(d20(impassable=[(2, 5)]), "hero", "thug", rule=CLOSEST, reach=1).reasons
    )
    walled = charge(d20(walls=[((3, 5), (3, 6))]), "hero", "thug", rule=CLOSEST, reach=1)
    assert not walled.allowed
    assert any("crosses a wall" in r for r in walled.reasons)


def test_d20_charge_needs_the_closest_attack_square_free() -> None:
    # In a corridor (5,5) is the only closest square next to the thug; a goon stands there.
    option = charge(
        d20(token("goon", Side.ENEMY, 5, 5), walls=CORRIDOR), "hero", "thug", rule=CLOSEST, reach=1
    )
    assert not option.allowed
    assert "the closest square to attack from, (5,5), is occupied by Goon" in option.reasons


def test_d20_charge_range_is_twice_speed_or_speed_in_the_surprise_round() -> None:
    far = MovementGraph(
        encounter(tokens=[HERO, token("thug", Side.ENEMY, 13, 5)], system="d20-firearms"),
        difficult_cost=2,
    )
    # 12 squares = 60 ft = twice Speed
    assert charge(far, "hero", "thug", rule=CLOSEST, reach=1).allowed
    assert not charge(far, "hero", "thug", surprise_round=True, rule=CLOSEST, reach=1).allowed


def test_d20_charge_needs_line_of_sight_at_the_start() -> None:
    option = charge(d20(), "hero", "thug", line_of_sight=lambda a, b: False, rule=CLOSEST, reach=1)
    assert option.reasons == ("no line of sight to Thug at the start of the turn",)


def test_d20_charge_forbids_a_five_foot_step_that_round() -> None:
    option = charge(d20(), "hero", "thug", took_short_step=True, rule=CLOSEST, reach=1)
    assert not option.allowed
    assert option.reasons[0] == "a 5-ft step was taken this round, and a Charge forbids one"


def test_the_forbidden_short_step_is_named_in_the_system_words() -> None:
    rule = replace(CLOSEST, short_step="shuffle")
    option = charge(d20(), "hero", "thug", took_short_step=True, rule=rule, reach=1)
    assert option.reasons[0] == "a shuffle was taken this round, and a Charge forbids one"


def test_d20_charge_must_move_before_the_attack() -> None:
    movement = MovementGraph(
        encounter(tokens=[HERO, token("thug", Side.ENEMY, 1, 5)], system="d20-firearms"),
        difficult_cost=2,
    )
    option = charge(movement, "hero", "thug", rule=CLOSEST, reach=1)
    assert "must move before the attack" in option.reasons[0]


def test_charge_options_lists_every_opponent_with_path_or_reason() -> None:
    movement = d20(
        token("friend", Side.ALLY, 0, 7),
        token("pal", Side.ALLY, 1, 7),
        token("far", Side.ENEMY, 19, 19),
        token("near", Side.ENEMY, 0, 9),
    )
    report = charge_options(movement, "hero", rule=CLOSEST, reach=1)
    assert {o.target_id for o in report.allowed} == {"thug"}
    assert {o.target_id for o in report.refused} == {"far", "near"}
    assert set(report.option("near").reasons) == {
        "toward (0,8) and (1,8): square (0,7) on the straight line holds an ally (Friend)",
        "toward (1,8): square (1,7) on the straight line holds an ally (Pal)",
    }
    assert "more than twice Speed" in report.option("far").reasons[0]
    with pytest.raises(KeyError):
        report.option("friend")


def test_cwn_charge_runs_straight_at_most_twice_the_move() -> None:
    hero = token("hero", Side.PARTY, 0, 0, speed=10.0)
    corridor = encounter(
        width=20,
        height=1,
        system="cities-without-number",
        tokens=[hero, token("thug", Side.ENEMY, 8, 0)],
    )
    option = charge(MovementGraph(corridor, difficult_cost=2), "hero", "thug", rule=RUN_UP, reach=1)
    assert option.allowed and option.route is not None
    assert option.route.end == Square(7, 0)
    assert option.route.cost.text == "10.5 m"
    assert option.penalty_lasts == "until the end of the round"


def test_cwn_charge_needs_at_least_three_metres() -> None:
    hero = token("hero", Side.PARTY, 0, 0, speed=10.0)
    corridor = encounter(
        width=20,
        height=1,
        system="cities-without-number",
        tokens=[hero, token("thug", Side.ENEMY, 2, 0)],
    )
    option = charge(MovementGraph(corridor, difficult_cost=2), "hero", "thug", rule=RUN_UP, reach=1)
    assert not option.allowed
    assert "at least 3 m" in option.reasons[0]


def test_cwn_charge_may_cross_allies_but_not_opponents() -> None:
    hero = token("hero", Side.PARTY, 0, 0, speed=10.0)
    tokens = [hero, token("thug", Side.ENEMY, 8, 0), token("friend", Side.ALLY, 3, 0)]
    state = encounter(width=20, height=1, system="cities-without-number", tokens=tokens)
    assert charge(MovementGraph(
        state, difficult_cost=2
    ), "hero", "thug", rule=RUN_UP, reach=1).allowed
    tokens[2] = token("friend", Side.ENEMY, 3, 0)
    state = encounter(width=20, height=1, system="cities-without-number", tokens=tokens)
    refused = charge(MovementGraph(state, difficult_cost=2), "hero", "thug", rule=RUN_UP, reach=1)
    assert ("toward (7,0) and (9,0): square (3,0) on the straight line holds an opponent "
            "(Friend)") in refused.reasons


def test_a_run_up_in_tabletop_inches_counts_each_inch_as_two_yards() -> None:
    # The length units are engine.grid's: 1 in = 2 yd = 1.83 m, more than one 1.5 m square.
    hero = token("hero", Side.PARTY, 0, 0, speed=10.0)
    corridor = encounter(
        width=20, height=1, system="cities-without-number",
        tokens=[hero, token("thug", Side.ENEMY, 2, 0)],
    )
    movement = MovementGraph(corridor, difficult_cost=2)
    metres = RunUpCharge(1.5, "m", 2, 2, -2, "")
    inch = RunUpCharge(1.0, "in", 2, 2, -2, "")
    assert charge(movement, "hero", "thug", rule=metres, reach=1).allowed
    refused = charge(movement, "hero", "thug", rule=inch, reach=1)
    assert not refused.allowed
    assert "a run of at least 1 in (3 m)" in refused.reasons[0]


def test_a_run_up_in_an_unknown_unit_is_an_error() -> None:
    hero = token("hero", Side.PARTY, 0, 0, speed=10.0)
    corridor = encounter(width=20, height=1, tokens=[hero, token("thug", Side.ENEMY, 8, 0)])
    odd = RunUpCharge(3.0, "cubits", 2, 2, -2, "")
    with pytest.raises(RouteError, match="cubits"):
        charge(MovementGraph(corridor, difficult_cost=2), "hero", "thug", rule=odd, reach=1)


def test_the_rules_numbers_come_from_the_rule_handed_over() -> None:
    option = charge(d20(), "hero", "thug", rule=CLOSEST, reach=1)
    assert option.penalty_lasts == "until the charger's next turn"
    three_times = charge(
        d20(), "hero", "thug", rule=RunUpCharge(3.0, "m", 3, 1, -1, "x"), reach=1
    )
    assert (three_times.attack_bonus, three_times.defence_penalty) == (1, -1)


def test_reach_is_the_one_handed_over_not_a_stat_the_route_reads() -> None:
    # The token's own stats say nothing to the shared route code: the system hands reach over.
    long_arm = replace(HERO, stats={"reach": 3})
    movement = MovementGraph(
        encounter(tokens=[long_arm, THUG], system="d20-firearms"),
        difficult_cost=2,
    )
    near = charge(movement, "hero", "thug", rule=CLOSEST, reach=1)
    far = charge(movement, "hero", "thug", rule=CLOSEST, reach=2)
    assert near.route is not None and near.route.end == Square(5, 5)
    assert far.route is not None and far.route.end == Square(4, 5)
    with pytest.raises(RouteError, match="reach of 0"):
        charge(movement, "hero", "thug", rule=CLOSEST, reach=0)


def test_a_refused_charge_keeps_each_line_it_tried_with_why() -> None:
    """A GM read "square (2,5) ... blocks movement" with no word of which line it was on:
    each space's line is kept, refused, with its problems, for the preview to draw."""
    option = charge(d20(impassable=[(2, 5)]), "hero", "thug", rule=CLOSEST, reach=1)
    ends = [route.squares[-1] for route, _why in option.tried]
    assert [str(end) for end in ends] == ["(5,5)", "(5,4)", "(5,6)"]
    for route, why in option.tried:
        blocked = "square (2,5) on the straight line blocks movement"
        assert why == f"toward {route.squares[-1]}: {blocked}"
