"""Every Savage Worlds action handler, registered on import (see ``handlers``)."""

from engine.rules.savage_worlds import (
    area_actions,
    attack_actions,
    healing_actions,
    maneuver_actions,
    movement_actions,
    reroll_actions,
    soak_actions,
)
from engine.rules.savage_worlds.handlers import HANDLERS

__all__ = [
    "HANDLERS", "area_actions", "attack_actions", "healing_actions", "maneuver_actions",
    "movement_actions", "reroll_actions", "soak_actions",
]
