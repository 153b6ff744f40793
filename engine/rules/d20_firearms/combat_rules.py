"""The d20 firearms special attack actions, as numbers and checks.

Firing from cover, Aiming, Overwatch, Covering Fire, Suppressive Fire, Blind-Fire, Charge,
Two-Weapon Combat, Draw or Holster, Drop an Item. Distances are feet. A weapon's category
and recoil live in its ``traits`` ("pistol", "smg", "rifle", "sniper rifle", "scope",
"recoil:2") and its fire modes in ``modes`` ("single", "semi-auto", "automatic").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.battlemap import CoverGrade
from engine.routes.charge import ClosestSpaceCharge
from engine.rules.d20_firearms.schema import STATS
from engine.tokens import Token, Weapon
from engine.words import counted


class SpecialActionError(ValueError):
    pass


# --- Weapon facts -----------------------------------------------------------------------------

SEMI_AUTO = "semi-auto"
AUTOMATIC = "automatic"
SNIPER_RIFLE = "sniper rifle"
SCOPE = "scope"
TWO_WEAPON_KINDS = ("pistol", "smg")


def weapon_recoil(weapon: Weapon) -> int:
    """The weapon's recoil penalty size, from a ``recoil:N`` trait (0 without one)."""
    for trait in weapon.traits:
        if trait.startswith("recoil:"):
            text = trait.partition(":")[2].strip()
            if not text.isdigit():
                raise SpecialActionError(
                    f"{weapon.name}: recoil must be a whole number, not {text!r}"
                )
            return int(text)
    return 0


def is_automatic(weapon: Weapon) -> bool:
    """Full-auto capable: a mode named "automatic", "full auto" or "full-auto"."""
    return any(m.lower() in (AUTOMATIC, "full auto", "full-auto", "auto") for m in weapon.modes)


def can_fire_semi_auto(weapon: Weapon) -> bool:
    """At least semi-automatic: a semi-auto, burst or automatic mode."""
    return is_automatic(weapon) or any(
        "semi" in m.lower() or "burst" in m.lower() for m in weapon.modes
    )


def is_sniper_rifle(weapon: Weapon) -> bool:
    return SNIPER_RIFLE in weapon.traits


# --- Firing from cover ------------------------------------------------------------------------

COVER_RECOIL_REDUCTION = 1


def recoil_penalty(weapon: Weapon, multiplier: int = 1, *, braced_on_cover: bool = False) -> int:
    """The recoil penalty of one attack (negative), less 1 when braced on cover."""
    size = weapon_recoil(weapon) * multiplier
    if braced_on_cover:
        size = max(0, size - COVER_RECOIL_REDUCTION)
    return -size


# --- Aiming -----------------------------------------------------------------------------------

AIM_THREAT_BONUS = 1
AIM_PERCEPTION_CONE_FT = 60.0
AIM_PERCEPTION_INSIDE = 5
AIM_PERCEPTION_OUTSIDE = -5


def aiming_actions(weapon: Weapon) -> int:
    """Taking aim costs 1 attack action, or 2 with a sniper rifle (ending it is free)."""
    return 2 if is_sniper_rifle(weapon) else 1


def aiming_speed(speed_ft: float) -> int:
    """Half speed, rounded down to a multiple of 5 ft."""
    return int(math.floor(speed_ft / 2 / 5) * 5)


def aiming_perception(inside_cone: bool) -> int:
    return AIM_PERCEPTION_INSIDE if inside_cone else AIM_PERCEPTION_OUTSIDE


def aiming_refusal(weapon: Weapon, *, two_weapons: bool) -> str | None:
    if weapon.melee:
        return "Aiming needs a ranged weapon"
    if two_weapons:
        return "no Aiming while wielding two weapons"
    return None


def threat_range(low: int, *, aiming: bool = False, overwatch: int = 0) -> int:
    """The lowest natural roll that threatens a critical (a 20 threat is 20; 19-20 is 19)."""
    return max(1, low - (AIM_THREAT_BONUS if aiming else 0) - overwatch)


# --- Overwatch --------------------------------------------------------------------------------


def overwatch_cap(intelligence_mod: int) -> int:
    """Most threat-range points Overwatch can build: Intelligence modifier x3.

    The first Overwatch action always gives its +1 (a low Intelligence only stops the
    build-up), which is how we read "+1, then +1 per extra action up to Int x3".
    """
    return max(1, 3 * intelligence_mod)


def overwatch_bonus(actions_spent: int, intelligence_mod: int) -> int:
    if actions_spent < 0:
        raise SpecialActionError(f"Overwatch actions are 0 or more, not {actions_spent}")
    return min(actions_spent, overwatch_cap(intelligence_mod))


