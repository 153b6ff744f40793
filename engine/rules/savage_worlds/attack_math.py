"""Savage Worlds attack rolls and damage: hit, raise, Toughness, Shaken and Wounds.

Fighting is rolled against the target's Parry, Shooting against 4 with range and cover
penalties. A hit rolls the weapon's damage (dice ace), with a d6 more on a raise. Damage
that meets Toughness Shakes; each raise over it is a Wound (a Shaken victim Shaken again
takes a Wound). An Extra is out with any Wound; a Wild Card with more than three.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.cover import CoverLevel, cover_between
from engine.rules import common
from engine.rules.base import Event, EventKind, Modifier
from engine.rules.savage_worlds import board, incapacitation, rerolls, trait_bonuses
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds.tables import COVER
from engine.rules.savage_worlds.traits import acing_die, outcome, trait_roll
from engine.tokens import Token, Weapon
from engine.words import counted

RANGE_BANDS = ((1, 0, "Short"), (2, -2, "Medium"), (4, -4, "Long"), (16, -8, "Extreme"))
RAISE_DAMAGE_DIE = 6
_TERM = re.compile(r"^(\d*)d(\d+)$")


class AttackError(ValueError):
    pass


def range_modifier(weapon: Weapon, inches: float) -> tuple[int, str] | None:
    """Range penalty for a shot at ``inches`` (weapon.range_increment = Short range),
    or None when out of reach."""
    short = weapon.range_increment
    if short <= 0:
        return (0, "Short") if inches <= 1 else None
    for factor, modifier, name in RANGE_BANDS:
        if inches <= short * factor:
            return modifier, name
    return None


def roll_damage(expression: str, attacker: Token, dice: Dice, purpose: str) -> int:
    """Roll a Savage Worlds damage expression ("2d6", "Str+d6", "2d8+1"): every die aces."""
    total = 0
    for raw in expression.replace(" ", "").lower().split("+"):
        if not raw:
            raise AttackError(f"empty term in damage {expression!r}")
        if raw == "str":
            total += acing_die(board.trait_die(attacker, "strength")[0], dice, purpose)
        elif raw.isdigit():
            total += int(raw)
        elif match := _TERM.match(raw):
            count = int(match.group(1) or 1)
            for _ in range(count):
                total += acing_die(int(match.group(2)), dice, purpose)
        else:
            raise AttackError(f"cannot read damage {expression!r} (term {raw!r})")
    return total


@dataclass(frozen=True, slots=True)
class AttackPlan(common.ModifierTotals):
    """What an attack would roll: skill, target number and every modifier by name."""

    skill: str
    target_number: int
    modifiers: tuple[Modifier, ...]
    damage_modifiers: tuple[Modifier, ...]


def own_modifiers(state: EncounterState, actor: Token) -> list[Modifier]:
    """What every Trait roll of the actor carries this turn: wounds, Distracted, Joker,
    Multi-Action and running."""
    found = trait_bonuses.standing_modifiers(actor)
    actions = int(common.data(state, actor.id, "actions_taken", 0))
    if actions >= 1:
        found.append(Modifier("Multi-Action", -2 * actions))
    if common.data(state, actor.id, "ran", False):
        found.append(Modifier("Running", -2))
    return found


def common_modifiers(state: EncounterState, attacker: Token, target: Token) -> list[Modifier]:
    """The attacker's own modifiers, plus +2 against a Vulnerable target."""
    found = own_modifiers(state, attacker)
    if cond.modifier_against(target):
        found.append(Modifier("Vulnerable target", cond.modifier_against(target)))
    return found


