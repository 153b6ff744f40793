"""Savage Worlds Suppressive Fire: a Medium Blast Template of bullets.

One Shooting die (whatever the Rate of Fire) with Recoil always applied, figured to the
template's centre; then each target under the template compares that total with its own
modifiers: a success leaves it Distracted, a raise means it is hit (no bonus damage). At most
Rate-of-Fire targets take damage, the shooter picking which. The burst costs three times the
weapon's usual bullets for its Rate of Fire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.rules.savage_worlds.traits import outcome
from engine.tokens import Weapon
from engine.words import counted

#: Recoil penalty, always applied to Suppressive Fire.
RECOIL_PENALTY = -2
#: A Medium Blast Template has a radius of 2" (4" across).
TEMPLATE_RADIUS_INCHES = 2.0
#: Bullets a weapon normally spends per attack at each Rate of Fire (the core rule book's
#: table; our text only says "three times the usual"), and that multiplier.
BULLETS_PER_ROF: Mapping[int, int] = {1: 1, 2: 5, 3: 10, 4: 20, 5: 40, 6: 50}
MULTIPLIER = 3
#: A weapon trait meaning it must be reloaded (or re-cocked) between shots.
RELOADS_EACH_SHOT = "reload each shot"


class SuppressiveFireError(ValueError):
    pass


def bullets_needed(weapon: Weapon) -> int:
    """Three times the bullets of the weapon's Rate of Fire."""
    rof = max(1, weapon.rate_of_fire)
    if rof not in BULLETS_PER_ROF:
        raise SuppressiveFireError(f"{weapon.name}: no bullet count for Rate of Fire {rof}")
    return BULLETS_PER_ROF[rof] * MULTIPLIER


def refusal(weapon: Weapon, *, recoil_negated: bool = False) -> str | None:
    """Why this weapon cannot lay down Suppressive Fire, or None."""
    if weapon.melee:
        return f"{weapon.name} is not a firearm"
    if RELOADS_EACH_SHOT in weapon.traits or (0 < weapon.capacity < 2):
        return f"{weapon.name} must be reloaded between shots"
    needed = bullets_needed(weapon)
    if weapon.uses_ammunition and weapon.ammo < needed:
        return (f"{weapon.name} needs {counted(needed, 'round')} for Suppressive Fire, "
                f"has {weapon.ammo}")
    return None


def recoil_modifier(*, recoil_negated: bool = False) -> int:
    """Recoil always applies, unless an Edge, bipod or tripod negates it."""
    return 0 if recoil_negated else RECOIL_PENALTY


@dataclass(frozen=True, slots=True)
class SuppressiveResult:
    distracted: tuple[str, ...]
    #: Targets that would take damage (raise), before the Rate-of-Fire cap.
    could_be_hit: tuple[str, ...]
    #: Targets that do take damage (after the shooter's choice and the cap).
    hit: tuple[str, ...]


def resolve(
    shooting_total: int,
    target_modifiers: Mapping[str, int],
    rate_of_fire: int,
    chosen: Sequence[str] | None = None,
) -> SuppressiveResult:
    """Compare the single Shooting total with each target's own modifiers (cover, Dodge...).

    ``chosen`` orders the shooter's preference among targets that got a raise; without it
    the first ones in ``target_modifiers`` order are hit.
    """
    distracted: list[str] = []
    raised: list[str] = []
    for target, modifier in target_modifiers.items():
        result = outcome(shooting_total + modifier)
        if result.success:
            distracted.append(target)
        if result.raises >= 1:
            raised.append(target)
    preference = list(chosen) if chosen is not None else raised
    unknown = [t for t in preference if t not in raised]
    if unknown:
        raise SuppressiveFireError(f"not hit with a raise, so cannot be chosen: {unknown}")
    hit = tuple(preference[: max(1, rate_of_fire)])
    return SuppressiveResult(tuple(distracted), tuple(raised), hit)
