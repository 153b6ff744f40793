"""Spycraft Bull Rush and Savage Worlds Push, clause by clause."""

from __future__ import annotations

from engine.grid import Square
from engine.routes import MovementGraph
from engine.routes.push import (
    BullRushCheck,
    EventKind,
    bull_rush,
    bull_rush_approach,
    savage_push,
)
from engine.tokens import Side
from tests.engine.routes.helpers import FixedDice, encounter, token

BRUTE = token("brute", Side.PARTY, 0, 5)


def rush(*extra, target=None, **kwargs):  # type: ignore[no-untyped-def]
    target = target or token("thug", Side.ENEMY, 4, 5)
    return MovementGraph(encounter(tokens=[kwargs.pop("pusher", BRUTE), target, *extra], **kwargs))


def test_bull_rush_approach_is_straight_toward_the_opponent_within_speed() -> None:
    approach = bull_rush_approach(rush(), "brute", "thug")
    assert approach.allowed and approach.route is not None
    assert approach.route.squares == tuple(Square(x, 5) for x in range(4))
    assert approach.direction == (1, 0)
    far = bull_rush_approach(rush(target=token("thug", Side.ENEMY, 10, 5)), "brute", "thug")
    assert not far.allowed and "more than Speed (30 ft" in far.reasons[0]


def test_bull_rush_only_against_opponents_at_most_one_size_bigger() -> None:
    large = token("thug", Side.ENEMY, 4, 5, size_category="large")
    assert bull_rush_approach(rush(target=large), "brute", "thug").allowed
    huge = token("thug", Side.ENEMY, 4, 5, size_category="huge")
    refused = bull_rush_approach(rush(target=huge), "brute", "thug")
    assert refused.reasons == ("Thug is more than one Size category bigger than Brute",)


def test_push_is_one_square_plus_one_per_four_points_and_pusher_follows() -> None:
    result = bull_rush(rush(), "brute", "thug", BullRushCheck(True, margin=9), FixedDice())
    assert result.target_path == (Square(4, 5), Square(5, 5), Square(6, 5), Square(7, 5))
    assert result.pushed is not None and result.pushed.text == "15 ft"
    assert result.pusher_end == Square(6, 5)
    assert result.sprawled == ("thug",)


def test_critical_success_pushes_two_plus_one_per_two_points() -> None:
    result = bull_rush(rush(), "brute", "thug", BullRushCheck(True, 5, critical=True), FixedDice())
    assert result.target_end == Square(8, 5)  # 2 + 5 // 2 = 4 squares


def test_each_size_category_bigger_pushes_one_more_square() -> None:
    big = token("brute", Side.PARTY, 0, 5, size_category="large")
    result = bull_rush(rush(pusher=big), "brute", "thug", BullRushCheck(True, 0), FixedDice())
    assert result.target_end == Square(6, 5)


def test_a_wall_in_the_way_makes_a_damage_save() -> None:
    movement = rush(walls=[((6, 0), (6, 10))])
    held = bull_rush(movement, "brute", "thug", BullRushCheck(True, 8, athletics=21), FixedDice())
    assert held.target_end == Square(5, 5)
    assert [e.kind for e in held.events] == [EventKind.DAMAGE_SAVE]
    assert "Damage save against 21" in held.events[0].text
    smashed = bull_rush(
        movement,
        "brute",
        "thug",
        BullRushCheck(True, 8),
        FixedDice(),
        obstacle_holds=lambda e: False,
    )
    assert smashed.target_end == Square(7, 5) and not smashed.events[0].held


def test_a_character_in_the_way_checks_athletics_and_may_be_sprawled_aside() -> None:
    movement = rush(token("bystander", Side.ALLY, 6, 5))
    stopped = bull_rush(movement, "brute", "thug", BullRushCheck(True, 8), FixedDice())
    assert stopped.target_end == Square(5, 5)
    assert stopped.events[0].kind is EventKind.ATHLETICS_CHECK
    dice = FixedDice(1)
    through = bull_rush(
        movement, "brute", "thug", BullRushCheck(True, 8), dice, bystander_resists=lambda e: False
    )
    assert through.target_end == Square(7, 5)
    assert through.displaced[0][0] == "bystander"
    assert through.displaced[0][1].square == Square(6, 4)
    assert set(through.sprawled) == {"thug", "bystander"}


def test_pusher_may_stop_early_and_the_opponent_stops_in_front() -> None:
    result = bull_rush(rush(), "brute", "thug", BullRushCheck(True, 12), FixedDice(), stop_after=1)
    assert result.target_end == Square(5, 5) and result.pusher_end == Square(4, 5)


def test_losing_pusher_moves_back_one_square_sprawled() -> None:
    result = bull_rush(rush(), "brute", "thug", BullRushCheck(False, -3, reeling=True), FixedDice())
    assert result.pusher_end == Square(3, 5) and result.target_end == Square(4, 5)
    assert result.sprawled == ("brute",) and result.pusher_reeling


def savage(*tokens, **kwargs):  # type: ignore[no-untyped-def]
    return MovementGraph(encounter(system="savage-worlds", tokens=tokens, **kwargs))


SHOVER = token("shover", Side.PARTY, 4, 5, speed=6.0)
FOE = token("foe", Side.ENEMY, 5, 5, speed=6.0)


def test_savage_push_is_one_inch_two_on_a_raise() -> None:
    push = savage_push(savage(SHOVER, FOE), "shover", "foe")
    assert push.target_end == Square(6, 5) and push.pushed is not None
    assert push.pushed.text == '1" (2 yd)' and push.prone_check_modifier == 0
    raised = savage_push(savage(SHOVER, FOE), "shover", "foe", raise_=True)
    assert raised.target_end == Square(7, 5) and raised.prone_check_modifier == -2


def test_savage_push_doubles_when_the_pushers_scale_is_larger() -> None:
    giant = token("shover", Side.PARTY, 4, 5, speed=6.0, scale=1, sw_size=4)
    assert savage_push(savage(giant, FOE), "shover", "foe", raise_=True).target_end == Square(9, 5)


def test_savage_push_gains_two_after_running_two_inches() -> None:
    assert savage_push(savage(SHOVER, FOE), "shover", "foe", ran_inches=2).roll_bonus == 2
    assert savage_push(savage(SHOVER, FOE), "shover", "foe", ran_inches=1.5).roll_bonus == 0


def test_savage_push_stops_at_walls() -> None:
    push = savage_push(savage(SHOVER, FOE, walls=[((6, 0), (6, 10))]), "shover", "foe", raise_=True)
    assert push.target_end == Square(5, 5)
    assert push.stopped_by == "the wall or door between (5,5) and (6,5)"


def test_savage_push_needs_contact_and_a_foe_at_most_two_sizes_larger() -> None:
    distant = token("foe", Side.ENEMY, 8, 5)
    assert "must stand next to" in savage_push(savage(SHOVER, distant), "shover", "foe").reasons[0]
    huge = token("foe", Side.ENEMY, 5, 5, sw_size=3)
    assert not savage_push(savage(SHOVER, huge), "shover", "foe").allowed
    assert savage_push(savage(SHOVER, huge), "shover", "foe", gm_allows_bigger=True).allowed