def overwatch_refusal(
    weapon: Weapon,
    *,
    aiming: bool,
    target_unaware: bool,
    target_visible: bool,
    distance_ft: float,
) -> str | None:
    """Overwatch needs Aiming, an unaware target in sight, and the target inside the first
    range increment (sniper rifles and scoped weapons may reach further)."""
    if not aiming:
        return "Overwatch needs the shooter to be Aiming"
    if not target_unaware:
        return "Overwatch only works while the target is unaware of the shooter"
    if not target_visible:
        return "Overwatch needs the target or square in sight"
    long_reach = is_sniper_rifle(weapon) or SCOPE in weapon.traits
    if not long_reach and distance_ft > weapon.range_increment:
        return (
            f"the target is {distance_ft:g} ft away, beyond {weapon.name}'s "
            f"{weapon.range_increment:g} ft range increment"
        )
    return None


# --- Covering Fire ----------------------------------------------------------------------------

COVERING_FIRE_REFLEX_DC = 15


def covering_fire_cone_ft(weapon: Weapon) -> float:
    """The cone reaches as far as one range increment of the weapon."""
    return weapon.range_increment


def covering_fire_refusal(weapon: Weapon) -> str | None:
    if not can_fire_semi_auto(weapon):
        return f"Covering Fire needs a semi-automatic or automatic weapon; {weapon.name} is neither"
    return None


