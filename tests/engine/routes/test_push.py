"""A Bull Rush, clause by clause: the approach within a budget, the push the check allows."""

from __future__ import annotations

from engine.grid import Square
from engine.routes import MovementGraph
from engine.routes.push import BullRushCheck, EventKind, bull_rush, bull_rush_approach
from engine.tokens import Side
from tests.engine.routes.helpers import FixedDice, encounter, token

BRUTE = token("brute", Side.PARTY, 0, 5)
SPEED = 6  # squares: 30 ft


def rush(*extra, target=None, **kwargs):  # type: ignore[no-untyped-def]
    target = target or token("thug", Side.ENEMY, 4, 5)
    return MovementGraph(
        encounter(tokens=[kwargs.pop("pusher", BRUTE), target, *extra], **kwargs), difficult_cost=2
    )


def push(movement, check, dice=None, **kwargs):  # type: ignore[no-untyped-def]
    return bull_rush(
        movement, "brute", "thug", check, dice or FixedDice(), budget=SPEED, **kwargs
    )


def test_bull_rush_approach_is_straight_toward_the_opponent_within_speed() -> None:
    approach = bull_rush_approach(rush(), "brute", "thug", budget=SPEED)
    assert approach.allowed and approach.route is not None
    assert approach.route.squares == tuple(Square(x, 5) for x in range(4))
    assert approach.direction == (1, 0)
    far = bull_rush_approach(
        rush(target=token("thug", Side.ENEMY, 10, 5)), "brute", "thug", budget=SPEED
    )
    assert not far.allowed and "more than Speed (30 ft" in far.reasons[0]


def test_bull_rush_only_against_opponents() -> None:
    pal = token("thug", Side.ALLY, 4, 5)
    refused = bull_rush_approach(rush(target=pal), "brute", "thug", budget=SPEED)
    assert refused.reasons == ("Thug is not an opponent",)


def test_push_goes_as_far_as_the_check_says_and_the_pusher_follows() -> None:
    result = push(rush(), BullRushCheck(True, distance=3))
    assert result.target_path == (Square(4, 5), Square(5, 5), Square(6, 5), Square(7, 5))
    assert result.pushed is not None and result.pushed.text == "15 ft"
    assert result.pusher_end == Square(6, 5)
    assert result.sprawled == ("thug",)


def test_a_push_can_be_a_big_pusher_following_a_big_target() -> None:
    big = token("brute", Side.PARTY, 0, 5, size=2)
    result = push(rush(pusher=big), BullRushCheck(True, 2))
    assert result.target_end == Square(6, 5) and result.pusher_end == Square(4, 5)


def test_a_wall_in_the_way_makes_a_damage_save() -> None:
    movement = rush(walls=[((6, 0), (6, 10))])
    held = push(movement, BullRushCheck(True, 3, athletics=21))
    assert held.target_end == Square(5, 5)
    assert [e.kind for e in held.events] == [EventKind.DAMAGE_SAVE]
    assert "Damage save against 21" in held.events[0].text
    smashed = push(movement, BullRushCheck(True, 3), obstacle_holds=lambda e: False)
    assert smashed.target_end == Square(7, 5) and not smashed.events[0].held


def test_a_character_in_the_way_checks_athletics_and_may_be_sprawled_aside() -> None:
    movement = rush(token("bystander", Side.ALLY, 6, 5))
    stopped = push(movement, BullRushCheck(True, 3))
    assert stopped.target_end == Square(5, 5)
    assert stopped.events[0].kind is EventKind.ATHLETICS_CHECK
    dice = FixedDice(1)
    through = push(movement, BullRushCheck(True, 3), dice, bystander_resists=lambda e: False)
    assert through.target_end == Square(7, 5)
    assert through.displaced[0][0] == "bystander"
    assert through.displaced[0][1].square == Square(6, 4)
    assert set(through.sprawled) == {"thug", "bystander"}


def test_pusher_may_stop_early_and_the_opponent_stops_in_front() -> None:
    result = push(rush(), BullRushCheck(True, 4), stop_after=1)
    assert result.target_end == Square(5, 5) and result.pusher_end == Square(4, 5)


def test_losing_pusher_moves_back_one_square_sprawled() -> None:
    result = push(rush(), BullRushCheck(False, reeling=True))
    assert result.pusher_end == Square(3, 5) and result.target_end == Square(4, 5)
    assert result.sprawled == ("brute",) and result.pusher_reeling
