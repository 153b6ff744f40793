"""The d20 cones: Aiming and Covering Fire, drawn by engine.geometry with the numbers of
``combat_rules`` (the rule's numbers live there once; this module only lays the cones).

Both are quarter circles (a d20 cone is 90 degrees) from the centre of the actor's space,
its own squares left out; a square counts when its centre lies inside.
"""

from __future__ import annotations

from engine.encounter import EncounterState
from engine.geometry.areas import token_cone
from engine.geometry.los import token_line_of_sight
from engine.geometry.results import AffectedToken, Modifier, TemplateResult, opponents_inside
from engine.grid import Unit
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.tables import INCLUSION
from engine.tokens import Weapon

#: A d20 cone is a quarter circle.
AIMING_ANGLE = 90.0
COVERING_FIRE_ANGLE = 90.0


def aiming_area(encounter: EncounterState, token_id: str, direction: float) -> TemplateResult:
    """Aiming: a 60 ft cone; the aimer's Perception is +5 inside it and -5 outside
    (``combat_rules.AIM_PERCEPTION_CONE_FT`` and ``aiming_perception``).

    Every other token is listed, with the modifier the aimer has to notice it.
    """
    length = special.AIM_PERCEPTION_CONE_FT / _feet_per_square(encounter)
    shape, squares = token_cone(
        encounter, token_id, direction, length, AIMING_ANGLE, inclusion=INCLUSION
    )
    inside = Modifier("Aiming", special.aiming_perception(True),
                      "to the aimer's Perception to notice this token")
    outside = Modifier(
        "Aiming",
        special.aiming_perception(False),
        "to the aimer's Perception to notice this token (outside the cone)",
    )
    tokens = []
    for other in encounter.others(token_id):
        under = tuple(s for s in other.squares if s in squares)
        tokens.append(AffectedToken(other.id, under, (inside if under else outside,)))
    return TemplateResult(shape, squares, tuple(tokens))


def covering_fire_area(
    encounter: EncounterState, token_id: str, direction: float, weapon_name: str
) -> TemplateResult:
    """Covering Fire: a cone as long as the weapon's range increment
    (``combat_rules.covering_fire_cone_ft``).

    Opponents inside whom the shooter can see may be attacked (once per attack action) and
    may dive for cover with a Reflex save (``combat_rules.COVERING_FIRE_REFLEX_DC``). Not
    allowed with melee weapons or weapons that fire only single shots
    (``combat_rules.covering_fire_refusal``).
    """
    token = encounter.token(token_id)
    weapon = token.weapon(weapon_name)
    reasons = _covering_fire_problems(weapon)
    length = max(special.covering_fire_cone_ft(weapon), 1e-6) / encounter.scale.square_size
    shape, squares = token_cone(
        encounter, token_id, direction, length, COVERING_FIRE_ANGLE, inclusion=INCLUSION
    )
    save = Modifier(
        "Covering Fire",
        special.COVERING_FIRE_REFLEX_DC,
        "Reflex save DC to take cover after the first attack action",
    )
    # A foe the shooter cannot see (behind a wall: total cover) is not under the fire: it is
    # not shot at, rolls no save and does not dive; the cone is still drawn whole.
    tokens = tuple(
        affected for affected in opponents_inside(encounter, token_id, squares, (save,))
        if token_line_of_sight(encounter.battlemap, token, encounter.token(affected.token_id))
    )
    return TemplateResult(shape, squares, tokens, reasons, allowed=not reasons)


def _feet_per_square(encounter: EncounterState) -> float:
    return encounter.scale.square_size * encounter.scale.unit.metres / Unit.FEET.metres


def _covering_fire_problems(weapon: Weapon) -> tuple[str, ...]:
    if weapon.melee or weapon.range_increment <= 0:
        return (
            f"Covering Fire needs a firearm with a range increment; the {weapon.name} has none",
        )
    refusal = special.covering_fire_refusal(weapon)
    return (refusal,) if refusal else ()