def covering_fire_hits(
    attack_actions: int, targets: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    """Which targets each attack action may hit: every target in the cone, at most once per
    attack action (Full-Auto gives three actions, so up to three hits on one target)."""
    if attack_actions < 1:
        raise SpecialActionError("Covering Fire needs at least one attack action")
    return tuple(tuple(dict.fromkeys(targets)) for _ in range(attack_actions))


def takes_cover_reach_ft(speed_ft: float) -> float:
    """A target who makes the Reflex save may dive for cover within half its speed."""
    return speed_ft / 2


# --- Suppressive Fire -------------------------------------------------------------------------

SUPPRESSIVE_ROUNDS = 10
SUPPRESSIVE_AREA_FT = 10.0
SUPPRESSIVE_DEFENSE = 10
SUPPRESSIVE_UNTRAINED = -4
SUPPRESSED_PENALTY = -4
SUPPRESSIVE_REFLEX_DC = 15
ADVANCED_FIREARMS = "Advanced Firearms Proficiency"


def suppressive_refusal(weapon: Weapon) -> str | None:
    if not can_fire_semi_auto(weapon):
        return f"Suppressive Fire needs at least semi-automatic fire; {weapon.name} lacks it"
    if weapon.uses_ammunition and weapon.ammo < SUPPRESSIVE_ROUNDS:
        return (
            f"Suppressive Fire needs {counted(SUPPRESSIVE_ROUNDS, 'round')} loaded, "
            f"{weapon.name} has {weapon.ammo}"
        )
    return None


def suppressive_attack_modifier(has_advanced_firearms: bool) -> int:
    return 0 if has_advanced_firearms else SUPPRESSIVE_UNTRAINED


def suppressive_hits_area(attack_total: int) -> bool:
    """The area has an effective Defense of 10."""
    return attack_total >= SUPPRESSIVE_DEFENSE


# --- Blind-Fire -------------------------------------------------------------------------------

BLIND_FIRE_MISS_CHANCE = 50
BLIND_FIRE_COVER = (CoverGrade.THREE_QUARTERS, CoverGrade.TOTAL)


def blind_fire_refusal(cover: CoverGrade | None) -> str | None:
    """Blind-Fire needs three-quarters or massive (total) cover against the targets."""
    if cover not in BLIND_FIRE_COVER:
        return "Blind-Fire needs three-quarters or massive cover from the targets"
    return None


@dataclass(frozen=True, slots=True)
class BlindFireShots:
    at_enemies: int
    at_empty_squares: int
    miss_chance: int = BLIND_FIRE_MISS_CHANCE


def blind_fire_shots(shots: int, *, located_enemies: bool) -> BlindFireShots:
    """Without a Perception check to place the enemies, half the shots (rounded down) go
    into empty squares; every shot keeps the 50% miss chance."""
    if shots < 1:
        raise SpecialActionError("Blind-Fire needs at least one shot")
    if located_enemies:
        return BlindFireShots(shots, 0)
    wasted = shots // 2
    return BlindFireShots(shots - wasted, wasted)


def blind_fire_locate_actions(quick_recon: bool) -> int:
    """The Perception check to place enemies: 1 action, free with Quick Recon."""
    return 0 if quick_recon else 1


def blind_fire_misses(percentile: int) -> bool:
    """A d100 of 1-50 misses."""
    if not 1 <= percentile <= 100:
        raise SpecialActionError(f"a percentile roll is 1-100, not {percentile}")
    return percentile <= BLIND_FIRE_MISS_CHANCE


# --- Charge -----------------------------------------------------------------------------------

CHARGE_ATTACK_BONUS = 2
CHARGE_DEFENSE_PENALTY = -2
CHARGE_SPEED_MULTIPLIER = 2
#: A creature in one of these conditions does not block a Charge's line (lower case); the
#: Disabled mark is what 0 hit points leaves.
CHARGE_PASSES = frozenset({"helpless", "unconscious", "paralyzed", "paralysed", "asleep", "bound",
                           "disabled", "dying", "stable", "dead"})


def down_and_helpless(token: Token) -> bool:
    """0 or fewer hit points (disabled or dying) is helpless for the Charge's clear path,
    whether or not the Disabled mark was set (a GM may have typed the hit points)."""
    return STATS.number(token, "hp") <= 0


#: Charge: twice speed (only speed in the surprise round, its single action) in a straight
#: line to the closest space to attack from; +2 to the attack, -2 Defense until the next turn.
CHARGE = ClosestSpaceCharge(
    speed_multiple=CHARGE_SPEED_MULTIPLIER,
    surprise_speed_multiple=1,
    attack_bonus=CHARGE_ATTACK_BONUS,
    defence_penalty=CHARGE_DEFENSE_PENALTY,
    penalty_lasts="until the charger's next turn",
    short_step="5-ft step",
    passable_conditions=CHARGE_PASSES,
    passable_creature=down_and_helpless,
)


# --- Dying, helpless defenders, coup de grace, first aid --------------------------------------
# The texts we hold have no rules for a soldier below 0 hit points; these are d20 Modern's
# core rules, in our words (see ``health``).

#: At exactly this many hit points a soldier is Disabled; below it, dying.
DISABLED_HIT_POINTS = 0
#: At this many hit points or fewer a soldier is dead.
DEAD_HIT_POINTS = -10
#: A dying soldier's roll on its turn, and the highest result that makes it stable (10%).
STABILISE_ROLL = "1d100"
STABILISE_CHANCE = 10
#: Hit points a dying soldier loses on a turn it does not stabilise.
DYING_LOSS = 1
#: Treat Injury to stabilise a dying soldier (an attack action from the next square), and
#: the penalty for working without a medical kit.
TREAT_INJURY_DC = 15
NO_MEDICAL_KIT_PENALTY = -4
#: A helpless defender's Dexterity counts as 0: this modifier stands in for its own in its
#: Defense; against melee attacks its Defense drops by a further 4 (not against ranged).
HELPLESS_DEX_MODIFIER = -5
HELPLESS_MELEE_DEFENSE = -4
#: A coup de grace's victim who survives the damage saves (Fortitude) against this plus
#: the damage dealt, or dies.
COUP_DE_GRACE_DC_BASE = 10
#: Massive damage: one hit of at least the Constitution score calls for a Fortitude save
#: against this DC; a failure drops the soldier to this many hit points (dying).
MASSIVE_DAMAGE_DC = 15
MASSIVE_DAMAGE_HIT_POINTS = -1
#: A Constitution score the stat block leaves blank: the lowest score with the token's
#: modifier (10 + 2 x modifier), so the threshold is never above what the modifier allows.
AVERAGE_SCORE = 10


def massive_damage_threshold(con_score: int | None, con_mod: int) -> int:
    """The least damage in one hit that calls for the massive damage save."""
    return con_score if con_score is not None else AVERAGE_SCORE + 2 * con_mod


def stabilises(percentile: int) -> bool:
    """A dying soldier's d% of 1-10 makes it stable."""
    if not 1 <= percentile <= 100:
        raise SpecialActionError(f"a percentile roll is 1-100, not {percentile}")
    return percentile <= STABILISE_CHANCE


def helpless_defense(dex_mod: int, melee: bool) -> tuple[int, int]:
    """(change for Dexterity counted as 0, further change against melee) to a helpless
    defender's Defense, whose Defense held its own Dexterity modifier ``dex_mod``."""
    return HELPLESS_DEX_MODIFIER - dex_mod, HELPLESS_MELEE_DEFENSE if melee else 0


def coup_de_grace_dc(damage: int) -> int:
    return COUP_DE_GRACE_DC_BASE + damage


# --- Two-Weapon Combat ------------------------------------------------------------------------

TWO_WEAPON_PENALTY = -8
TWO_WEAPON_STRENGTH_INCREASE = 3


def two_weapon_refusal(first: Weapon, second: Weapon) -> str | None:
    for weapon in (first, second):
        if not any(kind in weapon.traits for kind in TWO_WEAPON_KINDS):
            return f"two-weapon fire is for pistols and SMGs; {weapon.name} is neither"
    return None


def strength_requirement(base: int, *, two_weapons: bool) -> int:
    return base + TWO_WEAPON_STRENGTH_INCREASE if two_weapons else base
