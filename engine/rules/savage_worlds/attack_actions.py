"""Savage Worlds attacks: Fighting, Shooting, Called Shots, Desperate, Wild and Touch
Attacks, Disarm, Finishing Move and Suppressive Fire.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.results import TemplateResult
from engine.overlay import Overlay, OverlayToken, Role, ShapeKind
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.overlays import target_overlay, template_overlay
from engine.rules.savage_worlds import (
    area_attack,
    attack_math,
    board,
    incapacitation,
    maneuvers,
    templates,
    trait_bonuses,
)
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds import suppressive_fire as sup
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.handlers import (
    attack_check,
    attack_describe,
    attack_extras,
    attack_resolve,
    plan_for,
    register,
    simple_describe,
    target_of,
    target_reasons,
    weapon_of,
)
from engine.rules.savage_worlds.traits import outcome, trait_roll
from engine.tokens import Token, Weapon
from engine.words import counted

# --- Fighting, Shooting and their variants -----------------------------------------------------

register("fighting", attack_check(True), attack_describe("Fighting", True),
          attack_resolve("attacks (Fighting)", True))
register("shooting", attack_check(False), attack_describe("Shooting", False),
          attack_resolve("shoots", False))


def _desperate(command: Command) -> list[Modifier]:
    step = int(command.option("step", 2) or 2)
    mods = maneuvers.desperate_attack(step)
    return [Modifier("Desperate Attack", mods.to_hit)]


def _desperate_damage(command: Command) -> list[Modifier]:
    step = int(command.option("step", 2) or 2)
    return [Modifier("Desperate Attack", -step, "damage")]


def _desperate_check(state: EncounterState, command: Command) -> list[str]:
    if common.data(state, str(command.actor), "wild_attack", False):
        return ["a Desperate Attack cannot be combined with a Wild Attack"]
    return attack_check(True, _desperate)(state, command)


register("desperate_attack", _desperate_check,
          attack_describe("Desperate Attack", True, _desperate, _desperate_damage),
          attack_resolve("makes a Desperate Attack", True, _desperate, _desperate_damage))


def _wild(command: Command) -> list[Modifier]:
    return [Modifier("Wild Attack", maneuvers.WILD_ATTACK.to_hit)]


def _wild_damage(command: Command) -> list[Modifier]:
    return [Modifier("Wild Attack", maneuvers.WILD_ATTACK.damage, "damage")]


def _after_wild(state: EncounterState, command: Command, result: attack_math.AttackResult,
                dice: Dice) -> Outcome:
    actor = str(command.actor)
    state = common.set_data(state, actor, wild_attack=True)
    token = state.token(actor)
    # Vulnerable until the end of the attacker's *next* turn, not this one.
    vulnerable = cond.condition(SWCondition.VULNERABLE, state.combat.round, actor, True,
                                source="Wild Attack")
    state = common.put(state, cond.with_condition(token, vulnerable))
    return state, (Event(EventKind.CONDITION,
                         f"{token.name} is Vulnerable until the end of the next turn "
                         "(Wild Attack).", (actor,)),)


def _wild_check(state: EncounterState, command: Command) -> list[str]:
    return attack_check(True, _wild)(state, command)


register("wild_attack", _wild_check,
          attack_describe("Wild Attack", True, _wild, _wild_damage,
                           "Leaves the attacker Vulnerable until the end of the next turn."),
          attack_resolve("makes a Wild Attack", True, _wild, _wild_damage, _after_wild))


def _touch(command: Command) -> list[Modifier]:
    return [Modifier("Touch Attack", maneuvers.TOUCH_ATTACK.to_hit)]


def _touch_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    return [] if common.adjacent(actor, target) else [f"{target.name} is not within reach"]


def _touch_plan(state: EncounterState, command: Command) -> attack_math.AttackPlan:
    actor, target = actor_of(state, command), target_of(state, command)
    hand = Weapon("Touch", "0", melee=True)
    extra = attack_extras(state, command)
    return attack_math.plan_attack(state, actor, target, hand, [*extra, *_touch(command)])


def _touch_describe(state: EncounterState, command: Command) -> Preview:
    try:
        plan = _touch_plan(state, command)
    except (KeyError, attack_math.AttackError) as error:
        return Preview(command, False, summary=f"Touch Attack: {error}")
    target = target_of(state, command)
    return Preview(command, True, summary=f"Touch Attack: Fighting {plan.to_hit:+d} against "
                   f"Parry {plan.target_number}; a hit only touches.", modifiers=plan.modifiers,
                   targets=(target.id,), rolls=("fighting",), cost="1 action",
                   overlay=target_overlay(str(command.actor), (target.id,), plan.modifiers))


def _touch_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    plan = _touch_plan(state, command)
    die, untrained = board.trait_die(actor, "fighting")
    roll = trait_roll(die, dice, modifier=plan.to_hit + untrained,
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} touch")
    state = trait_bonuses.spend_support(state, actor.id, "fighting")
    hit = outcome(roll.total, plan.target_number).success
    text = "touches" if hit else "fails to touch"
    return state, (Event(EventKind.ATTACK, f"{actor.name} {text} {target.name} (Touch Attack, "
                         f"{roll}).", (actor.id, target.id)),)


register("touch_attack", _touch_check, _touch_describe, _touch_resolve)


def _called(command: Command) -> maneuvers.CalledShot:
    where = maneuvers.CalledShotTarget(str(command.option("location", "head or vitals")))
    scale_value = command.option("scale")
    scale = maneuvers.Scale(int(scale_value)) if scale_value is not None else None
    return maneuvers.called_shot(where, scale=scale,
                                 open_faced_helmet=bool(command.option("helmet", False)))


def _called_mods(command: Command) -> list[Modifier]:
    shot = _called(command)
    return [Modifier(f"Called Shot ({shot.target})", shot.modifier)]


def _called_damage(command: Command) -> list[Modifier]:
    shot = _called(command)
    return [Modifier("Called Shot (head or vitals)", shot.extra_damage, "damage")] \
        if shot.extra_damage else []


def _called_check(state: EncounterState, command: Command) -> list[str]:
    try:
        _called(command)
    except ValueError as error:
        return [f"Called Shot: {error}"]
    return attack_check(None, _called_mods)(state, command)


def _after_called(state: EncounterState, command: Command, result: attack_math.AttackResult,
                  dice: Dice) -> Outcome:
    shot = _called(command)
    if result.hit and shot.may_disarm:
        return _disarm_after(state, command, result, dice)
    return state, ()


register("called_shot", _called_check,
          attack_describe("Called Shot", None, _called_mods, _called_damage),
          attack_resolve("makes a Called Shot", None, _called_mods, _called_damage,
                          _after_called, rerollable=False))


# --- Disarm ------------------------------------------------------------------------------------


def _disarm_location(command: Command) -> maneuvers.CalledShotTarget:
    return maneuvers.CalledShotTarget(str(command.option("location", "hand")))


def _disarm_mods(command: Command) -> list[Modifier]:
    where = _disarm_location(command)
    scale = maneuvers.Scale(int(command.option("scale", -4) or 0)) \
        if where is maneuvers.CalledShotTarget.ITEM else None
    shot = maneuvers.called_shot(where, scale=scale)
    return [Modifier(f"Called Shot ({where})", shot.modifier)]


def _disarm_check(state: EncounterState, command: Command) -> list[str]:
    try:
        where = _disarm_location(command)
    except ValueError:
        return ["Disarm aims at a hand, a limb or the item"]
    if where not in (maneuvers.CalledShotTarget.HAND, maneuvers.CalledShotTarget.LIMB,
                     maneuvers.CalledShotTarget.ITEM):
        return ["Disarm aims at a hand, a limb or the item"]
    reasons = attack_check(None, _disarm_mods)(state, command)
    if not reasons and not target_of(state, command).weapons:
        reasons.append(f"{target_of(state, command).name} holds nothing to drop")
    return reasons


def _drop_weapon(state: EncounterState, target: Token) -> tuple[EncounterState, list[Event]]:
    if not target.weapons:
        return state, []
    dropped, rest = target.weapons[0], target.weapons[1:]
    state = common.put(state, replace(state.token(target.id), weapons=rest))
    return state, [Event(EventKind.NOTE, f"{target.name} drops the {dropped.name} (Disarm).",
                         (target.id,))]


def _disarm_after(state: EncounterState, command: Command, result: attack_math.AttackResult,
                  dice: Dice) -> Outcome:
    target = target_of(state, command)
    where = _disarm_location(command) if command.action == "disarm" else _called(command).target
    die, _ = board.trait_die(target, "strength")
    resisting = sum(m.value for m in trait_bonuses.resisting_modifiers(target, "strength"))
    state = trait_bonuses.spend_support(state, target.id, "strength")
    if where is maneuvers.CalledShotTarget.ITEM:
        roll = trait_roll(die, dice, modifier=resisting, wild_card=board.is_wild_card(target),
                          purpose=f"{target.name} Strength to keep hold")
        keeps = maneuvers.keeps_item(roll.total, item_damage=result.damage)
    else:
        shaken_or_hurt = target.has_condition(SWCondition.SHAKEN) or board.wounds(target) > 0
        if not shaken_or_hurt:
            return state, ()
        # The resisting modifiers already hold the wound penalty.
        modifier = maneuvers.disarm_strength_modifier(where) + resisting
        roll = trait_roll(die, dice, modifier=modifier, wild_card=board.is_wild_card(target),
                          purpose=f"{target.name} Strength to keep hold")
        keeps = maneuvers.keeps_item(roll.total)
    events = [Event(EventKind.ROLL, f"{target.name} Strength to keep hold: {roll}.",
                    (target.id,))]
    if keeps:
        events.append(Event(EventKind.NOTE, f"{target.name} keeps hold.", (target.id,)))
        return state, tuple(events)
    state, dropped = _drop_weapon(state, target)
    return state, (*events, *dropped)


def _disarm_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    where = _disarm_location(command)
    if where is maneuvers.CalledShotTarget.ITEM:
        # Hitting the item: damage goes to the item, not the wielder.
        actor, target, weapon, plan = plan_for(state, command, melee=None,
                                               extra=_disarm_mods(command))
        die, untrained = board.trait_die(actor, plan.skill)
        roll = trait_roll(die, dice, modifier=plan.to_hit + untrained,
                          wild_card=board.is_wild_card(actor), purpose=f"{actor.name} disarm")
        state = trait_bonuses.spend_support(state, actor.id, plan.skill)
        hit = outcome(roll.total, plan.target_number).success
        events = [Event(EventKind.ATTACK, f"{actor.name} strikes at {target.name}'s weapon: "
                        f"{roll} - {'hit' if hit else 'miss'}.", (actor.id, target.id))]
        if not hit:
            return state, tuple(events)
        damage = attack_math.roll_damage(weapon.damage, actor, dice, f"{actor.name} item damage")
        result = attack_math.AttackResult(True, 0, damage, ())
        state, more = _disarm_after(state, command, result, dice)
        return state, (*events, *more)
    return attack_resolve("tries to Disarm", None, _disarm_mods, None, _disarm_after,
                          rerollable=False)(state, command, dice)


register("disarm", _disarm_check, attack_describe("Disarm", None, _disarm_mods),
          _disarm_resolve)


# --- Finishing Move --------------------------------------------------------------------------


def _finish_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return [str(error.args[0])]
    lethal = weapon.name != "Unarmed"
    reason = maneuvers.finishing_move_refusal(
        target, adjacent=common.adjacent(actor, target), lethal_weapon=lethal,
        allow_at_range=bool(command.option("at_range", False)))
    if reason is None and target.has_condition(board.DEAD):
        reason = f"{target.name} is already dead"
    return [reason] if reason else []


def _finish_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    state = board.plain_condition(state, target.id, board.INCAPACITATED)
    state = board.plain_condition(state, target.id, board.DEAD)
    state = incapacitation.beyond_soaking(state, target.id)
    return state, (Event(EventKind.DAMAGE, f"{actor.name} finishes {target.name} "
                         "(Finishing Move).", (actor.id, target.id)),)


register("finishing_move", _finish_check, simple_describe("Finishing Move"), _finish_resolve)


# --- Suppressive Fire ------------------------------------------------------------------------


def blast_area(state: EncounterState, command: Command) -> TemplateResult:
    return templates.blast(state, command.squares[0].centre, "medium")


def _suppress_targets(state: EncounterState, command: Command) -> list[Token]:
    touched = set(blast_area(state, command).token_ids())
    return [t for t in state.tokens if t.id != command.actor and t.id in touched
            and not board.out_of_fight(t)]


def _suppress_check(state: EncounterState, command: Command) -> list[str]:
    if len(command.squares) != 1:
        return ["Suppressive Fire needs the square at the centre of the template"]
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command, melee=False)
    except KeyError as error:
        return [str(error.args[0])]
    reason = sup.refusal(weapon)
    if area_attack.template_of(weapon) is not None:
        reason = f"{weapon.name} lays a template: use the Area Effect Attack"
    if reason:
        return [reason]
    if not state.battlemap.in_bounds(command.squares[0]):
        return [f"{command.squares[0]} is off the map"]
    under = {t.id for t in _suppress_targets(state, command)}
    stray = [tid for tid in _hit_first(command) if tid not in under]
    if stray:
        return [f"hit_first names {', '.join(map(repr, stray))}, not under the template"]
    return []


def _hit_first(command: Command) -> list[str]:
    """Option ``hit_first``: token ids in order, the shooter's pick of whom to hit first
    when more targets get a raise than the Rate of Fire allows (the attacker chooses)."""
    return list(command.names("hit_first"))


def _suppress_plan(state: EncounterState, command: Command) -> list[Modifier]:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command, melee=False)
    centre = command.squares[0]
    inches = state.scale.distance(max(abs(centre.x - actor.square.x),
                                      abs(centre.y - actor.square.y)))
    mods = [*attack_math.own_modifiers(state, actor),
            *trait_bonuses.trait_modifiers(actor, "shooting")]
    band = attack_math.range_modifier(weapon, inches)
    if band is not None and band[0]:
        mods.append(Modifier(f"{band[1]} range", band[0]))
    mods.append(Modifier("Recoil", sup.recoil_modifier(
        recoil_negated=bool(command.option("recoil_negated", False)))))
    return mods


def _suppress_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor = actor_of(state, command)
        weapon = weapon_of(actor, command, melee=False)
        mods = _suppress_plan(state, command)
        area = blast_area(state, command)
    except (KeyError, IndexError) as error:
        return Preview(command, False, summary=f"Suppressive Fire: {error}")
    overlay = _suppress_overlay(state, actor, command, area, mods)
    return Preview(command, True, summary=f"Suppressive Fire: {actor.name} sprays a Medium Blast "
                   f"with {weapon.name}; Shooting {sum(m.value for m in mods):+d}; success "
                   f"Distracts, a raise hits (at most {weapon.rate_of_fire}).",
                   squares=tuple(sorted(area.squares)), shapes=(area.shape,),
                   targets=overlay.token_ids(Role.AFFECTED), notes=area.reasons,
                   modifiers=tuple(mods), shots=sup.bullets_needed(weapon),
                   rolls=("shooting", "damage per target hit"), cost="1 action",
                   overlay=overlay)


def _suppress_overlay(state: EncounterState, actor: Token, command: Command,
                      area: TemplateResult, shooting: list[Modifier]) -> Overlay:
    """The Medium Blast as the rule places it (cut by walls) and each target under it with
    the one Shooting roll's modifiers and its own cover; a target in total cover is under
    the template but out of reach."""
    touched = [OverlayToken(actor.id, Role.ACTOR, tuple(shooting), "one Shooting roll for all")]
    for target in _suppress_targets(state, command):
        cover = _target_cover(state, actor, target)
        if cover is None:
            touched.append(OverlayToken(target.id, Role.SPARED, note="total cover"))
            continue
        against = "to the Shooting total against it"
        own = [Modifier(str(name), cond.RULES[name].against_modifier, against)
               for name in sorted(cond.active(target)) if cond.RULES[name].against_modifier]
        if cover:
            own.append(Modifier("cover", cover, against))
        touched.append(OverlayToken(target.id, Role.AFFECTED, (*shooting, *own)))
    radius = sup.TEMPLATE_RADIUS_INCHES * templates.squares_per_inch(state)
    return template_overlay("Suppressive Fire (Medium Blast)", area, ShapeKind.CIRCLE,
                            command.squares[0].centre, reach=radius, tokens=touched,
                            reasons=() if area.allowed else area.reasons)


def _target_cover(state: EncounterState, shooter: Token, target: Token) -> int | None:
    """Each target under the template counts its own cover from the shooter (None: total
    cover, the spray cannot reach it)."""
    try:
        found = attack_math.cover_modifiers(state, shooter, target,
                                            board.inches_between(state, shooter, target))
    except attack_math.AttackError:
        return None
    return sum(m.value for m in found)


def _suppress_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command, melee=False)
    mods = _suppress_plan(state, command)
    targets = _suppress_targets(state, command)
    spent = sup.bullets_needed(weapon)
    state = common.put(state, replace(actor, weapons=tuple(
        w.with_ammo(w.ammo - spent) if w.name == weapon.name and w.uses_ammunition else w
        for w in actor.weapons)))
    die, untrained = board.trait_die(actor, "shooting")
    roll = trait_roll(die, dice, modifier=sum(m.value for m in mods) + untrained,
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} Suppressive Fire")
    state = trait_bonuses.spend_support(state, actor.id, "shooting")
    events: list[Event] = [Event(EventKind.ATTACK, f"{actor.name} lays down Suppressive Fire: "
                                 f"{roll}; {counted(spent, 'round')} fired.", (actor.id,))]
    wanted = _hit_first(command)
    targets = sorted(targets, key=lambda t: wanted.index(t.id) if t.id in wanted
                     else len(wanted))
    covers = {t.id: _target_cover(state, actor, t) for t in targets}
    per_target = {t.id: cond.modifier_against(t) + int(covers[t.id] or 0) for t in targets
                  if covers[t.id] is not None}
    result = sup.resolve(roll.total, per_target, weapon.rate_of_fire)
    for tid in result.distracted:
        state, more = board.add_condition(state, tid, SWCondition.DISTRACTED, source=actor.id)
        events.extend(more)
    for tid in result.hit:
        damage = attack_math.roll_damage(weapon.damage, actor, dice, f"{actor.name} damage")
        piercing = attack_math.armor_piercing(weapon)
        state, more = attack_math.apply_damage(state, tid, damage, piercing, dice=dice)
        events.extend(more)
    return state, tuple(events)


register("suppressive_fire", _suppress_check, _suppress_describe, _suppress_resolve)
