"""The combat part of an encounter's state: round, initiative order, budgets, dice, log.

These are plain frozen values kept inside :class:`engine.encounter.EncounterState`, so an
undo stack of states restores all of them exactly. This module imports nothing from the
rest of the engine but the leaves ``engine.frozen`` and ``engine.turns.system_state``, so
``engine.encounter`` can hold it without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.frozen import EMPTY, FrozenMapping, freeze_fields
from engine.turns.system_state import SystemState

#: A value a rule system keeps per combatant or per command option.
DataValue = int | float | str | bool


class Phase(StrEnum):
    """Where the encounter stands."""

    #: Tokens are placed; nobody has rolled initiative yet.
    SETUP = "setup"
    #: A surprise round: only the combatants the system finds eligible act.
    SURPRISE = "surprise"
    #: Ordinary combat rounds.
    ROUND = "round"
    #: The GM has ended the fight.
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Combatant:
    """One token's place in the fight.

    ``initiative`` is the system's count (a rolled initiative count, a card value...);
    ``tiebreak`` orders equal counts (higher first), e.g. (Initiative bonus, roll-off).
    ``budget`` holds what is left of this round's actions by pool name ("half": 2);
    ``data`` holds whatever else the system tracks (moved this round, fluid modifiers...).
    """

    token_id: str
    initiative: int = 0
    tiebreak: tuple[int, ...] = ()
    budget: FrozenMapping[str, int] = EMPTY
    data: FrozenMapping[str, DataValue] = EMPTY
    acted: bool = False

    def __post_init__(self) -> None:
        freeze_fields(self, "budget", "data")

    def get(self, key: str, default: DataValue = 0) -> DataValue:
        return self.data.get(key, default)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the combat log, in words a GM reads at the table."""

    round: int
    kind: str
    text: str
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PendingAction:
    """An action waiting for its moment (a Ready with its trigger, a Delay...).

    ``tokens`` are the tokens it involves, in order (a Stand Off's members, a Joint
    Action's acting order); ``data`` holds its plain numbers and flags.
    """

    token_id: str
    kind: str
    trigger: str = ""
    action: str = ""
    data: FrozenMapping[str, DataValue] = EMPTY
    tokens: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        freeze_fields(self, "data")


@dataclass(frozen=True, slots=True)
class CombatState:
    """Round, turn order, whose turn, readied actions, dice position and the log.

    ``order`` lists combatants in acting order for the current round; ``active`` is the
    token whose turn it is (None before combat or between rounds). ``seed`` and ``rolls``
    fix the dice: roll number n of an encounter always draws from the same stream.
    ``data`` holds a system's plain numbers and flags; ``system_state`` its own typed
    value (see :mod:`engine.turns.system_state`), such as a deck of initiative cards.
    """

    phase: Phase = Phase.SETUP
    round: int = 0
    order: tuple[Combatant, ...] = ()
    active: str | None = None
    pending: tuple[PendingAction, ...] = ()
    seed: int = 0
    rolls: int = 0
    log: tuple[LogEntry, ...] = ()
    data: FrozenMapping[str, DataValue] = EMPTY
    system_state: SystemState = None

    def __post_init__(self) -> None:
        freeze_fields(self, "data")

    def combatant(self, token_id: str) -> Combatant:
        for combatant in self.order:
            if combatant.token_id == token_id:
                return combatant
        raise KeyError(f"token {token_id!r} is not in the initiative order")

    def has(self, token_id: str) -> bool:
        return any(c.token_id == token_id for c in self.order)
