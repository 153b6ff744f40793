"""Spycraft 2.0 combat, registered as "spycraft"."""

from engine.rules import register_system
from engine.rules.spycraft.system import SpycraftSystem

SPYCRAFT = register_system(SpycraftSystem)

__all__ = ["SPYCRAFT", "SpycraftSystem"]
