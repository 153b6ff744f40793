"""Cities Without Number attack rolls, damage, Shock and screens.

An attack is 1d20 + attack bonus + combat skill + attribute modifier against the target's
Melee or Ranged AC. A hit rolls the weapon's damage plus the attribute modifier; a melee miss
still deals the weapon's Shock (a ``shock:N/AC`` trait: N damage to targets whose AC is AC or
less) unless the target is on Total Defense. A body at 0 hit points is Mortally Wounded.

Cover between shooter and target comes from the map (the geometry package's table for this
system). Range: ``range_increment`` is the weapon's normal range in metres; shots past it take -2,
up to four times that distance (a ``max:N`` or ``range N/M m`` trait sets the maximum).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice, Roll
from engine.encounter import EncounterState
from engine.geometry.cover import CoverLevel, cover_between
from engine.rules import common
from engine.rules.base import Event, EventKind, Modifier
from engine.rules.cities_without_number import board
from engine.rules.cities_without_number import combat_rules as rules
from engine.rules.cities_without_number.schema import STATS
from engine.rules.cities_without_number.tables import COVER
from engine.tokens import Token, Weapon

LONG_RANGE_PENALTY = -2
DEFAULT_MAX_FACTOR = 4
SCREEN_ROLL = "2d6"
UNARMED = Weapon("Unarmed", "1d2", melee=True, traits=("punch", "shock:1/15"))
_RANGE = re.compile(r"^range (\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)\s*m?$")
_DAMAGE = re.compile(r"^(\d*)d(\d+)([+-]\d+)?$")


class AttackError(ValueError):
    pass


def _trait_value(weapon: Weapon, name: str) -> str | None:
    for trait in weapon.traits:
        if trait.startswith(f"{name}:"):
            return trait.partition(":")[2].strip()
    return None


def shock(weapon: Weapon) -> tuple[int, int] | None:
    """(damage, AC threshold) of a melee weapon's Shock, if it has any."""
    text = _trait_value(weapon, "shock")
    if text is None:
        return None
    amount, _, threshold = text.partition("/")
    try:
        return int(amount), int(threshold or 99)
    except ValueError:
        raise AttackError(f"{weapon.name}: Shock must read like 'shock:2/13', not {text!r}") \
            from None


def max_range(weapon: Weapon) -> float:
    """The longest shot: a ``max:N`` trait, a ``range N/M m`` trait, else four times normal."""
    text = _trait_value(weapon, "max")
    if text:
        return float(text)
    for trait in weapon.traits:
        match = _RANGE.match(trait.strip().lower())
        if match:
            return float(match.group(2))
    return weapon.range_increment * DEFAULT_MAX_FACTOR


def skill_for(weapon: Weapon) -> str:
    if not weapon.melee:
        return "shoot"
    punch = any(t.lower() == "punch" for t in weapon.traits) or weapon.name == "Unarmed"
    return "punch" if punch else "stab"


def attribute_for(attacker: Token, weapon: Weapon) -> int:
    if weapon.melee:
        return board.stat_int(attacker, "str_mod")
    return board.stat_int(attacker, "dex_mod")


def armour_class(target: Token, melee: bool) -> tuple[int, list[Modifier]]:
    base = board.stat_int(target, "ac_melee" if melee else "ac_ranged")
    mods: list[Modifier] = []
    if target.has_condition(board.TOTAL_DEFENSE):
        mods.append(Modifier("Total Defense", rules.TOTAL_DEFENSE_AC, "AC"))
    if target.has_condition(board.CHARGING):
        mods.append(Modifier("Charging", rules.CHARGE_AC_PENALTY, "AC"))
    return base + sum(m.value for m in mods), mods


@dataclass(frozen=True, slots=True)
class AttackPlan(common.ModifierTotals):
    weapon: Weapon
    melee: bool
    armour_class: int
    modifiers: tuple[Modifier, ...]
    damage_modifiers: tuple[Modifier, ...]


