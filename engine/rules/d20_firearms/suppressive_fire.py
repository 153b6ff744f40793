"""d20 Suppressive Fire: the 10 ft by 10 ft area and who stands in it.

The area is 2 x 2 squares (its top-left square given), attacked against Defense 10 (-4
without Advanced Firearms Proficiency); it needs and spends 10 rounds. On a hit, everyone
inside takes -4 to Perception and attacks and saves (Reflex DC 15) or takes damage.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.geometry.results import AffectedToken, Modifier, squares_shape
from engine.geometry.suppression import SuppressionArea, sight_reasons
from engine.grid import Square
from engine.rules.d20_firearms import combat_rules as rules
from engine.words import counted


def suppressive_fire_area(
    encounter: EncounterState,
    shooter_id: str,
    top_left: Square,
    weapon_name: str,
    *,
    advanced_firearms_proficiency: bool = False,
) -> SuppressionArea:
    """d20 Suppressive Fire on the 10 ft by 10 ft area whose top-left square is given."""
    shooter = encounter.token(shooter_id)
    weapon = shooter.weapon(weapon_name)
    top_left = Square(*top_left)
    side = encounter.scale.squares(rules.SUPPRESSIVE_AREA_FT)
    squares = [top_left.offset(dx, dy) for dy in range(side) for dx in range(side)]
    off = [s for s in squares if not encounter.battlemap.in_bounds(s)]
    if off:
        raise ValueError(f"the suppressed area reaches off the map at {off[0]}")
    reasons: list[str] = []
    if weapon.ammo < rules.SUPPRESSIVE_ROUNDS:
        reasons.append(
            f"the {weapon.name} has {counted(weapon.ammo, 'round')}; Suppressive Fire needs "
            f"{rules.SUPPRESSIVE_ROUNDS}"
        )
    modes = " ".join(weapon.modes).lower()
    if weapon.melee or (weapon.modes and not any(w in modes for w in ("semi", "auto", "burst"))):
        reasons.append(
            f"Suppressive Fire needs at least a semi-automatic weapon; the {weapon.name} is not"
        )
    reasons += sight_reasons(encounter, shooter, squares)
    attack = [Modifier("Suppressive Fire", rules.SUPPRESSIVE_DEFENSE, "Defense of the area")]
    if not advanced_firearms_proficiency:
        attack.append(
            Modifier(
                "No Advanced Firearms Proficiency",
                rules.SUPPRESSIVE_UNTRAINED,
                "to the attack roll",
            )
        )
    effects = (
        Modifier("Suppressive Fire", rules.SUPPRESSED_PENALTY, "to Perception checks"),
        Modifier("Suppressive Fire", rules.SUPPRESSED_PENALTY, "to attack rolls"),
        Modifier(
            "Suppressive Fire",
            rules.SUPPRESSIVE_REFLEX_DC,
            "Reflex save DC or take the weapon's damage",
        ),
    )
    inside = frozenset(squares)
    tokens = tuple(
        AffectedToken(t.id, under, effects)
        for t in encounter.others(shooter.id)
        if (under := tuple(s for s in t.squares if s in inside))
    )
    return SuppressionArea(
        shooter.id,
        weapon.name,
        squares_shape(squares),
        inside,
        rules.SUPPRESSIVE_ROUNDS,
        tokens,
        effects,
        tuple(attack),
        tuple(reasons),
    )
