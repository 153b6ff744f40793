"""The d20 firearms action budget.

The text counts in "attack actions", "movement actions" and "full-round actions", and makes
Full-Auto Fire three attack actions at 1x, 2x and 3x recoil. We model a round as a pool of
interchangeable actions, each spent on an attack or a movement (default 3 a round, set per
encounter). A full-round action needs the whole pool untouched and empties it; free actions
cost nothing. Full-Auto Fire is three attack actions, the n-th at n times the weapon's recoil.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

ACTIONS = "actions"
DEFAULT_ACTIONS_PER_ROUND = 3
#: Combat-wide option naming the pool size (stored in the combat data).
ACTIONS_OPTION = "actions_per_round"


class Cost(StrEnum):
    FREE = "free"
    ONE = "1 action"
    TWO = "2 actions"
    THREE = "3 actions"
    FULL_ROUND = "full round"


COST_ACTIONS = {Cost.FREE: 0, Cost.ONE: 1, Cost.TWO: 2, Cost.THREE: 3}

#: The Move's option naming how many movement actions of the pool it spends, each up to the
#: speed: one drag (one command, one undo) may walk a double or triple move. Our reading of
#: the pool: moving twice or three times is already allowed Move by Move; at most three, the
#: most a cost names (the d20 double move is a move action and the standard action as one).
MOVES = "moves"
MOST_MOVES = 3
MOVE_COSTS = {1: Cost.ONE, 2: Cost.TWO, 3: Cost.THREE}


def fresh_budget(actions_per_round: int = DEFAULT_ACTIONS_PER_ROUND) -> dict[str, int]:
    if actions_per_round < 1:
        raise ValueError(f"a round holds at least 1 action, not {actions_per_round}")
    return {ACTIONS: actions_per_round}


def actions_needed(cost: Cost, pool: int) -> int:
    return pool if cost is Cost.FULL_ROUND else COST_ACTIONS[cost]


def refusal(budget: Mapping[str, int], cost: Cost, pool: int) -> str | None:
    left = budget.get(ACTIONS, 0)
    if cost is Cost.FULL_ROUND:
        return None if left == pool else "a full-round action needs the whole round unspent"
    needed = COST_ACTIONS[cost]
    if needed > left:
        return f"needs {needed} action{'s' * (needed != 1)}, {left} left"
    return None


def disabled_refusal(budget: Mapping[str, int], cost: Cost, pool: int) -> str | None:
    """A Disabled character takes a single attack or movement action a turn and no
    full-round action; free actions stay free."""
    if cost is Cost.FREE:
        return None
    if cost is not Cost.ONE:
        return f"Disabled: a single attack or movement action a turn, not {cost}"
    if budget.get(ACTIONS, 0) < pool:
        return "Disabled: the single action of this turn is taken"
    return None


def spend(budget: Mapping[str, int], cost: Cost, pool: int) -> dict[str, int]:
    reason = refusal(budget, cost, pool)
    if reason:
        raise ValueError(reason)
    return {ACTIONS: budget.get(ACTIONS, 0) - actions_needed(cost, pool)}


# --- Full-Auto Fire ---------------------------------------------------------------------------

FULL_AUTO_ACTIONS = 3


@dataclass(frozen=True, slots=True)
class AttackStep:
    """One attack action of a multi-action attack, with its recoil penalty."""

    index: int
    recoil_multiplier: int
    recoil_penalty: int


def full_auto_steps(weapon_recoil: int, cover_reduction: int = 0) -> tuple[AttackStep, ...]:
    """Full-Auto Fire: three attack actions at 1x, 2x and 3x the weapon's recoil.

    ``cover_reduction`` (firing braced on cover) comes off each step's total recoil
    penalty, never turning it into a bonus.
    """
    if weapon_recoil < 0:
        raise ValueError(f"recoil is a size of penalty, 0 or more, not {weapon_recoil}")
    steps = []
    for n in range(1, FULL_AUTO_ACTIONS + 1):
        penalty = max(0, n * weapon_recoil - cover_reduction)
        steps.append(AttackStep(n, n, -penalty))
    return tuple(steps)