def plan_attack(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon,
    extra: Sequence[Modifier] = (), extra_damage: Sequence[Modifier] = (),
) -> AttackPlan:
    """The roll an attack makes, or :class:`AttackError` saying why it cannot be made."""
    if board.out_of_fight(target):
        raise AttackError(f"{target.name} is already down")
    melee = weapon.melee
    mods: list[Modifier] = []
    attribute = attribute_for(attacker, weapon)
    mods.append(Modifier("Attack bonus", board.stat_int(attacker, "attack_bonus")))
    skill = skill_for(weapon)
    mods.append(Modifier(f"{skill.title()} skill", board.skill(attacker, skill)))
    mods.append(Modifier("Attribute", attribute))
    if melee:
        if not common.within(attacker, target, board.stat_int(attacker, "reach")):
            raise AttackError(f"{target.name} is not in melee range")
    else:
        distance = board.metres_between(state, attacker, target)
        if distance > max_range(weapon):
            raise AttackError(f"{target.name} is {distance:g} m away, beyond {weapon.name}'s "
                              f"{max_range(weapon):g} m")
        if distance > weapon.range_increment:
            mods.append(Modifier("Long range", LONG_RANGE_PENALTY))
        penalty, refusal = rules.ranged_in_melee(weapon, board.enemy_in_melee(state, attacker))
        if refusal:
            raise AttackError(refusal)
        if penalty:
            mods.append(Modifier("Enemy in melee range", penalty))
        cover = cover_between(state.battlemap, attacker, target, COVER)
        if cover.level is CoverLevel.TOTAL:
            raise AttackError(f"{target.name} is behind total cover")
        if cover.modifier is not None and cover.modifier.value:
            mods.append(Modifier(cover.modifier.rule, cover.modifier.value))
    if target.has_condition(board.PRONE):
        mods.append(Modifier("Prone target", rules.prone_modifier_against(melee)))
    ac, ac_mods = armour_class(target, melee)
    mods = [m for m in mods if m.value] + list(extra)
    damage = [Modifier("Attribute", attribute, "damage"), *extra_damage]
    return AttackPlan(weapon, melee, ac, (*mods, *ac_mods), tuple(damage))


@dataclass(frozen=True, slots=True)
class AttackResult:
    hit: bool
    damage: int
    events: tuple[Event, ...]


def max_damage(expression: str) -> int | None:
    """The highest a damage expression like "1d8+2" or "2d6" can roll (None if unreadable)."""
    match = _DAMAGE.match(expression.replace(" ", "").lower())
    if not match:
        return None
    count, sides, bonus = int(match.group(1) or 1), int(match.group(2)), int(match.group(3) or 0)
    return count * sides + bonus


def roll_attack(
    state: EncounterState, attacker: Token, target: Token, plan: AttackPlan, dice: Dice,
    label: str, *, swarm: rules.SwarmBonus | None = None,
) -> tuple[EncounterState, AttackResult]:
    """Roll to hit and apply damage (or Shock on a miss).

    A Swarm Attack's bonus damage cannot lift the hit past the weapon's usual maximum and
    never adds to Shock, but its Shock lands whatever the target's AC (not on Total Defense).
    """
    to_hit = sum(m.value for m in plan.modifiers if m.applies_to != "AC")
    roll = dice.roll(f"1d20{to_hit:+d}", f"{attacker.name} {label}")
    hit = roll.total >= plan.armour_class
    events = [Event(EventKind.ATTACK, f"{attacker.name} {label} at {target.name}: {roll.total} "
                    f"against AC {plan.armour_class} - {'hit' if hit else 'miss'}.",
                    (attacker.id, target.id), roll)]
    amount = 0
    damage_roll: Roll | None = None
    if hit:
        # The bonus in the expression: the damage line's working adds up to what it says.
        bonus = f"{plan.damage_bonus:+d}" if plan.damage_bonus else ""
        damage_roll = dice.roll(plan.weapon.damage + bonus, f"{attacker.name} damage")
        amount = damage_roll.total
        if swarm is not None:
            ceiling = max_damage(plan.weapon.damage)
            top = ceiling + plan.damage_bonus if ceiling is not None else amount + swarm.damage
            amount = rules.swarm_damage(amount, swarm, top)
        amount = max(amount, 1)
    else:
        weapon_shock = shock(plan.weapon)
        defending = target.has_condition(board.TOTAL_DEFENSE)
        if weapon_shock is None:
            lands = False
        elif swarm is not None:
            lands = rules.swarm_shock_applies(defending)
        else:
            lands = not defending and plan.armour_class <= weapon_shock[1]
        if weapon_shock is not None and lands:
            amount = max(weapon_shock[0] + plan.damage_bonus, 0)
            events.append(Event(EventKind.DAMAGE, f"Shock: {target.name} takes {amount} even "
                                "so.", (target.id,)))
    if amount:
        state, more = apply_damage(state, target.id, amount, damage_roll)
        events.extend(more)
    return state, AttackResult(hit, amount, tuple(events))


