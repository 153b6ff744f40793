"""Spycraft 2.0 combat, registered as "spycraft"."""

from engine.rules import register_system
from engine.rules.spycraft import (  # noqa: F401  (each module registers its handlers)
    attack_actions,
    cheap_shot,
    fire_actions,
    grapple_actions,
    initiative_actions,
    item_actions,
    melee_actions,
    movement,
    movement_actions,
    stand_off_actions,
)
from engine.rules.spycraft.system import SpycraftSystem

SPYCRAFT = register_system(SpycraftSystem)

__all__ = ["SPYCRAFT", "SpycraftSystem"]
