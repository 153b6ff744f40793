"""Grapple: starting one, the checks inside, the benefits, multiple grapplers."""

import pytest

from engine.rules.base import BadOptions
from engine.tokens import Side
from tests.engine.rules.spycraft.builders import SMG, agent, cmd, started


def has(fight, token_id: str, condition: str) -> bool:  # type: ignore[no-untyped-def]
    return bool(fight.state.token(token_id).has_condition(condition))


def grappled():  # type: ignore[no-untyped-def]
    fight = started(
        agent("kevin", 4, 4, athletics=4, str=2),
        agent("rico", 4, 5, athletics=2),
        agent("guard", 5, 4, Side.ENEMY, athletics=1),
        rolls=[20, 15, 1],
    )
    fight.apply(cmd("grapple", "kevin", targets=["guard"]), [12, 5])
    return fight


def test_grapple_win_holds_the_foe_and_leaves_the_grappler_vulnerable() -> None:
    fight = grappled()
    assert has(fight, "guard", "held") and has(fight, "kevin", "vulnerable")


def test_grapple_loss_leaves_the_grappler_flat_footed() -> None:
    fight = started(agent("kevin", 4, 4), agent("guard", 5, 4, Side.ENEMY), rolls=[20, 1])
    fight.apply(cmd("grapple", "kevin", targets=["guard"]), [3, 15])
    assert has(fight, "kevin", "flat-footed") and not has(fight, "guard", "held")


def test_grapple_needs_a_free_hand_or_a_one_handed_weapon() -> None:
    from dataclasses import replace

    rifle = replace(SMG, two_handed=True)
    fight = started(
        agent("kevin", 4, 4, weapons=(rifle,)), agent("guard", 5, 4, Side.ENEMY), rolls=[20, 1]
    )
    refused = fight.preview(cmd("grapple", "kevin", targets=["guard"]))
    assert "one-handed weapon" in refused.reasons[0]


def test_inside_a_grapple_only_grapple_checks() -> None:
    fight = grappled()
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    assert fight.state.combat.active == "guard"
    refused = fight.preview(cmd("standard_move", "guard", squares=[(6, 4)]))
    assert "only Grapple checks" in refused.reasons[0]


def test_grapple_check_benefits_pin_then_injure() -> None:
    fight = grappled()
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))  # round 2, Kevin
    fight.apply(cmd("grapple_check", "kevin", targets=["guard"], benefit="pin"), [15, 2])
    assert has(fight, "guard", "pinned")
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))  # round 3
    fight.apply(cmd("grapple_check", "kevin", targets=["guard"], benefit="injure"), [15, 2, 2])
    assert fight.state.token("guard").stats["vitality"] == 20 - (2 + 2)  # 1d4 2 + Str 2


def test_the_held_foe_escapes_by_winning() -> None:
    fight = grappled()
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("grapple_check", "guard", targets=["kevin"]), [19, 1])
    assert not has(fight, "guard", "held")
    assert not has(fight, "kevin", "vulnerable")


def test_throw_moves_the_foe_and_sprawls_him() -> None:
    fight = grappled()
    for _ in range(3):
        fight.apply(cmd("end_turn"))
    fight.apply(
        cmd("grapple_check", "kevin", targets=["guard"], benefit="throw", squares=[(6, 4)]),
        [15, 2, 1],
    )
    guard = fight.state.token("guard")
    assert guard.square == (6, 4) and guard.has_condition("sprawled")
    assert not guard.has_condition("held")


def test_a_second_grappler_joins_and_adds_to_the_check() -> None:
    fight = grappled()
    fight.apply(cmd("end_turn"))
    fight.apply(cmd("grapple", "rico", targets=["guard"], join=True))
    assert has(fight, "rico", "vulnerable")
    fight.apply(cmd("end_turn"))
    # The guard's check against the team: best Athletics (+4) and +2 for one helper.
    fight.apply(cmd("grapple_check", "guard", targets=["kevin"]), [10, 6])  # 11 vs 12
    assert has(fight, "guard", "held")


def test_unknown_benefit_is_named() -> None:
    fight = grappled()
    for _ in range(3):
        fight.apply(cmd("end_turn"))
    with pytest.raises(BadOptions, match=r"option 'benefit' must be one of 'break_pin'.*'hug'"):
        fight.preview(cmd("grapple_check", "kevin", targets=["guard"], benefit="hug"))
