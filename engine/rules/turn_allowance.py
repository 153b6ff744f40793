"""What a token may do with its turn when the initiative order reaches it.

A rule system says, through ``RuleSystem.turn_allowance``, whether a token in its present
state (unconscious, dying, Stunned, Disabled...) has a turn at all. The turn engine
(``RuleSystem.open_turn``) reads the answer after the system's ``start_turn`` has run: a
turn that is skipped, or over once its start-of-turn roll is made, ends at once with a log
line saying why, so the GM never has to click End turn for a token that cannot act.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TurnKind(StrEnum):
    """How much of its turn a token gets."""

    #: An ordinary turn.
    FULL = "full"
    #: It acts, within limits the system's own checks enforce (``why`` names them).
    LIMITED = "limited"
    #: Its start-of-turn roll (made in the system's ``start_turn``), then the turn ends.
    ROLL_ONLY = "roll only"
    #: No turn at all: the system's ``start_turn`` makes no roll for it, the turn ends.
    SKIPPED = "skipped"


@dataclass(frozen=True, slots=True)
class TurnAllowance:
    """A token's turn as the rules give it; ``why`` follows the token's name in the log
    ("is unconscious", "is Disabled: one move or attack action")."""

    kind: TurnKind = TurnKind.FULL
    why: str = ""

    def __post_init__(self) -> None:
        if self.kind is not TurnKind.FULL and not self.why:
            raise ValueError(f"a {self.kind} turn must say why (the GM reads it in the log)")

    @property
    def ends_at_once(self) -> bool:
        return self.kind in (TurnKind.SKIPPED, TurnKind.ROLL_ONLY)

    def log_line(self, name: str) -> str:
        """The log's words for this turn, or "" for a full one."""
        if self.kind is TurnKind.SKIPPED:
            return f"{name} {self.why}; turn skipped."
        if self.kind is TurnKind.ROLL_ONLY:
            return f"{name} {self.why}; the turn ends."
        if self.kind is TurnKind.LIMITED:
            return f"{name} {self.why}."
        return ""


FULL_TURN = TurnAllowance()
