"""Cities Without Number action economy: one Main and one Move action a round.

The Main action may be spent as a second Move. On Turn actions cost nothing but the GM's
patience; Instant actions may be taken at any time, even out of turn, and some of them
(Snap Attack, Total Defense) give up the round's unspent Main action. A Charge takes both
the Main and the Move action.

A budget is a plain ``{"main": n, "move": n}`` mapping so the turn engine can store it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

MAIN = "main"
MOVE = "move"
FRESH_BUDGET: dict[str, int] = {MAIN: 1, MOVE: 1}


class ActionType(StrEnum):
    MAIN = "Main"
    MOVE = "Move"
    ON_TURN = "On Turn"
    INSTANT = "Instant"
    #: Instant, but it gives up the round's Main action (Snap Attack, Total Defense).
    INSTANT_FOR_MAIN = "Instant (gives up the Main action)"
    #: Both the Main and the Move action (Charge).
    MAIN_AND_MOVE = "Main and Move"


#: Action types that may be taken when it is not the actor's turn.
OUT_OF_TURN = frozenset({ActionType.INSTANT, ActionType.INSTANT_FOR_MAIN})


class EconomyError(ValueError):
    pass


def refusal(budget: Mapping[str, int], cost: ActionType, *, own_turn: bool) -> str | None:
    """Why an action of this type cannot be paid for now, or None."""
    if not own_turn and cost not in OUT_OF_TURN:
        return f"a {cost} action can only be taken on your own turn"
    main, move = budget.get(MAIN, 0), budget.get(MOVE, 0)
    if cost in (ActionType.MAIN, ActionType.INSTANT_FOR_MAIN) and main < 1:
        return "the Main action is already spent this round"
    if cost is ActionType.MOVE and main + move < 1:
        return "no Move action left (and no Main action to spend as one)"
    if cost is ActionType.MAIN_AND_MOVE and (main < 1 or move < 1):
        return "this takes both the Main and the Move action"
    return None


def spend(budget: Mapping[str, int], cost: ActionType, *, own_turn: bool = True) -> dict[str, int]:
    """The budget after paying for one action (a Move uses the Main action when need be)."""
    reason = refusal(budget, cost, own_turn=own_turn)
    if reason:
        raise EconomyError(reason)
    left = {MAIN: budget.get(MAIN, 0), MOVE: budget.get(MOVE, 0)}
    if cost in (ActionType.MAIN, ActionType.INSTANT_FOR_MAIN):
        left[MAIN] -= 1
    elif cost is ActionType.MOVE:
        if left[MOVE] > 0:
            left[MOVE] -= 1
        else:
            left[MAIN] -= 1
    elif cost is ActionType.MAIN_AND_MOVE:
        left[MAIN] -= 1
        left[MOVE] -= 1
    return left


def describe(budget: Mapping[str, int]) -> str:
    main, move = budget.get(MAIN, 0), budget.get(MOVE, 0)
    parts = []
    if main:
        parts.append("Main")
    if move:
        parts.append("Move")
    return ", ".join(parts) + " left" if parts else "nothing left but On Turn and Instant actions"
