"""Spycraft's own numbers for the routes it asks: Run multiples and Bull Rush distances."""

import pytest

from engine.rules.spycraft.movement_actions import bull_rush_distance, run_multiplier
from engine.tokens import Side
from tests.engine.rules.spycraft.builders import agent, cmd, started


def test_a_run_is_four_times_speed_three_in_full_armour() -> None:
    assert run_multiplier(agent("kevin", 0, 0)) == 4
    assert run_multiplier(agent("kevin", 0, 0, armor="full")) == 3
    assert run_multiplier(agent("kevin", 0, 0, full_armor=True)) == 3  # was 4: never read


@pytest.mark.parametrize(
    ("margin", "critical", "bigger", "squares"),
    [(0, False, 0, 1), (9, False, 0, 3), (5, True, 0, 4), (0, False, 1, 2), (4, False, -2, 2)],
)
def test_bull_rush_pushes_one_plus_one_per_four_or_two_plus_one_per_two_on_a_critical(
    margin: int, critical: bool, bigger: int, squares: int
) -> None:
    assert bull_rush_distance(margin, critical, bigger) == squares


@pytest.mark.parametrize(("size", "legal"), [("large", True), ("huge", False)])
def test_bull_rush_only_against_opponents_at_most_one_size_bigger(size: str, legal: bool) -> None:
    fight = started(
        agent("kevin", 1, 4), agent("guard", 3, 4, Side.ENEMY, size_category=size), rolls=[20, 1]
    )
    preview = fight.preview(cmd("bull_rush", "kevin", targets=["guard"]))
    assert preview.legal is legal
    if not legal:
        assert "more than one Size category bigger than Kevin" in preview.reasons[0]
