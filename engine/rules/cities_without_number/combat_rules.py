"""Cities Without Number combat actions: the numbers each one uses, as plain functions.

Ranged attacks next to an enemy, Snap Attack, Swarm Attack, Charge, Screen an Ally,
Total Defense, Run and Fighting Withdrawal, Reload, Pick up, Go Prone. Distances are metres.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.routes.charge import RunUpCharge
from engine.rules.cities_without_number.economy import ActionType
from engine.tokens import Weapon

# --- Hit points ------------------------------------------------------------------------------

#: Hit points stop at 0: a body at zero is Mortally Wounded and damage past it is lost (the
#: game's rule; our texts are silent). They went below, so '-1/9' showed and a GM's heal of
#: 3 on a token at -3 left it at 0, still Mortally Wounded.
HIT_POINT_FLOOR = 0

# --- Ranged attacks in melee -----------------------------------------------------------------

#: Penalty for one-handed guns and thrown weapons with an enemy in melee range.
CLOSE_QUARTERS_PENALTY = -4
THROWN = "thrown"


def is_thrown(weapon: Weapon) -> bool:
    return THROWN in weapon.traits


def ranged_in_melee(weapon: Weapon, enemy_in_melee_range: bool) -> tuple[int, str | None]:
    """(to-hit modifier, refusal) for a ranged attack. Rifles and other two-handed ranged
    weapons cannot fire at all with an enemy in melee range; pistols and thrown weapons
    take -4."""
    if weapon.melee or not enemy_in_melee_range:
        return 0, None
    if weapon.two_handed and not is_thrown(weapon):
        return 0, f"{weapon.name} is two-handed and cannot fire with an enemy in melee range"
    return CLOSE_QUARTERS_PENALTY, None


# --- Snap Attack -----------------------------------------------------------------------------

SNAP_ATTACK_PENALTY = -4
#: Token stat marking an NPC drilled enough to Snap Attack (PCs always may).
DISCIPLINED_STAT = "disciplined"


# --- Swarm Attack ----------------------------------------------------------------------------

SWARM_MAX_ASSAILANTS = 4
SWARM_HIT_PER_OTHER = 2
SWARM_DAMAGE_PER_OTHER = 1
SWARM_HIT_CAP = 6
SWARM_DAMAGE_CAP = 3


@dataclass(frozen=True, slots=True)
class SwarmBonus:
    to_hit: int
    damage: int


def swarm_bonus(assailants: int) -> SwarmBonus:
    """The striker's bonus for ``assailants`` swarming the target (striker included):
    +2 to hit and +1 damage per other assailant, at most +6 and +3."""
    if not 1 <= assailants <= SWARM_MAX_ASSAILANTS:
        raise ValueError(
            f"a Swarm Attack has 1 to {SWARM_MAX_ASSAILANTS} assailants, not {assailants}"
        )
    others = assailants - 1
    return SwarmBonus(
        min(others * SWARM_HIT_PER_OTHER, SWARM_HIT_CAP),
        min(others * SWARM_DAMAGE_PER_OTHER, SWARM_DAMAGE_CAP),
    )


def swarm_damage(rolled: int, bonus: SwarmBonus, weapon_maximum: int) -> int:
    """The bonus damage never lifts a hit above the weapon's usual maximum."""
    return min(rolled + bonus.damage, max(rolled, weapon_maximum))


def swarm_shock_applies(target_on_total_defense: bool) -> bool:
    """Swarm Shock always lands (whatever the AC or shield) except on Total Defense."""
    return not target_on_total_defense


# --- Charge ----------------------------------------------------------------------------------

CHARGE_TO_HIT = 2
CHARGE_AC_PENALTY = -2
CHARGE_MIN_METRES = 3.0
CHARGE_SPEED_MULTIPLIER = 2


#: Charge: a straight run of 3 m or more, at most twice the normal move, ending next to the
#: target; +2 to hit, -2 AC until the end of the round.
CHARGE = RunUpCharge(
    minimum_run=CHARGE_MIN_METRES,
    minimum_unit="m",
    speed_multiple=CHARGE_SPEED_MULTIPLIER,
    attack_bonus=CHARGE_TO_HIT,
    defence_penalty=CHARGE_AC_PENALTY,
    penalty_lasts="until the end of the round",
)


def charge_weapon_refusal(weapon: Weapon) -> str | None:
    """A Charge ends in a melee or thrown attack."""
    if not (weapon.melee or is_thrown(weapon)):
        return f"a Charge ends in a melee or thrown attack, and {weapon.name} is neither"
    return None


# --- Screen an Ally --------------------------------------------------------------------------

SCREEN_RANGE_M = 3.0
SCREEN_SKILL_STAT = "combat_skill"


def screen_capacity(highest_combat_skill: int) -> int:
    """Attackers a screen can stop each round: the screener's best combat skill level."""
    return max(0, highest_combat_skill)


def screen_blocks(attack_is_gunfire: bool, integral_cyber_armor: bool) -> bool:
    """Only blows one could parry or body-block; gunfire needs integral cyber armour."""
    return not attack_is_gunfire or integral_cyber_armor


def screen_target(attacker_roll: int, defender_rolls: Mapping[str, int]) -> str | None:
    """Who the attack hits: None means the ward (every screen beaten); otherwise the screener
    with the worst roll among those who held (a tie holds: the screen stays in the way)."""
    held = {who: roll for who, roll in defender_rolls.items() if roll >= attacker_roll}
    if not held:
        return None
    return min(held, key=lambda who: (held[who], who))


# --- Total Defense, Prone ---------------------------------------------------------------------

TOTAL_DEFENSE_AC = 2
PRONE_RANGED_AGAINST = -2
PRONE_MELEE_AGAINST = 2


def prone_modifier_against(attack_is_melee: bool) -> int:
    """Attacks on a prone target: -2 from range, +2 in melee."""
    return PRONE_MELEE_AGAINST if attack_is_melee else PRONE_RANGED_AGAINST


def prone_speed(speed_m: float) -> float:
    return speed_m / 2


# --- Reload ----------------------------------------------------------------------------------

BOW = "bow"


def reload_cost(weapon: Weapon, shoot_skill: int) -> ActionType:
    """A gun reloads as a Main action; a modern bow or crossbow is On Turn with Shoot-1,
    otherwise a Move action."""
    if BOW in weapon.traits:
        return ActionType.ON_TURN if shoot_skill >= 1 else ActionType.MOVE
    return ActionType.MAIN
