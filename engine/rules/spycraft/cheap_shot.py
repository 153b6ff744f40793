"""Cheap Shot's lasting effect and the Fortitude save DC that ends it (the Shake Off
action is in ``attack_actions``).

A landed Cheap Shot leaves the ``cheap shot`` condition (source = the attribute or
"speed"): -2 on attack checks whose key attribute it names (Strength for melee,
Dexterity for ranged attacks) and on skill checks keyed to it (``board.skill``), or
-10 ft Speed. It lasts the scene (this fight) or until
the victim makes a Fortitude save, DC 20 minus 2 per minute since it landed, tried at
most once a minute (the Shake Off action, free). A minute is 10 rounds (the d20 six
seconds a round; our texts do not say). Only one successful Cheap Shot per scene: a
shaken-off one still counts.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules.base import Event, Modifier
from engine.rules.spycraft import board
from engine.tokens import Token

ROUNDS_PER_MINUTE = 10
BASE_DC = 20
DC_DROP_PER_MINUTE = 2
ATTRIBUTE_PENALTY = -2
SPEED_PENALTY_FT = -10
#: The attribute that is key for an attack check.
ATTACK_KEY = {True: "str", False: "dex"}


def attack_penalty(attacker: Token, melee: bool) -> Modifier | None:
    """-2 when the Cheap Shot named the key attribute of this attack."""
    key = ATTACK_KEY[melee]
    for cheap in board.conditions_named(attacker, board.CHEAP_SHOT):
        if cheap.source == key:
            return Modifier(f"cheap shot ({key})", cheap.value)
    return None


def land(state: EncounterState, target_id: str, on: str) -> tuple[EncounterState, Event]:
    """The Cheap Shot hits: the condition, and the round it landed (for the save's DC)."""
    value = SPEED_PENALTY_FT if on == "speed" else ATTRIBUTE_PENALTY
    state, event = board.add_condition(state, target_id, board.CHEAP_SHOT, source=on, value=value)
    if state.combat.has(target_id):
        state = board.set_data(state, target_id, cheap_shot_round=state.combat.round)
    return state, event


def suffered_this_scene(state: EncounterState, token: Token) -> bool:
    if token.has_condition(board.CHEAP_SHOT):
        return True
    return (
        state.combat.has(token.id) and "cheap_shot_round" in state.combat.combatant(token.id).data
    )


def save_dc(state: EncounterState, token_id: str) -> int:
    mine = state.combat.combatant(token_id)
    landed = int(mine.get("cheap_shot_round", state.combat.round))
    minutes = max(0, state.combat.round - landed) // ROUNDS_PER_MINUTE
    return BASE_DC - DC_DROP_PER_MINUTE * minutes


