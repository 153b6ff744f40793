"""Every d20 firearms action handler, registered on import, and what each one costs."""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.rules.base import Command
from engine.rules.d20_firearms import (
    aid_actions,
    attack_actions,
    blind_fire_actions,
    fire_support_actions,
    movement_actions,
    perception_actions,
    take_cover_actions,
)
from engine.rules.d20_firearms.catalogue import action_spec
from engine.rules.d20_firearms.economy import Cost
from engine.rules.d20_firearms.handlers import HANDLERS

__all__ = ["HANDLERS", "aid_actions", "attack_actions", "blind_fire_actions", "cost_of",
           "fire_support_actions", "movement_actions", "perception_actions", "take_cover_actions"]


def cost_of(state: EncounterState, command: Command) -> Cost:
    """What the command spends: its handler's cost (Aim, Blind-Fire, Locate Enemies vary),
    else the catalogue's time."""
    cost = HANDLERS[command.action].cost(state, command)
    return cost if isinstance(cost, Cost) else Cost(action_spec(command.action).time)
