"""How the initiative tracker reads a combatant: its count or card, and where its turn stands.

A rule system answers through ``RuleSystem.tracker_entry``, so a screen draws the order
without knowing the rules: a token on Hold has passed its place in the order but has not
acted, and only its system knows that (a plain "acted" would show it as done).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.tokens import Token
from engine.turns.combat import Combatant, CombatState


class TurnStanding(StrEnum):
    """Where a combatant's turn stands this round."""

    #: Its turn now.
    ACTING = "acting"
    #: Its turn is still to come.
    WAITING = "waiting"
    #: It has had its turn.
    DONE = "done"
    #: It keeps its turn for later (a Hold, a Delay, a readied action): it may still act.
    HOLDING = "holding"


#: The tracker's first column's heading per initiative scheme kind (``InitiativeScheme.kind``).
INITIATIVE_HEADINGS = {"count": "Count", "cards": "Card", "sides": "Side"}


@dataclass(frozen=True, slots=True)
class TrackerEntry:
    """One row of the tracker: ``initiative`` as the GM reads it ("23", a card, "enemy 8"),
    where the turn stands, ``note``, the system's words for a standing the plain ones
    do not say ("On Hold"), or "", and ``out``: why the token is out of the fight ("dead",
    "Mortally Wounded"; its turn is skipped or only a roll), or "" while it fights. A
    tracker marks an out token as defeated, as a VTT does."""

    initiative: str
    standing: TurnStanding
    note: str = ""
    out: str = ""


def initiative_words(kind: str, combatant: Combatant, token: Token | None) -> str:
    """The initiative count, the Action Card or the side, by the scheme's kind."""
    if kind == "cards":
        return str(combatant.data.get("card", "")) or "—"
    if kind == "sides" and token is not None:
        return f"{token.side.value} {combatant.initiative}"
    return str(combatant.initiative)


def plain_standing(combat: CombatState, combatant: Combatant) -> TurnStanding:
    """Acting, done or still to come, from the turn order alone."""
    if combatant.token_id == combat.active:
        return TurnStanding.ACTING
    return TurnStanding.DONE if combatant.acted else TurnStanding.WAITING
