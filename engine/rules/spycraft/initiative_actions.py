"""Spycraft initiative actions: Delay, Press, Ready, Joint Action, Aim, Brace, Regroup..."""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Event, EventKind
from engine.rules.spycraft import model


def finish_refresh(
    state: EncounterState, token_id: str, dice: Dice
) -> tuple[EncounterState, list[Event]]:
    """At the start of his next Initiative Count, an undisturbed Refresh heals."""
    token = state.token(token_id)
    if not token.has_condition(model.REFRESHING):
        return state, []
    state = model.remove_condition(state, token_id, model.REFRESHING)
    mine = state.combat.combatant(token_id)
    if mine.get("refresh_spoiled", False):
        state = model.set_data(state, token_id, refresh_spoiled=False)
        return state, [
            Event(EventKind.NOTE, f"{token.name} was attacked: no Refresh healing.", (token_id,))
        ]
    roll = dice.roll(str(token.stat("action_die", "1d4")), f"{token.name} Refresh (Action Die)")
    if token.stat("special", True) is True:
        vitality = model.stat_int(token, "vitality") + roll.total
        state = state.with_token(model.with_stats(token, vitality=vitality))
        text = f"{token.name} Refreshes: +{roll.total} vitality (now {vitality})."
    else:
        damage = max(0, model.stat_int(token, "damage") - roll.total)
        state = state.with_token(model.with_stats(token, damage=damage))
        text = f"{token.name} Refreshes: damage down by {roll.total} (now {damage})."

    return state, [Event(EventKind.NOTE, text, (token_id,), roll)]
