"""What happened during play, as values the log, the desktop and the tests read.

A leaf of the engine: it imports only :class:`engine.dice.Roll` (itself a leaf), so the
turn machinery (:mod:`engine.turns`), the rule systems and the desktop can all speak of
events without importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.dice import Roll


class EventKind(StrEnum):
    COMBAT = "combat"
    ROUND = "round"
    TURN = "turn"
    ACTION = "action"
    ROLL = "roll"
    MOVE = "move"
    ATTACK = "attack"
    DAMAGE = "damage"
    AMMO = "ammo"
    CONDITION = "condition"
    INITIATIVE = "initiative"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in words a GM reads at the table, naming the tokens touched."""

    kind: EventKind
    text: str
    tokens: tuple[str, ...] = ()
    roll: Roll | None = None