def plan_attack(
    state: EncounterState,
    attacker: Token,
    target: Token,
    weapon: Weapon,
    extra: Sequence[Modifier] = (),
    extra_damage: Sequence[Modifier] = (),
) -> AttackPlan:
    """The roll an attack makes. Raises :class:`AttackError` when the target is out of reach."""
    mods = common_modifiers(state, attacker, target)
    damage = []
    if attacker.has_condition(cond.SWCondition.JOKER):
        damage.append(Modifier("Joker", 2, "damage"))
    if weapon.melee:
        if not common.adjacent(attacker, target):
            raise AttackError(f"{target.name} is not within reach of {weapon.name}")
        gang = board.gang_up(state, attacker, target)
        if gang:
            mods.append(Modifier("Gang Up", gang))
        skill, tn = "fighting", board.parry(target)
    else:
        inches = board.inches_between(state, attacker, target)
        band = range_modifier(weapon, inches)
        if band is None:
            raise AttackError(f"{target.name} is {inches:g}\" away, out of {weapon.name}'s range")
        if band[0]:
            mods.append(Modifier(f"{band[1]} range", band[0]))
        if not any(m.name == "Cover" for m in extra):
            mods.extend(cover_modifiers(state, attacker, target, inches))
        skill, tn = "shooting", 4
    bonus = weapon_bonus(weapon, skill)
    if bonus:
        mods.append(Modifier(weapon.name, bonus))
    mods.extend(trait_bonuses.trait_modifiers(attacker, skill))
    return AttackPlan(skill, tn, (*mods, *extra), (*damage, *extra_damage))


PRONE_COVER = -4


def cover_modifiers(
    state: EncounterState, shooter: Token, target: Token, inches: float
) -> list[Modifier]:
    """Cover between shooter and target from the map (geometry), or the Medium Cover a prone
    target counts as beyond 3", whichever is worse (they do not stack). The GM may override
    with the command option ``cover``."""
    cover = cover_between(state.battlemap, shooter, target, COVER)
    if cover.level is CoverLevel.TOTAL:
        raise AttackError(f"{target.name} is behind total cover")
    found = Modifier(cover.modifier.rule, cover.modifier.value) \
        if cover.modifier is not None and cover.modifier.value else None
    if target.has_condition(cond.SWCondition.PRONE) and inches > 3 and (
        found is None or found.value > PRONE_COVER
    ):
        found = Modifier("Prone target (Medium Cover)", PRONE_COVER)
    return [found] if found is not None else []


@dataclass(frozen=True, slots=True)
class AttackResult:
    hit: bool
    raises: int
    damage: int | None
    events: tuple[Event, ...]


def roll_attack(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon, plan: AttackPlan,
    dice: Dice, label: str, *, rerollable: bool = True,
) -> tuple[EncounterState, AttackResult]:
    """Roll to hit, then damage, and apply it. A miss is kept for a Benny's reroll
    (``rerolls``) unless the attack's hit brings more than damage (``rerollable``)."""
    die, untrained = board.trait_die(attacker, plan.skill)
    roll = trait_roll(die, dice, modifier=plan.to_hit + untrained,
                      wild_card=board.is_wild_card(attacker),
                      purpose=f"{attacker.name} {label}")
    state = trait_bonuses.spend_support(state, attacker.id, plan.skill)
    result = outcome(roll.total, plan.target_number)
    events = [Event(EventKind.ATTACK,
                    f"{attacker.name} {label} at {target.name}: {roll} against "
                    f"{plan.target_number} - {_words(result.success, result.raises)}.",
                    (attacker.id, target.id))]
    if not result.success:
        if rerollable:
            made = rerolls.RollMade(plan.skill, die, plan.to_hit + untrained, roll.total,
                                    roll.critical_failure)
            state = rerolls.keep(state, attacker.id, rerolls.RollKind.ATTACK, made,
                                 other=target.id, target_number=plan.target_number,
                                 weapon=weapon.name, label=label,
                                 damage_bonus=plan.damage_bonus,
                                 armor_piercing=armor_piercing(weapon))
        return state, AttackResult(False, 0, None, tuple(events))
    state, damage, more = hit_with(state, attacker, target, weapon, result.raises,
                                   plan.damage_bonus, armor_piercing(weapon), dice)
    return state, AttackResult(True, result.raises, damage, (*events, *more))


