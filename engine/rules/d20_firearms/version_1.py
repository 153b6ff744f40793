"""What a version-1 d20 firearms file kept as text, turned into the typed state at load.

Such a file named the square an Overwatch watches in the condition's ``source``, as
``"square:x,y"``, where the condition now has a ``square``. :func:`upgrade` is the system's
``upgrade_state``.
"""

from __future__ import annotations

from dataclasses import replace

from engine.encounter import EncounterState
from engine.rules.d20_firearms.board import OVERWATCH
from engine.rules.old_text import square_in
from engine.tokens import Condition, Token

#: How the watched square's source began.
SQUARE_PREFIX = "square:"


def upgrade(state: EncounterState) -> EncounterState:
    """Each Overwatch whose source names a square (and no token) watches that square."""
    ids = {token.id for token in state.tokens}
    tokens = tuple(_upgraded(token, index, ids) for index, token in enumerate(state.tokens))
    if tokens == state.tokens:
        return state
    return replace(state, tokens=tokens)


def _upgraded(token: Token, index: int, ids: set[str]) -> Token:
    conditions = tuple(_watching_a_square(condition, ("tokens", index, "conditions", at), ids)
                       for at, condition in enumerate(token.conditions))
    return token if conditions == token.conditions else replace(token, conditions=conditions)


def _watching_a_square(condition: Condition, place: tuple[str | int, ...],
                       ids: set[str]) -> Condition:
    source = condition.source
    if (condition.name != OVERWATCH or condition.square is not None or source is None
            or not source.startswith(SQUARE_PREFIX) or source in ids):
        return condition
    square = square_in(source.removeprefix(SQUARE_PREFIX), (*place, "source"))
    return replace(condition, source=None, square=square)
