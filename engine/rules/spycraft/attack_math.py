"""Attack checks, Defense, range, recoil and damage as Spycraft actions share them.

Choices where the two texts are silent (they point at pages not given to us), each a
module constant a table can change:

- Range: a ranged weapon reaches 10 range increments; -2 per full increment past the first.
- Recoil: a weapon trait ``recoil:N``; Burst, Autofire and Strafe take -1 per point the
  firer's Strength score (``str_score``, +2 when braced) falls short of N.
- Defense: the ``defense`` stat, plus dodge bonuses from Total Defense (+4), Fight
  Defensively (+2) and Anticipate, plus the conditions of ``condition_effects.json``
  (a flat-footed target loses his dodge bonuses and his Dexterity bonus), plus the
  target's cover from the map (``cover_grades.json``, Spycraft row: half cover +4).
- Damage: vitality first, then wounds; a critical hit goes straight to wounds.
- CQB Range: ``cqb_range`` stat in feet (default 10 ft, two squares).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice, Roll
from engine.encounter import EncounterState
from engine.rules.base import Event, EventKind, Modifier
from engine.rules.spycraft import board, cheap_shot, combat_state, condition_effects
from engine.rules.spycraft.checks import check_roll
from engine.rules.spycraft.geometry_bridge import cover, in_cone
from engine.rules.spycraft.stand_offs import end_stand_offs_for
from engine.tokens import Token, Weapon
from engine.words import counted

MAX_INCREMENTS = 10
RANGE_PENALTY = -2


def weapon_trait(weapon: Weapon, name: str, default: int = 0) -> int:
    for trait in weapon.traits:
        key, _, value = trait.partition(":")
        if key.strip() == name:
            try:
                return int(value)
            except ValueError:
                raise ValueError(
                    f"weapon {weapon.name!r}: trait {trait!r} needs a whole number"
                ) from None
    return default


def is_melee(weapon: Weapon | None) -> bool:
    return weapon is None or weapon.melee or weapon.range_increment <= 0


def max_range_ft(weapon: Weapon) -> float:
    return weapon.range_increment * MAX_INCREMENTS


def range_modifier(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon | None
) -> Modifier | None:
    if is_melee(weapon) or weapon is None:
        return None
    feet = board.feet_between(state, attacker, target)
    increments = int(feet // weapon.range_increment) if weapon.range_increment else 0
    if increments <= 0:
        return None
    return Modifier(f"range ({counted(increments + 1, 'increment')})", RANGE_PENALTY * increments)


def range_reasons(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon | None
) -> list[str]:
    if weapon is None or is_melee(weapon):
        reach = board.stat_int(attacker, "reach")
        if board.squares_between(state, attacker, target) > reach:
            return [f"{target.name} is out of reach"]
        return []
    feet = board.feet_between(state, attacker, target)
    if feet > max_range_ft(weapon):
        return [
            f"{target.name} is {feet:g} ft away, beyond {weapon.name}'s {max_range_ft(weapon):g} ft"
        ]
    return []


def cqb_range_ft(token: Token) -> float:
    return float(board.stat_int(token, "cqb_range"))


def recoil_modifier(attacker: Token, weapon: Weapon, doubled: bool = False) -> Modifier | None:
    recoil = weapon_trait(weapon, "recoil", 0)
    strength = board.stat_int(attacker, "str_score")
    if attacker.has_condition(board.BRACED):
        strength += 2
    short = recoil - strength
    if short <= 0:
        return None
    value = -short * (2 if doubled else 1)
    return Modifier("recoil" + (" (doubled)" if doubled else ""), value)


def attack_bonus(attacker: Token, weapon: Weapon | None) -> int:
    return board.stat_int(attacker, "melee_attack" if is_melee(weapon) else "ranged_attack")


def attacker_modifiers(
    state: EncounterState, attacker: Token, target: Token | None, weapon: Weapon | None
) -> list[Modifier]:
    """Penalties and bonuses the attacker carries into any attack check."""
    mods: list[Modifier] = []
    for name, label in (
        (board.DEFENSIVE, "fighting defensively"),
        (board.COVER_FIRED, "under Cover Fire"),
        (board.SUPPRESSED, "suppressed"),
    ):
        if attacker.has_condition(name):
            mods.append(Modifier(label, -4))
    mods.extend(condition_effects.attack_effects(attacker, is_melee(weapon)))
    cheap = cheap_shot.attack_penalty(attacker, is_melee(weapon))
    if cheap is not None:
        mods.append(cheap)
    if target is not None:
        for bonus in attacker.conditions:
            if bonus.name == "edge" and bonus.source == target.id:
                mods.append(Modifier("edge against this target", bonus.value))
        for brace in board.conditions_named(attacker, board.BRACED):
            if brace.source and _in_brace_cone(state, attacker, target, brace.source):
                mods.append(Modifier("braced (target in cone)", 1))
    return mods


def _in_brace_cone(state: EncounterState, attacker: Token, target: Token, facing: str) -> bool:
    """Is the target inside the 90-degree cone chosen with Brace (stored as a direction)?"""

    return in_cone(state, attacker, target, facing)


def defense(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon | None
) -> tuple[int, list[Modifier]]:
    """The target's Defense against this attack, and every named part of it.

    The one place Defense is computed: dodge bonuses, the target's conditions
    (``condition_effects``) and his cover from the map (engine.geometry's grades, the
    Spycraft row of ``cover_grades.json``).
    """
    base = board.stat_int(target, "defense")
    melee = is_melee(weapon)
    mods: list[Modifier] = []
    if not condition_effects.loses_dodge(target):
        if target.has_condition(board.TOTAL_DEFENSE):
            mods.append(Modifier("total defense (dodge)", 4, "defense"))
        if target.has_condition(board.DEFENSIVE):
            mods.append(Modifier("fighting defensively (dodge)", 2, "defense"))
        for anticipate in board.conditions_named(target, board.ANTICIPATING):
            if anticipate.source == attacker.id:
                mods.append(Modifier("anticipating (dodge)", anticipate.value, "defense"))
    mods.extend(condition_effects.defense_effects(target, melee, board.stat_int(target, "dex")))
    cover = cover_modifier(state, attacker, target)
    if cover is not None:
        mods.append(cover)
    return base + sum(m.value for m in mods), mods


def cover_modifier(state: EncounterState, attacker: Token, target: Token) -> Modifier | None:
    """The target's cover from the map as a named Defense bonus (None: no cover, or total)."""

    found = cover(state, attacker, target)
    if found.modifier is None or found.modifier.value == 0:
        return None
    words = found.level.words
    return Modifier(
        f"{words} cover {found.modifier.value:+d} Defense", found.modifier.value, "defense"
    )


