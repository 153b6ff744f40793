"""When a condition ends, in words a GM reads ("until Kestrel's next turn, round 3").

The turn engine drops a condition at a point of a round (see :mod:`engine.turns.order`):
the start or end of someone's turn once that round has come, or the end of a round. A
condition given before the fight carries round 0; it still ends at the named turn in round
1, so the words name the round in which the turn engine will really drop it.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.tokens import Condition, ExpiryPoint, Token
from engine.turns.combat import Phase


def ending_round(state: EncounterState, token: Token, condition: Condition) -> int | None:
    """The round in which the condition will be dropped (None: it lasts until removed)."""
    expiry = condition.expires
    if expiry is None:
        return None
    combat = state.combat
    now = combat.round if combat.phase in (Phase.ROUND, Phase.SURPRISE) else 0
    earliest = max(expiry.round, 1)
    if expiry.point is ExpiryPoint.END_OF_ROUND or now < earliest:
        return max(earliest, now)
    whose = expiry.token_id or token.id
    if not combat.has(whose):
        return now
    mine = combat.combatant(whose)
    started = mine.acted or combat.active == whose
    if expiry.point is ExpiryPoint.START_OF_TURN:
        return now + 1 if started else now
    return now + 1 if mine.acted else now


def ending_words(state: EncounterState, token: Token, condition: Condition) -> str:
    """"until Kestrel's next turn, round 3"; "" when the condition lasts until removed."""
    expiry = condition.expires
    ends = ending_round(state, token, condition)
    if expiry is None or ends is None:
        return ""
    if expiry.point is ExpiryPoint.END_OF_ROUND:
        return f"until the end of round {ends}"
    whose_id = expiry.token_id or token.id
    whose = next((t.name for t in state.tokens if t.id == whose_id), whose_id)
    if expiry.point is ExpiryPoint.START_OF_TURN:
        return f"until {whose}'s next turn, round {ends}"
    return f"until the end of {whose}'s turn, round {ends}"
