"""Which Trait rolls a Benny may still reroll: each roller's last one, kept right after it.

Our rule text (002) holds only the Special Actions, so this is the edition's core rule as
published, in our own words, with these choices (the handler is ``reroll_actions``):

* A token spends a Benny from its ``bennies`` stat to roll a Trait roll it just made again;
  the better of the rolls counts, and it may spend another on the same roll. A critical
  failure cannot be rerolled. The GM's own pool for Extras is not kept: an Extra with a
  ``bennies`` stat spends those (the GM's Bennies, counted on the token).
* Kept for a reroll: a missed attack (Fighting, Shooting, Wild and Desperate Attacks; a
  Disarm, a Called Shot or a Touch Attack is not, as their hit brings more than damage), a
  failed Vigor roll against Incapacitation, a Vigor roll while Bleeding Out short of a raise
  (a failure killed the token: a better roll brings it back), and a failed Healing roll to
  stabilise.
  A hit is not kept: its damage is already rolled, so tables reroll misses.
* "Just made": the record goes when anyone takes another action (a Soak or another reroll
  leaves it), and a roll made in an action goes when the next turn starts; a survival roll
  (Vigor while taken out or bleeding, which ends that token's turn at once) stays until the
  next action, so the table may still spend a Benny on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from engine.encounter import EncounterState
from engine.rules.savage_worlds import combat_state
from engine.rules.savage_worlds.combat_state import RerollableRoll


class RollKind(StrEnum):
    """What a kept roll was for, and so what a better one changes."""

    ATTACK = "attack"
    INCAPACITATION = "incapacitation"
    BLEEDING = "bleeding"
    STABILISE = "stabilise"


#: What each kind of roll is called in the log ("rerolls his Vigor against Incapacitation").
ROLL_WORDS = {
    RollKind.ATTACK: "the missed attack",
    RollKind.INCAPACITATION: "the Vigor roll against Incapacitation",
    RollKind.BLEEDING: "the Vigor roll while Bleeding Out",
    RollKind.STABILISE: "the Healing roll to stabilise",
}


@dataclass(frozen=True, slots=True)
class RollMade:
    """A Trait roll as the rules made it: enough to roll it again with the same dice."""

    trait: str
    die: int
    modifier: int
    total: int
    critical_failure: bool


def keep(state: EncounterState, roller: str, kind: RollKind, roll: RollMade, *,
         other: str = "", target_number: int = 4, weapon: str = "", label: str = "",
         damage_bonus: int = 0, armor_piercing: int = 0) -> EncounterState:
    """Keep ``roller``'s roll for a Benny (replacing its earlier one); none out of combat."""
    if not state.combat.has(roller):
        return state
    kept = RerollableRoll(
        roller, str(kind), roll.trait, roll.die, roll.modifier, roll.total,
        roll.critical_failure, other, target_number, weapon, label, damage_bonus,
        armor_piercing, on_turn=kind in (RollKind.ATTACK, RollKind.STABILISE))
    rest = tuple(r for r in combat_state.rerolls_of(state) if r.roller != roller)
    return combat_state.with_rerolls(state, (*rest, kept))


def last_roll(state: EncounterState, roller: str) -> RerollableRoll | None:
    return next((r for r in combat_state.rerolls_of(state) if r.roller == roller), None)


def improved(state: EncounterState, roller: str, best: int) -> EncounterState:
    """The kept roll's best total is now ``best`` (another Benny may still follow)."""
    rolls = tuple(replace(r, best=best) if r.roller == roller else r
                  for r in combat_state.rerolls_of(state))
    return combat_state.with_rerolls(state, rolls)


def forget(state: EncounterState, roller: str, kind: RollKind | None = None) -> EncounterState:
    """The roller's kept roll is settled (of ``kind`` only, when given)."""
    kept = combat_state.rerolls_of(state)
    rest = tuple(r for r in kept if r.roller != roller or (kind is not None and r.kind != kind))
    return state if rest == kept else combat_state.with_rerolls(state, rest)


def forget_all(state: EncounterState, *, on_turn_only: bool = False) -> EncounterState:
    """Another action is taken (every kept roll goes) or a turn starts (those of actions)."""
    kept = combat_state.rerolls_of(state)
    rest = tuple(r for r in kept if on_turn_only and not r.on_turn)
    return state if rest == kept else combat_state.with_rerolls(state, rest)