def hit_with(
    state: EncounterState, attacker: Token, target: Token, weapon: Weapon, raises: int,
    damage_bonus: int, armor_piercing: int, dice: Dice,
) -> tuple[EncounterState, int, list[Event]]:
    """A hit's damage (a d6 more with a raise), applied against the target's Toughness:
    the new state, the damage rolled and what it did."""
    damage = roll_damage(weapon.damage, attacker, dice, f"{attacker.name} damage")
    if raises:
        damage += acing_die(RAISE_DAMAGE_DIE, dice, f"{attacker.name} raise damage")
    damage += damage_bonus
    state, events = apply_damage(state, target.id, damage, armor_piercing, dice=dice)
    return state, damage, events


def weapon_named(attacker: Token, name: str) -> Weapon:
    """The attacker's weapon of that name, or bare hands (an unarmed blow has none)."""
    return next((w for w in attacker.weapons if w.name == name), UNARMED)


#: What a melee attack without a weapon strikes with.
UNARMED = Weapon("Unarmed", "Str", melee=True)


def _words(success: bool, raises: int) -> str:
    if not success:
        return "miss"
    return "hit with a raise" if raises else "hit"


def armor_piercing(weapon: Weapon) -> int:
    """A weapon's Armor Piercing, from an ``AP N`` trait (0 without one)."""
    for trait in weapon.traits:
        words = trait.split()
        if len(words) == 2 and words[0].upper() == "AP" and words[1].isdigit():
            return int(words[1])
    return 0


def weapon_bonus(weapon: Weapon, skill: str) -> int:
    """A weapon's own bonus to its skill, from a ``+N Shooting`` / ``+N Fighting`` trait."""
    for trait in weapon.traits:
        words = trait.split()
        if len(words) == 2 and words[1].lower() == skill and words[0].lstrip("+-").isdigit():
            return int(words[0])
    return 0


#: The combatant's record of its last hit: its Wounds not soaked yet, and whether it Shook.
LAST_HIT_WOUNDS = "last_hit_wounds"
LAST_HIT_SHAKEN = "last_hit_shaken"


def apply_damage(
    state: EncounterState, target_id: str, damage: int, armor_piercing: int = 0,
    extra_armor: int = 0, *, dice: Dice | None,
) -> tuple[EncounterState, list[Event]]:
    """Compare damage with Toughness: Shaken on a success, a Wound per raise. A Wild Card
    the Wounds take out rolls Vigor against Incapacitation with ``dice`` (None: the GM's
    damage, no roll; see ``incapacitation``)."""
    target = state.token(target_id)
    toughness = board.toughness(target, armor_piercing, extra_armor)
    result = outcome(damage, toughness)
    events = [Event(EventKind.DAMAGE,
                    f"{target.name} takes {damage} damage against Toughness {toughness}.",
                    (target_id,))]
    if not result.success:
        events.append(Event(EventKind.DAMAGE, f"{target.name} shrugs it off.", (target_id,)))
        return state, events
    new_wounds = result.raises
    if new_wounds == 0 and target.has_condition(cond.SWCondition.SHAKEN):
        new_wounds = 1
    shook = not target.has_condition(cond.SWCondition.SHAKEN)
    state, shaken = board.add_condition(state, target_id, cond.SWCondition.SHAKEN)
    events.extend(shaken)
    if state.combat.has(target_id):  # what a Soak may take back (soak_actions)
        fresh: dict[str, int | bool | str] = {LAST_HIT_WOUNDS: new_wounds,
                                              LAST_HIT_SHAKEN: shook,
                                              incapacitation.LAST_HIT_FATE: "",
                                              incapacitation.LAST_HIT_INJURY: ""}
        state = common.set_data(state, target_id, **fresh)
    if new_wounds:
        total = min(board.wounds(target) + new_wounds, board.WOUND_CEILING)
        state = common.set_stat(state, target_id, wounds=total)
        events.append(Event(EventKind.DAMAGE,
                            f"{target.name} takes {counted(new_wounds, 'Wound')} ({total} in all).",
                            (target_id,)))
        limit = 3 if board.is_wild_card(target) else 0
        if total > limit and not board.out_of_fight(target):
            state, out = incapacitation.taken_out(state, target_id, dice)
            events.extend(out)
    return state, events
