"""d20 firearms attack rolls: range increments, recoil, cover, threats and damage.

An attack is 1d20 + the attacker's bonus against the target's Defense (plus cover from the
geometry package). Each full range increment past the first costs -2 (at most ten). Recoil
is the weapon's ``recoil:N`` trait times the attack's step (Full-Auto: 1x, 2x, 3x), one less
when the shooter is braced on cover against the target. A natural 20 always hits and a 1
always misses; a natural roll in the threat range (``crit:19`` trait, 20 by default; Aiming
and Overwatch widen it; a ``critical:19-20/x2`` trait sets range and multiplier) is confirmed
with a second roll and multiplies the damage. At 0 hit points a character is Disabled, below
it dying, at -10 dead (``health``). A dying or stable target is a helpless defender: its
Dexterity counts as 0 (-5 in place of its own modifier in its Defense) and melee attacks
against it get a further -4 to its Defense; a dead one is no target.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice, Roll, summed
from engine.encounter import EncounterState
from engine.geometry.cover import CoverLevel, cover_between
from engine.rules import common
from engine.rules.base import Event, EventKind, Modifier
from engine.rules.d20_firearms import board, health
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.schema import STATS
from engine.rules.d20_firearms.tables import COVER
from engine.tokens import Token, Weapon

RANGE_PENALTY_PER_INCREMENT = -2
MAX_INCREMENTS = 10


class AttackError(ValueError):
    pass


def _trait(weapon: Weapon, *prefixes: str) -> str | None:
    for trait in weapon.traits:
        for prefix in prefixes:
            if trait.lower().startswith(prefix):
                return trait[len(prefix):].strip()
    return None


def _critical(weapon: Weapon) -> tuple[int, int]:
    """(lowest threatening roll, multiplier) from ``critical:19-20/x2`` (or ``crit:19`` and
    ``xN``); 20/x2 without one."""
    text = _trait(weapon, "critical:", "crit:")
    low, multiplier = 20, 2
    if text:
        threat, _, times = text.partition("/")
        first = threat.split("-")[0]
        if first.isdigit():
            low = int(first)
        if times.lower().startswith("x") and times[1:].isdigit():
            multiplier = int(times[1:])
    for trait in weapon.traits:
        if trait.startswith("x") and trait[1:].isdigit():
            multiplier = int(trait[1:])
    return low, multiplier


def base_threat(weapon: Weapon) -> int:
    return _critical(weapon)[0]


def crit_multiplier(weapon: Weapon) -> int:
    return _critical(weapon)[1]


def shooter_cover(state: EncounterState, shooter: Token, target: Token) -> CoverLevel:
    """How much cover the shooter has against the target (what it can brace on or hide
    behind)."""
    return cover_between(state.battlemap, target, shooter, COVER).level


@dataclass(frozen=True, slots=True)
class AttackPlan:
    weapon: Weapon
    defense: int
    modifiers: tuple[Modifier, ...]
    threat: int
    blind: bool = False

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers if m.applies_to == "attack")


def plan_attack(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon, *,
    recoil_step: int = 1, extra: Sequence[Modifier] = (), blind: bool = False,
) -> AttackPlan:
    """What the attack rolls against, or :class:`AttackError` saying why it cannot be made."""
    if board.dead(target):
        raise AttackError(f"{target.name} is dead")
    mods: list[Modifier] = []
    if weapon.melee:
        if not common.within(attacker, target, board.stat_int(attacker, "reach")):
            raise AttackError(f"{target.name} is not within reach")
        mods.append(Modifier("Melee attack bonus", board.stat_int(attacker, "melee_attack")))
    else:
        mods.append(Modifier("Ranged attack bonus", board.stat_int(attacker, "ranged_attack")))
        distance = board.feet_between(state, attacker, target)
        increment = max(weapon.range_increment, 1e-9)
        increments = max(0, math.ceil(distance / increment - 1e-9) - 1)
        if increments >= MAX_INCREMENTS:
            raise AttackError(f"{target.name} is {distance:g} ft away, beyond ten range "
                              f"increments of the {weapon.name}")
        if increments:
            mods.append(Modifier("Range increments", RANGE_PENALTY_PER_INCREMENT * increments))
        braced = not blind and shooter_cover(state, attacker, target) >= CoverLevel.LIGHT
        recoil = special.recoil_penalty(weapon, recoil_step, braced_on_cover=braced)
        if recoil:
            mods.append(Modifier(f"Recoil x{recoil_step}" + (" (braced on cover)" if braced
                                                              else ""), recoil))
    if attacker.has_condition(board.SUPPRESSED):
        mods.append(Modifier("Suppressed", special.SUPPRESSED_PENALTY))
    defense = board.stat_int(target, "defense")
    cover = cover_between(state.battlemap, attacker, target, COVER)
    if cover.level is CoverLevel.TOTAL and not blind:
        raise AttackError(f"{target.name} is behind total cover")
    if cover.modifier is not None and cover.modifier.value and not weapon.melee:
        mods.append(Modifier(cover.modifier.rule, cover.modifier.value, "Defense"))
        defense += cover.modifier.value
    if board.helpless(target):
        dex, melee = special.helpless_defense(board.stat_int(target, "dex_mod"), weapon.melee)
        mods += [Modifier("Helpless (Dexterity counts as 0)", dex, "Defense"),
                 Modifier("Helpless (melee)", melee, "Defense")]
        defense += dex + melee
    if target.has_condition(board.CHARGING):
        mods.append(Modifier("Charging target", special.CHARGE_DEFENSE_PENALTY, "Defense"))
        defense += special.CHARGE_DEFENSE_PENALTY
    aiming = attacker.has_condition(board.AIMING) and not blind and not weapon.melee
    overwatch = board.overwatch(attacker)
    on_target = overwatch is not None and (overwatch.source == target.id
                                           or overwatch.square in target.squares)
    watch = overwatch.value if overwatch is not None and on_target else 0
    threat = special.threat_range(base_threat(weapon), aiming=aiming, overwatch=watch)
    if threat < base_threat(weapon):
        mods.append(Modifier("Threat range", base_threat(weapon) - threat, "threat range"))
    return AttackPlan(weapon, defense, (*[m for m in mods if m.value], *extra), threat, blind)


@dataclass(frozen=True, slots=True)
class AttackResult:
    hit: bool
    damage: int
    events: tuple[Event, ...]


def roll_attack(
    state: EncounterState, attacker: Token, target: Token, plan: AttackPlan, dice: Dice,
    label: str,
) -> tuple[EncounterState, AttackResult]:
    events: list[Event] = []
    if plan.blind:
        chance = dice.roll("1d100", f"{attacker.name} Blind-Fire miss chance")
        if special.blind_fire_misses(chance.total):
            events.append(Event(EventKind.ATTACK, f"{attacker.name} {label} blindly at "
                                f"{target.name}: the 50% miss chance takes it ({chance.total}).",
                                (attacker.id, target.id), chance))
            return state, AttackResult(False, 0, tuple(events))
    roll = dice.roll(f"1d20{plan.bonus:+d}", f"{attacker.name} {label}")
    natural = roll.natural if roll.natural is not None else roll.total - plan.bonus
    hit = natural != 1 and (natural == 20 or roll.total >= plan.defense)
    events.append(Event(EventKind.ATTACK, f"{attacker.name} {label} at {target.name}: "
                        f"{roll.total} against Defense {plan.defense} - "
                        f"{'hit' if hit else 'miss'}.", (attacker.id, target.id), roll))
    if not hit:
        return state, AttackResult(False, 0, tuple(events))
    multiplier = 1
    if natural >= plan.threat:
        confirm = dice.roll(f"1d20{plan.bonus:+d}", f"{attacker.name} confirms the critical")
        if confirm.total >= plan.defense:
            multiplier = crit_multiplier(plan.weapon)
            events.append(Event(EventKind.ATTACK, f"Critical hit (x{multiplier}).",
                                (attacker.id,), confirm))
    rolled = summed([dice.roll(plan.weapon.damage, f"{attacker.name} damage")
                     for _ in range(multiplier)], f"{attacker.name} damage")
    damage = rolled.total
    state, more = apply_damage(state, target.id, max(damage, 1), dice, rolled)
    return state, AttackResult(True, damage, (*events, *more))


def roll_attack_outcome(
    state: EncounterState, attacker: Token, target: Token, plan: AttackPlan, dice: Dice,
    label: str,
) -> tuple[EncounterState, tuple[Event, ...]]:
    """:func:`roll_attack` as a (state, events) pair."""
    state, result = roll_attack(state, attacker, target, plan, dice, label)
    return state, result.events


def apply_damage(state: EncounterState, target_id: str, amount: int, dice: Dice,
                 roll: Roll | None = None) -> tuple[EncounterState, list[Event]]:
    """One hit's damage: hit points off, at 0 or below the mark its hit points call for,
    then the save against massive damage (``health``). ``roll``: the damage dice, shown."""
    state, events = common.lose_hit_points(STATS, state, target_id, amount, health.mark_down,
                                           roll=roll)
    state, massive = health.massive_damage(state, target_id, amount, dice)
    return state, [*events, *massive]
