"""Every Cities Without Number action handler, registered on import, and its cost."""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules.base import Command
from engine.rules.cities_without_number import attack_actions, defence_actions, item_actions
from engine.rules.cities_without_number.catalogue import action_type
from engine.rules.cities_without_number.economy import ActionType
from engine.rules.cities_without_number.handlers import HANDLERS
from engine.rules.cities_without_number.item_actions import reload_cost

__all__ = ["HANDLERS", "attack_actions", "cost_of", "defence_actions",
           "item_actions"]


def cost_of(state: EncounterState, command: Command) -> ActionType:
    if command.action == "reload":
        return reload_cost(state, command)
    return action_type(command.action)