@dataclass(frozen=True, slots=True)
class AttackResult:
    roll: Roll
    total: int
    defense: int
    hit: bool
    threat: bool
    error: bool
    margin: int


def roll_attack(
    dice: Dice,
    attacker: Token,
    target: Token,
    bonus: int,
    defense_value: int,
    error_range: int,
    purpose: str,
    threat_range: int = 20,
) -> AttackResult:
    roll = check_roll(dice, bonus, purpose)
    nat = roll.natural
    error = nat is not None and nat <= 1 + error_range
    threat = nat is not None and nat >= threat_range
    hit = (roll.total >= defense_value or nat == 20) and nat != 1
    return AttackResult(
        roll, roll.total, defense_value, hit, threat, error, roll.total - defense_value
    )


def apply_damage(
    state: EncounterState,
    target_id: str,
    amount: int,
    *,
    critical: bool = False,
    subdual: bool = False,
    source: str = "",
    attacker: str | None = None,
) -> tuple[EncounterState, list[Event]]:
    """Damage to vitality, overflow and critical hits to wounds; subdual is tracked apart."""
    target = state.token(target_id)
    events: list[Event] = []
    if amount <= 0:
        return state, events
    if subdual:
        total = board.stat_int(target, "subdual") + amount
        state = state.with_token(board.with_stats(target, subdual=total))
        events.append(
            Event(
                EventKind.DAMAGE,
                f"{target.name} takes {amount} subdual damage{source}.",
                (target_id,),
            )
        )
        return state, events
    vitality = board.stat_int(target, "vitality")
    wounds = board.stat_int(target, "wounds")
    if critical or vitality <= 0:
        to_wounds, to_vitality = amount, 0
    else:
        to_vitality = min(amount, vitality)
        to_wounds = amount - to_vitality
    vitality -= to_vitality
    wounds -= to_wounds
    if attacker is not None:
        state = combat_state.record_harm(state, attacker, target_id, to_vitality, to_wounds)
    state = state.with_token(board.with_stats(target, vitality=vitality, wounds=wounds))
    parts = []
    if to_vitality:
        parts.append(f"{to_vitality} vitality")
    if to_wounds:
        parts.append(counted(to_wounds, 'wound'))
    crit = " (critical hit: straight to wounds)" if critical else ""
    events.append(
        Event(
            EventKind.DAMAGE,
            f"{target.name} loses {' and '.join(parts)}{crit}{source}; "
            f"now {vitality} vitality, {counted(wounds, 'wound')}.",
            (target_id,),
        )
    )
    if to_wounds and state.combat.has(target_id):
        state = board.set_data(state, target_id, wounded=True)
        if critical:
            state = board.set_data(state, target_id, crit=True)

    state, ended = end_stand_offs_for(state, target_id)
    events.extend(ended)
    if wounds <= 0 and not target.has_condition(board.UNCONSCIOUS):
        state, down = board.add_condition(state, target_id, board.UNCONSCIOUS)
        events.append(down)
    return state, events


def roll_damage(
    dice: Dice, attacker: Token, weapon: Weapon | None, purpose: str, extra: int = 0
) -> Roll:
    expression = (
        weapon.damage if weapon is not None else board.STATS.text(attacker, "unarmed_damage")
    )
    str_mod = board.stat_int(attacker, "str")
    if is_melee(weapon):
        extra += str_mod
    if extra:
        expression = f"{expression}{extra:+d}"
    return dice.roll(expression, purpose)
