"""Every Savage Worlds action handler, registered on import (see ``handlers``)."""

from engine.rules.savage_worlds import attack_actions, maneuver_actions, movement_actions
from engine.rules.savage_worlds.handlers import HANDLERS, Handler

__all__ = ["HANDLERS", "Handler", "attack_actions", "maneuver_actions", "movement_actions"]
