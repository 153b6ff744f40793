"""What a Spycraft Refresh pays out at the start of the character's next turn.

The Refresh action (in ``initiative_actions``) leaves the ``refreshing`` condition; an
attack before his next turn spoils it, otherwise he spends one Action Die from his pool and
heals by its roll (vitality, or 2 wound points for a character set to heal wounds; damage
for a standard character).
"""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Event, EventKind
from engine.rules.spycraft import action_dice, board


def finish_refresh(
    state: EncounterState, token_id: str, dice: Dice
) -> tuple[EncounterState, list[Event]]:
    """At the start of his next Initiative Count, an undisturbed Refresh heals."""
    token = state.token(token_id)
    if not token.has_condition(board.REFRESHING):
        return state, []
    state = board.remove_condition(state, token_id, board.REFRESHING)
    token = state.token(token_id)
    mine = state.combat.combatant(token_id)
    if mine.get("refresh_spoiled", False):
        state = board.set_data(state, token_id, refresh_spoiled=False)
        return state, [
            Event(EventKind.NOTE, f"{token.name} was attacked: no Refresh healing.", (token_id,))
        ]
    if action_dice.available(state, token) < 1:
        return state, [
            Event(EventKind.NOTE, f"{token.name} has no Action Die left: no Refresh healing.",
                  (token_id,))
        ]
    state = action_dice.spend_from(state, token_id)
    token = state.token(token_id)
    roll = dice.roll(board.STATS.text(token, "action_die"), f"{token.name} Refresh (Action Die)")
    if board.STATS.flag(token, "special"):
        if board.STATS.text(token, "refresh_heals") == "wounds":
            wounds = board.stat_int(token, "wounds") + 2
            state = state.with_token(board.with_stats(token, wounds=wounds))
            text = f"{token.name} Refreshes: +2 wound points (now {wounds})."
        else:
            vitality = board.stat_int(token, "vitality") + roll.total
            state = state.with_token(board.with_stats(token, vitality=vitality))
            text = f"{token.name} Refreshes: +{roll.total} vitality (now {vitality})."
    else:
        damage = max(0, board.stat_int(token, "damage") - roll.total)
        state = state.with_token(board.with_stats(token, damage=damage))
        text = f"{token.name} Refreshes: damage down by {roll.total} (now {damage})."
    return state, [Event(EventKind.NOTE, text, (token_id,), roll)]
