"""Spycraft 2.0 combat, registered as "spycraft"."""

from engine.rules import register_system
from engine.rules.spycraft import (  # noqa: F401  (each module registers its handlers)
    attacks,
    cheap_shot,
    fire,
    grapple,
    initiative_actions,
    items,
    melee,
    movement,
    movement_actions,
    stand_off_endings,
)
from engine.rules.spycraft.system import SpycraftSystem

SPYCRAFT = register_system(SpycraftSystem)

__all__ = ["SPYCRAFT", "SpycraftSystem"]
