"""Savage Worlds attack maneuvers: their modifiers and effects as plain functions.

Aim, Called Shots, Defend, Desperate Attack, Wild Attack, Touch Attack, Disarm, Finishing
Move and the Joker bonus. Every function returns numbers or raises :class:`ManeuverError`
naming what is wrong; conditions and turn order are left to the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from engine.rules.savage_worlds.conditions import SWCondition
from engine.tokens import Token


class ManeuverError(ValueError):
    """A maneuver asked for in a way the rules do not allow."""


# --- Scale ---------------------------------------------------------------------------


class Scale(IntEnum):
    """The Scale modifier table: what hitting something of this size adds to the roll."""

    TINY = -6
    VERY_SMALL = -4
    SMALL = -2
    NORMAL = 0
    LARGE = 2
    HUGE = 4
    GARGANTUAN = 6


# --- Aim ------------------------------------------------------------------------------

#: Most penalty points an Aim may cancel.
AIM_IGNORES_UP_TO = 4
AIM_FLAT_BONUS = 2


class AimChoice(StrEnum):
    #: Cancel up to 4 points of Range, Cover, Called Shot, Scale or Speed penalties.
    IGNORE_PENALTIES = "ignore penalties"
    #: Simply add +2.
    PLUS_TWO = "+2"


def aim_bonus(choice: AimChoice, aimable_penalties: int) -> int:
    """What an Aim adds to the shot, given the sum of the penalties it may cancel (<= 0)."""
    if aimable_penalties > 0:
        raise ManeuverError(f"aimable penalties are 0 or less, not {aimable_penalties}")
    if choice is AimChoice.PLUS_TWO:
        return AIM_FLAT_BONUS
    return min(AIM_IGNORES_UP_TO, -aimable_penalties)


def aim_refusal(moved_this_turn: bool, acted_this_turn: bool, ranged: bool) -> str | None:
    """Why a token may not Aim now (it must spend its whole turn stationary), or None."""
    if not ranged:
        return "Aim needs a ranged weapon"
    if moved_this_turn:
        return "Aim needs the shooter to stay put all turn, and it has moved"
    if acted_this_turn:
        return "Aim takes the whole turn, and it has already acted"
    return None


# --- Called Shots ----------------------------------------------------------------------


class CalledShotTarget(StrEnum):
    HAND = "hand"
    HEAD_OR_VITALS = "head or vitals"
    ITEM = "item"
    LIMB = "limb"
    UNARMORED_AREA = "unarmored area"


@dataclass(frozen=True, slots=True)
class CalledShot:
    """The modifier to hit and what a hit does."""

    target: CalledShotTarget
    modifier: int
    extra_damage: int = 0
    #: The hit may make the victim drop what that hand holds (see Disarm).
    may_disarm: bool = False
    note: str = ""


HEAD_DAMAGE_BONUS = 4


def called_shot(
    target: CalledShotTarget,
    *,
    scale: Scale | None = None,
    open_faced_helmet: bool = False,
) -> CalledShot:
    """A Called Shot's modifier and effect against a Normal-scale creature.

    Items and unarmored areas use the Scale of the item or gap itself, so ``scale`` is
    required for them (a pistol is Very Small, -4; an eye slit Tiny, -6).
    """
    if target is CalledShotTarget.HAND:
        return CalledShot(target, -4, may_disarm=True, note="may disarm")
    if target is CalledShotTarget.HEAD_OR_VITALS:
        modifier = -5 if open_faced_helmet else -4
        note = "+4 damage" + (", past the open-faced helmet" if open_faced_helmet else "")
        return CalledShot(target, modifier, extra_damage=HEAD_DAMAGE_BONUS, note=note)
    if target is CalledShotTarget.LIMB:
        return CalledShot(target, -2, note="no extra effect")
    if scale is None:
        raise ManeuverError(f"a Called Shot at an {target} needs the Scale of that {target}")
    if target is CalledShotTarget.ITEM:
        return CalledShot(target, int(scale), may_disarm=True, note="may disarm or break it")
    return CalledShot(target, int(scale), note="ignores the Armor over that spot")


# --- Desperate, Wild and Touch Attacks; Defend; Joker ---------------------------------------


@dataclass(frozen=True, slots=True)
class AttackModifiers:
    to_hit: int = 0
    damage: int = 0

    def __add__(self, other: AttackModifiers) -> AttackModifiers:
        return AttackModifiers(self.to_hit + other.to_hit, self.damage + other.damage)


DESPERATE_STEPS = (2, 4)
WILD_ATTACK = AttackModifiers(2, 2)
TOUCH_ATTACK = AttackModifiers(2, 0)
JOKER = AttackModifiers(2, 2)
DEFEND_PARRY_BONUS = 4


def desperate_attack(step: int, *, wild_attack: bool = False) -> AttackModifiers:
    """Trade damage for accuracy: +2 or +4 to Fighting, the same off damage."""
    if step not in DESPERATE_STEPS:
        raise ManeuverError(f"a Desperate Attack trades 2 or 4 points, not {step}")
    if wild_attack:
        raise ManeuverError("a Desperate Attack cannot be combined with a Wild Attack")
    return AttackModifiers(step, -step)


def defend_refusal(acted_this_turn: bool, ran_this_turn: bool) -> str | None:
    """Defend takes the whole turn (no Multi-Actions); moving is fine, running is not."""
    if acted_this_turn:
        return "Defend takes the whole turn, and an action was already taken"
    if ran_this_turn:
        return "a defender may move but not run"
    return None


# --- Disarm ---------------------------------------------------------------------------------

DISARM_STRENGTH_PENALTY = {CalledShotTarget.LIMB: -2, CalledShotTarget.HAND: -4}


def disarm_strength_modifier(hit: CalledShotTarget, wound_penalty: int = 0) -> int:
    """The Strength roll modifier for a wielder who was Shaken or Wounded by a disarm shot."""
    if hit not in DISARM_STRENGTH_PENALTY:
        raise ManeuverError("a Disarm against the wielder must hit a hand or a limb")
    if wound_penalty > 0:
        raise ManeuverError(f"a wound penalty is 0 or less, not {wound_penalty}")
    return DISARM_STRENGTH_PENALTY[hit] + wound_penalty


def keeps_item(strength_total: int, *, item_damage: int | None = None) -> bool:
    """Does the defender hold on? Against an item hit, Strength must reach the damage;
    against a hit on the wielder, the roll (already modified) must succeed (4)."""
    if item_damage is not None:
        return strength_total >= item_damage
    return strength_total >= 4


# --- Finishing Move -------------------------------------------------------------------------

#: Conditions that leave a victim helpless enough for a Finishing Move (a table may add more).
HELPLESS_CONDITIONS: tuple[str, ...] = (
    str(SWCondition.BOUND), str(SWCondition.STUNNED), "Incapacitated", "Helpless",
)


def finishing_move_refusal(
    victim: Token, *, adjacent: bool, lethal_weapon: bool, allow_at_range: bool = False
) -> str | None:
    """Why a Finishing Move is not possible now, or None (then it simply kills)."""
    if not any(victim.has_condition(name) for name in HELPLESS_CONDITIONS):
        return f"{victim.name} is not helpless"
    if not lethal_weapon:
        return "a Finishing Move needs a lethal weapon"
    if not adjacent and not allow_at_range:
        return "a Finishing Move is made up close unless the GM allows it at range"
    return None
