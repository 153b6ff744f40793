"""Every Cities Without Number action handler, registered on import, and its cost."""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules.base import Command
from engine.rules.cities_without_number import attack_actions, defence_actions, item_actions
from engine.rules.cities_without_number.catalogue import action_type
from engine.rules.cities_without_number.economy import ActionType
from engine.rules.cities_without_number.handlers import HANDLERS

__all__ = ["HANDLERS", "attack_actions", "cost_of", "defence_actions",
           "item_actions"]


def cost_of(state: EncounterState, command: Command) -> ActionType:
    """The command's action type: its handler's cost (a Reload varies with the weapon),
    else the catalogue's."""
    cost = HANDLERS[command.action].cost(state, command)
    return cost if isinstance(cost, ActionType) else action_type(command.action)
