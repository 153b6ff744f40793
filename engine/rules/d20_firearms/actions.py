"""Every d20 firearms action handler, registered on import, and what each one costs."""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules.base import Command
from engine.rules.d20_firearms import (
    attack_actions,
    blind_fire_actions,
    fire_support_actions,
    movement_actions,
    perception_actions,
)
from engine.rules.d20_firearms.blind_fire_actions import blind_cost
from engine.rules.d20_firearms.catalogue import action_spec
from engine.rules.d20_firearms.economy import Cost
from engine.rules.d20_firearms.fire_support_actions import aim_cost
from engine.rules.d20_firearms.handlers import HANDLERS
from engine.rules.d20_firearms.perception_actions import locate_cost

__all__ = ["HANDLERS", "attack_actions", "blind_fire_actions", "cost_of", "fire_support_actions",
           "movement_actions", "perception_actions"]


def cost_of(state: EncounterState, command: Command) -> Cost:
    if command.action == "aim":
        return aim_cost(state, command)
    if command.action == "blind_fire_actions":
        return blind_cost(command)
    if command.action == "locate_enemies":
        return locate_cost(state, command)
    return Cost(action_spec(command.action).time)
