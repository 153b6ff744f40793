"""Savage Worlds opposed maneuvers: Grappling (with Crush and breaking free), Push, Test,
and the cooperative Support roll.

Each resolves totals already rolled (see ``traits``) into what happens; the caller applies
the conditions and moves the tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.traits import TARGET_NUMBER, Outcome, opposed, outcome

#: Creatures may not normally grapple or push a foe more than this many Sizes larger.
MAX_SIZE_GAP = 2


class OpposedError(ValueError):
    """A maneuver the rules do not allow here."""


def size_refusal(action: str, attacker_size: int, defender_size: int) -> str | None:
    if defender_size - attacker_size > MAX_SIZE_GAP:
        return (
            f"{action}: the foe is {defender_size - attacker_size} Sizes larger "
            f"(more than {MAX_SIZE_GAP} needs the GM's leave)"
        )
    return None


# --- Grappling -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GrappleResult:
    outcome: Outcome
    #: The condition the defender ends up with (None: the grapple failed).
    defender: SWCondition | None
    #: The grappler is Vulnerable while holding a Bound foe.
    grappler_vulnerable: bool


def grapple_scale_penalty(attacker_scale: int, defender_scale: int) -> int:
    """The grappler (only) subtracts the Scale difference from the total."""
    return -abs(attacker_scale - defender_scale)


def grapple(
    attacker_athletics: int, defender_athletics: int, *, defender_entangled: bool = False
) -> GrappleResult:
    """Opposed Athletics: win to Entangle, raise (or win on an Entangled foe) to Bind.

    ``attacker_athletics`` already includes the Scale penalty and any Gang Up bonus.
    """
    result = opposed(attacker_athletics, defender_athletics)
    if not result.success:
        return GrappleResult(result, None, False)
    if result.raises >= 1 or defender_entangled:
        return GrappleResult(result, SWCondition.BOUND, True)
    return GrappleResult(result, SWCondition.ENTANGLED, False)


def crush_refusal(target_entangled: bool, target_bound: bool) -> str | None:
    """Crush (a Strength roll as damage, Scale ignored) needs a foe the grappler holds."""
    if not (target_entangled or target_bound):
        return "Crush needs a foe you hold Entangled or Bound"
    return None


def break_free(total: int, currently: SWCondition) -> SWCondition | None:
    """A held victim's escape roll (Athletics, or Strength): success loosens the hold by one
    step (Bound to Entangled, Entangled to free), a raise frees completely."""
    if currently not in (SWCondition.ENTANGLED, SWCondition.BOUND):
        raise OpposedError(f"only an Entangled or Bound character breaks free, not {currently}")
    result = outcome(total)
    if not result.success:
        return currently
    if result.raises >= 1 or currently is SWCondition.ENTANGLED:
        return None
    return SWCondition.ENTANGLED


# --- Push ------------------------------------------------------------------------------------

PUSH_RUN_BONUS = 2
#: How far a Push moves the foe, in inches: on a win, and on a raise (before Scale doubles it).
PUSH_WIN_INCHES = 1
PUSH_RAISE_INCHES = 2
PUSH_RUN_NEEDED_INCHES = 2.0


@dataclass(frozen=True, slots=True)
class PushResult:
    outcome: Outcome
    #: How far back the foe goes, in tabletop inches (0: no push).
    distance_inches: int
    #: Modifier to the victim's Athletics roll against falling prone (None: no roll).
    prone_check_modifier: int | None


def push_total_modifier(*, ran_inches: float = 0.0, shield_parry: int = 0) -> int:
    """What the pusher adds: +2 after running at least 2", plus a shield's Parry bonus."""
    bonus = PUSH_RUN_BONUS if ran_inches >= PUSH_RUN_NEEDED_INCHES else 0
    return bonus + shield_parry


def push(attacker_total: int, defender_total: int, *, attacker_larger: bool = False) -> PushResult:
    """Opposed Strength (or Athletics): 1" on a win, 2" with a raise, doubled if the pusher's
    Scale is larger. The pushed foe then rolls Athletics (-2 after a raise) or falls prone."""
    result = opposed(attacker_total, defender_total)
    if not result.success:
        return PushResult(result, 0, None)
    distance = PUSH_RAISE_INCHES if result.raises >= 1 else PUSH_WIN_INCHES
    if attacker_larger:
        distance *= 2
    return PushResult(result, distance, -2 if result.raises >= 1 else 0)


def furthest_push(*, attacker_larger: bool = False) -> int:
    """The most a Push can move the foe, in inches: a raise's distance (doubled if larger)."""
    return PUSH_RAISE_INCHES * (2 if attacker_larger else 1)


def pushed_falls_prone(athletics_total: int) -> bool:
    return athletics_total < TARGET_NUMBER


# --- Test ------------------------------------------------------------------------------------


class SWTestEffect(StrEnum):
    DISTRACTED = "Distracted"
    VULNERABLE = "Vulnerable"


@dataclass(frozen=True, slots=True)
class SWTestResult:
    outcome: Outcome
    conditions: tuple[SWCondition, ...]


#: Which attribute resists a Test made with a skill (the skill's linked attribute).
TEST_RESISTED_BY = {
    "Athletics": "Agility",
    "Fighting": "Agility",
    "Shooting": "Agility",
    "Taunt": "Smarts",
    "Intimidation": "Spirit",
    "Performance": "Spirit",
    "Persuasion": "Spirit",
    "Stealth": "Agility",
    "Thievery": "Agility",
}


def best_of(test_dice: list[int]) -> int:
    """With extra dice (a high Rate of Fire), a Test keeps only the best single die: one
    result, never several, and none spread over other targets."""
    if not test_dice:
        raise OpposedError("a Test needs at least one roll")
    return max(test_dice)


class SWTestRaise(StrEnum):
    """What a raise on a Test adds: Shaken, or what the GM allows instead (a tripped foe
    knocked prone is the text's example)."""

    SHAKEN = "Shaken"
    PRONE = "Prone"


def resolve_test(
    attacker_total: int, defender_attribute: int, effect: SWTestEffect,
    on_raise: SWTestRaise = SWTestRaise.SHAKEN,
) -> SWTestResult:
    """Skill against the linked attribute: a win leaves the foe Distracted or Vulnerable
    (attacker's pick); a raise also Shakes the foe (or, as the GM allows, knocks it prone)."""
    result = opposed(attacker_total, defender_attribute)
    if not result.success:
        return SWTestResult(result, ())
    chosen = SWCondition(str(effect))
    if result.raises >= 1:
        return SWTestResult(result, (chosen, SWCondition(str(on_raise))))
    return SWTestResult(result, (chosen,))


# --- Support ---------------------------------------------------------------------------------

SUPPORT_CAP = 4
CRITICAL_FAILURE_SUPPORT = -2


def support_bonus(total: int, *, critical_failure: bool = False) -> int:
    """One Support roll: +1 on a success, +2 with a raise, -2 on a critical failure."""
    if critical_failure:
        return CRITICAL_FAILURE_SUPPORT
    result = outcome(total)
    if not result.success:
        return 0
    return 2 if result.raises >= 1 else 1


def total_support(bonuses: list[int], *, strength: bool = False) -> int:
    """All Support on one Trait: capped at +4, except Strength, which has no cap."""
    total = sum(bonuses)
    return total if strength else min(total, SUPPORT_CAP)
