"""What Savage Worlds keeps for a fight beyond numbers: the Action Deck, as a typed value,
where missed blasts came down (``blast_marks``) and the rolls a Benny may still reroll
(``rerolls``).

Stored in ``CombatState.system_state`` (a file holds it as
``{"system": "savage-worlds", "deck": {"draw_pile": [...], ...}, "landings": [...]}``; a file
from before landings were kept has none, which reads as none). The deck text of a version-1
file becomes this when the file loads (``version_1``); nothing here reads text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.savage_worlds.deck import ActionDeck
from engine.turns.system_state import register_system_state


@dataclass(frozen=True, slots=True)
class BlastLanding:
    """A missed blast: who threw or fired it, with what template, where it was aimed and
    where it came down (the map marks it until the thrower's next turn)."""

    thrower: str
    weapon: str
    template: str
    aimed: Square
    landed: Square


@dataclass(frozen=True, slots=True)
class RerollableRoll:
    """A Trait roll its roller may still spend a Benny on (``rerolls``): the die and
    modifier to roll again, the best total so far, and what the roll was against."""

    roller: str
    kind: str
    trait: str
    die: int
    modifier: int
    best: int
    critical_failure: bool = False
    #: The attack's target or the patient ("" for the roller's own survival roll).
    other: str = ""
    target_number: int = 4
    weapon: str = ""
    label: str = ""
    damage_bonus: int = 0
    armor_piercing: int = 0
    #: Made in an action: it goes when the next turn starts.
    on_turn: bool = False


@register_system_state("savage-worlds")
@dataclass(frozen=True, slots=True)
class SavageWorldsCombat:
    deck: ActionDeck
    landings: tuple[BlastLanding, ...] = ()
    rerolls: tuple[RerollableRoll, ...] = ()


def _kept(state: EncounterState) -> SavageWorldsCombat:
    kept = state.combat.system_state
    if isinstance(kept, SavageWorldsCombat):
        return kept
    return SavageWorldsCombat(ActionDeck.fresh())


def _stored(state: EncounterState, kept: SavageWorldsCombat) -> EncounterState:
    return replace(state, combat=replace(state.combat, system_state=kept))


def deck_of(state: EncounterState) -> ActionDeck:
    """The Action Deck between deals (a fresh, unshuffled one before the first)."""
    return _kept(state).deck


def with_deck(state: EncounterState, deck: ActionDeck) -> EncounterState:
    return _stored(state, replace(_kept(state), deck=deck))


def landings_of(state: EncounterState) -> tuple[BlastLanding, ...]:
    return _kept(state).landings


def with_landings(state: EncounterState, landings: tuple[BlastLanding, ...]) -> EncounterState:
    return _stored(state, replace(_kept(state), landings=landings))


def rerolls_of(state: EncounterState) -> tuple[RerollableRoll, ...]:
    return _kept(state).rerolls


def with_rerolls(state: EncounterState, rolls: tuple[RerollableRoll, ...]) -> EncounterState:
    return _stored(state, replace(_kept(state), rerolls=rolls))
