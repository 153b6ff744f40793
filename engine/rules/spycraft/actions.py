"""Every Spycraft action handler, registered on import (see ``handlers``)."""

from engine.rules.spycraft import (
    attack_actions,
    fire_actions,
    grapple_actions,
    initiative_actions,
    item_actions,
    melee_actions,
    movement_actions,
    stand_off_actions,
)
from engine.rules.spycraft.handlers import HANDLERS

__all__ = [
    "HANDLERS",
    "attack_actions",
    "fire_actions",
    "grapple_actions",
    "initiative_actions",
    "item_actions",
    "melee_actions",
    "movement_actions",
    "stand_off_actions",
]
