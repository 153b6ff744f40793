"""Turn order as plain functions over the encounter state (boardgame.io's turn-order idea).

Combatants act from the highest initiative down, ``tiebreak`` ordering equal counts; a
round ends when everybody in the order has acted. Condition expiry lives here too, since
it is driven by the same moments (start or end of a turn, end of a round).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.events import Event, EventKind
from engine.tokens import Condition, ExpiryPoint, Token
from engine.turns.combat import Combatant, CombatState

if TYPE_CHECKING:
    from engine.encounter import EncounterState


def sort(
    combatants: Iterable[Combatant],
    acts_at: Callable[[Combatant], float] = lambda c: c.initiative,
) -> tuple[Combatant, ...]:
    """Acting order: highest count first, then highest tiebreak, then token id.

    ``acts_at`` gives the count a combatant acts on this round (its initiative unless
    the system says otherwise, e.g. tokens acting together on a leader's count).
    """
    return tuple(
        sorted(combatants, key=lambda c: (-acts_at(c), tuple(-t for t in c.tiebreak), c.token_id))
    )


def next_to_act(combat: CombatState) -> str | None:
    """The first combatant in order who has not acted this round (None: the round is done)."""
    for combatant in combat.order:
        if not combatant.acted and combatant.token_id != combat.active:
            return combatant.token_id
    return None


def update(state: EncounterState, combatant: Combatant) -> EncounterState:
    """A copy of the state with one combatant replaced (order kept)."""
    order = tuple(combatant if c.token_id == combatant.token_id else c for c in state.combat.order)
    return replace(state, combat=replace(state.combat, order=order))


def set_active(state: EncounterState, token_id: str) -> EncounterState:
    state.combat.combatant(token_id)
    return replace(state, combat=replace(state.combat, active=token_id))


def mark_acted(state: EncounterState, token_id: str) -> EncounterState:
    combatant = state.combat.combatant(token_id)
    state = update(state, replace(combatant, acted=True))
    if state.combat.active == token_id:
        state = replace(state, combat=replace(state.combat, active=None))
    return state


def _expire(
    state: EncounterState, keep: Callable[[Token, Condition], bool]
) -> tuple[EncounterState, tuple[Event, ...]]:
    events: list[Event] = []
    for token in state.tokens:
        kept = tuple(c for c in token.conditions if keep(token, c))
        if len(kept) != len(token.conditions):
            for gone in token.conditions:
                if gone not in kept:
                    events.append(
                        Event(
                            EventKind.CONDITION,
                            f"{token.name} is no longer {gone.name}.",
                            (token.id,),
                        )
                    )
            state = state.with_token(replace(token, conditions=kept))
    return state, tuple(events)


def expire_conditions(
    state: EncounterState, token_id: str, *, start: bool
) -> tuple[EncounterState, tuple[Event, ...]]:
    """Drop conditions that end at the start (or end) of ``token_id``'s turn this round."""
    point = ExpiryPoint.START_OF_TURN if start else ExpiryPoint.END_OF_TURN
    round_number = state.combat.round

    def keep(token: Token, condition: Condition) -> bool:
        expiry = condition.expires
        if expiry is None or expiry.point is not point:
            return True
        whose = expiry.token_id or token.id
        return not (whose == token_id and expiry.round <= round_number)

    return _expire(state, keep)


def expire_round(state: EncounterState, new_round: int) -> tuple[EncounterState, tuple[Event, ...]]:
    """Drop conditions that last until the end of a round now over."""

    def keep(token: Token, condition: Condition) -> bool:
        expiry = condition.expires
        return not (
            expiry is not None
            and expiry.point is ExpiryPoint.END_OF_ROUND
            and expiry.round < new_round
        )

    return _expire(state, keep)