def apply_damage(state: EncounterState, target_id: str, amount: int,
                 roll: Roll | None = None) -> tuple[EncounterState, list[Event]]:
    """Hit points off; ``roll``: the damage dice, whose faces the damage line shows."""
    return common.lose_hit_points(STATS, state, target_id, amount, _mark_down,
                                  rules.HIT_POINT_FLOOR, roll)


def _mark_down(state: EncounterState, target_id: str) -> tuple[EncounterState, Event]:
    return board.add_condition(state, target_id, board.DOWN)


# --- Screen an Ally --------------------------------------------------------------------------


def screeners(state: EncounterState, ward: Token, attack_is_gunfire: bool) -> list[Token]:
    """Screens that can still stop an attack on ``ward`` this round."""
    found = []
    for condition in ward.conditions:
        if condition.name != board.SCREENED or condition.source is None:
            continue
        if not any(t.id == condition.source for t in state.tokens):
            continue
        guard = state.token(condition.source)
        if board.out_of_fight(guard):
            continue
        if board.metres_between(state, guard, ward) > rules.SCREEN_RANGE_M:
            continue
        if not rules.screen_blocks(attack_is_gunfire, board.STATS.flag(guard, "cyber_armor")):
            continue
        used = int(common.data(state, guard.id, "screens_used", 0))
        if used >= rules.screen_capacity(board.combat_skill(guard)):
            continue
        found.append(guard)
    return found


def combat_check_bonus(token: Token) -> int:
    return board.combat_skill(token) + max(board.stat_int(token, "str_mod"),
                                           board.stat_int(token, "dex_mod"))


def resolve_screen(
    state: EncounterState, attacker: Token, ward: Token, attack_is_gunfire: bool, dice: Dice,
) -> tuple[EncounterState, Token, list[Event]]:
    """Who an attack on a screened ward really targets, after the opposed checks."""
    guards = screeners(state, ward, attack_is_gunfire)
    if not guards:
        return state, ward, []
    mine = dice.roll(f"{SCREEN_ROLL}{combat_check_bonus(attacker):+d}",
                     f"{attacker.name} gets past the screen")
    rolls: dict[str, int] = {}
    events: list[Event] = []
    for guard in guards:
        theirs = dice.roll(f"{SCREEN_ROLL}{combat_check_bonus(guard):+d}",
                           f"{guard.name} screens {ward.name}")
        rolls[guard.id] = theirs.total
        used = int(common.data(state, guard.id, "screens_used", 0))
        state = common.set_data(state, guard.id, screens_used=used + 1)
        events.append(Event(EventKind.ROLL, f"{guard.name} screens {ward.name}: {theirs.total} "
                            f"against {attacker.name}'s {mine.total} (Screen an Ally).",
                            (guard.id, attacker.id)))
    blocker = rules.screen_target(mine.total, rolls)
    if blocker is None:
        return state, ward, events
    guard = state.token(blocker)
    events.append(Event(EventKind.NOTE, f"{guard.name} takes the attack meant for {ward.name}.",
                        (guard.id, ward.id)))
    return state, guard, events
