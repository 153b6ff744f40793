"""Savage Worlds opposed maneuvers and help: Grappling (Crush, Break Free), Push, Support
and Test.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.overlay import Overlay, OverlayRoute
from engine.routes import walk
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.overlays import target_overlay
from engine.rules.savage_worlds import attack_math, board, tables, trait_bonuses
from engine.rules.savage_worlds import conditions as cond
from engine.rules.savage_worlds import opposed_maneuvers as opp
from engine.rules.savage_worlds.conditions import SWCondition
from engine.rules.savage_worlds.handlers import (
    attack_extras,
    register,
    simple_describe,
    target_of,
    target_reasons,
)
from engine.rules.savage_worlds.traits import (
    WILD_DIE,
    TraitResult,
    acing_die,
    require_trait_die,
    trait_roll,
)
from engine.tokens import Condition, Token, are_opponents
from engine.words import counted

# --- Grappling ------------------------------------------------------------------------------


def _grapple_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    if not common.adjacent(actor, target):
        return [f"{target.name} is not within reach"]
    if target.has_condition(SWCondition.BOUND):
        return [f"{target.name} is already Bound"]
    size = opp.size_refusal("Grapple", board.stat_int(actor, "size"),
                            board.stat_int(target, "size"))
    return [size] if size else []


def _grapple_mods(state: EncounterState, actor: Token, target: Token) -> list[Modifier]:
    mods = attack_math.common_modifiers(state, actor, target)
    scale = opp.grapple_scale_penalty(board.scale(actor), board.scale(target))
    if scale:
        mods.append(Modifier("Size Matters", scale))
    gang = board.gang_up(state, actor, target)
    if gang:
        mods.append(Modifier("Gang Up", gang))
    return mods


def _grapple_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return Preview(command, False, summary=f"Grapple: {error}")
    mods = _grapple_mods(state, actor, target)
    return Preview(command, True, summary=f"Grapple: {actor.name} Athletics "
                   f"{sum(m.value for m in mods):+d} against {target.name}'s Athletics; a win "
                   "Entangles, a raise Binds.", modifiers=tuple(mods), targets=(target.id,),
                   rolls=("athletics", "target athletics"), cost="1 action",
                   overlay=target_overlay(actor.id, (target.id,), mods))


def _opposed_rolls(state: EncounterState, actor: Token, target: Token, skill: str,
                   resist: str, mods: list[Modifier], dice: Dice, label: str,
                   *, skill_dice: int = 1) -> tuple[EncounterState, int, int, list[Event]]:
    die, untrained = board.trait_die(actor, skill)
    mods = [*mods, *trait_bonuses.trait_modifiers(actor, skill)]
    mine = best_skill_die(die, skill_dice, dice, modifier=sum(m.value for m in mods) + untrained,
                          wild_card=board.is_wild_card(actor), purpose=f"{actor.name} {label}")
    tdie, tuntrained = board.trait_die(target, resist)
    resisting = trait_bonuses.resisting_modifiers(target, resist)
    theirs = trait_roll(tdie, dice, modifier=tuntrained + sum(m.value for m in resisting),
                        wild_card=board.is_wild_card(target), purpose=f"{target.name} resists")
    state = trait_bonuses.spend_support(state, actor.id, skill)
    state = trait_bonuses.spend_support(state, target.id, resist)
    text = f"{label}: {actor.name} {mine} against {target.name} {theirs}."
    return state, mine.total, theirs.total, [Event(EventKind.ROLL, text, (actor.id, target.id))]


def best_skill_die(die: int, count: int, dice: Dice, *, modifier: int, wild_card: bool,
                   purpose: str) -> TraitResult:
    """A roll with ``count`` skill dice (Test: extra dice from a high Rate of Fire): every
    die is rolled, the Wild Die too, and the single best counts (``best_of``). One die is an
    ordinary Trait roll, rolled in the same order."""
    require_trait_die(die)
    faces = [acing_die(die, dice, purpose) for _ in range(count)]
    wild = acing_die(WILD_DIE, dice, f"{purpose} (Wild Die)") if wild_card else None
    best = opp.best_of([*faces, *([] if wild is None else [wild])])
    skill_best = opp.best_of(faces)
    critical = wild_card and wild == 1 and skill_best == 1
    return TraitResult(best + modifier, skill_best, wild, modifier, critical)


def _grapple_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    mods = _grapple_mods(state, actor, target)
    state, mine, theirs, events = _opposed_rolls(state, actor, target, "athletics",
                                                 "athletics", mods, dice, "Grapple")
    result = opp.grapple(mine, theirs, defender_entangled=target.has_condition(
        SWCondition.ENTANGLED))
    if result.defender is None:
        events.append(Event(EventKind.NOTE, f"{target.name} slips the grapple.", (target.id,)))
        return state, tuple(events)
    state = common.remove_condition(state, target.id, SWCondition.ENTANGLED)
    state, more = board.add_condition(state, target.id, result.defender, source=actor.id)
    events.extend(more)
    if result.grappler_vulnerable:
        token = state.token(actor.id)
        state = common.put(state, cond.with_condition(token, Condition(
            SWCondition.VULNERABLE, None, f"holding {target.id}")))
        events.append(Event(EventKind.CONDITION, f"{actor.name} is Vulnerable while holding "
                            f"{target.name} Bound.", (actor.id,)))
    return state, tuple(events)


register("grapple", _grapple_check, _grapple_describe, _grapple_resolve)


def _held_by(target: Token, grappler: str) -> bool:
    return any(c.name in (SWCondition.ENTANGLED, SWCondition.BOUND) and c.source == grappler
               for c in target.conditions)


def _crush_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    target = target_of(state, command)
    held = _held_by(target, str(command.actor))
    reason = opp.crush_refusal(held, False)
    return [reason] if reason else []


def _crush_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    die, _ = board.trait_die(actor, "strength")
    mods = attack_math.common_modifiers(state, actor, target)
    roll = trait_roll(die, dice, modifier=sum(m.value for m in mods),
                      wild_card=board.is_wild_card(actor), purpose=f"{actor.name} Crush")
    state, events = attack_math.apply_damage(state, target.id, roll.total, dice=dice)
    return state, (Event(EventKind.ATTACK, f"{actor.name} crushes {target.name}: {roll} (Crush).",
                         (actor.id, target.id)), *events)


register("crush", _crush_check, simple_describe("Crush"), _crush_resolve)


def _break_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    if not (actor.has_condition(SWCondition.ENTANGLED) or actor.has_condition(SWCondition.BOUND)):
        return [f"{actor.name} is not held"]
    return []


def _break_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    now = SWCondition.BOUND if actor.has_condition(SWCondition.BOUND) else SWCondition.ENTANGLED
    die, untrained = board.trait_die(actor, "athletics")
    mods = sum(m.value for m in [*attack_math.own_modifiers(state, actor),
                                 *trait_bonuses.trait_modifiers(actor, "athletics")])
    roll = trait_roll(die, dice, modifier=mods + untrained, wild_card=board.is_wild_card(actor),
                      purpose=f"{actor.name} breaks free")
    state = trait_bonuses.spend_support(state, actor.id, "athletics")
    after = opp.break_free(roll.total, now)
    grappler = next((c.source for c in actor.conditions if c.name == now), None)
    state = common.remove_condition(state, actor.id, now)
    events = [Event(EventKind.ROLL, f"{actor.name} struggles: {roll}.", (actor.id,))]
    if after is not None:
        state, more = board.add_condition(state, actor.id, after, source=grappler)
        events.extend(more)
    else:
        events.append(Event(EventKind.CONDITION, f"{actor.name} breaks free.", (actor.id,)))
    if after is not SWCondition.BOUND and grappler:
        grip = state.token(grappler) if any(t.id == grappler for t in state.tokens) else None
        if grip is not None:
            kept = tuple(c for c in grip.conditions if c.source != f"holding {actor.id}")
            state = common.put(state, replace(grip, conditions=kept))
    return state, tuple(events)


register("break_free", _break_check, simple_describe("Break Free"), _break_resolve)


# --- Push ------------------------------------------------------------------------------------


def _push_check(state: EncounterState, command: Command) -> list[str]:
    reasons = _grapple_check(state, command) if command.target else ["choose a target"]
    wanted = command.option("distance")
    if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)
                               or wanted < 0):
        reasons.append(f"distance= is how many inches to push, 0 or more, not {wanted!r}")
    return [r.replace("Grapple", "Push") for r in reasons if "Bound" not in r]


def _push_mods(state: EncounterState, actor: Token, target: Token) -> list[Modifier]:
    mods = attack_math.common_modifiers(state, actor, target)
    ran = float(common.data(state, actor.id, "moved_inches", 0))
    run_bonus = opp.push_total_modifier(ran_inches=ran,
                                        shield_parry=board.stat_int(actor, "shield_parry"))
    if run_bonus:
        mods.append(Modifier("Push run-up / shield", run_bonus))
    return mods


def push_distance(command: Command, allowed: int) -> int:
    """A Push moves the foe *up to* what the roll allows: option ``distance`` (inches) is how
    far the pusher wants it, cut to the allowed distance; left out, the whole distance."""
    wanted = command.option("distance")
    return allowed if wanted is None else max(0, min(int(wanted), allowed))


def _push_squares(state: EncounterState, actor: Token, target: Token, inches: int,
                  ) -> list[Square]:
    """Squares the target is shoved through, straight away from the pusher, until blocked."""
    dx = (target.square.x > actor.square.x) - (target.square.x < actor.square.x)
    dy = (target.square.y > actor.square.y) - (target.square.y < actor.square.y)
    steps = int(inches / state.scale.square_size)
    path: list[Square] = []
    here = target.square
    for _ in range(steps):
        nxt = here.offset(dx, dy)
        problems, _ = walk.path_problems(
            state, target.id, (*path, nxt), difficult_cost=tables.DIFFICULT_TERRAIN_COST
        )
        if problems:
            break
        path.append(nxt)
        here = nxt
    return path


def _push_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return Preview(command, False, summary=f"Push: {error}")
    mods = _push_mods(state, actor, target)
    most = push_distance(command, opp.furthest_push(attacker_larger=_larger(actor, target)))
    reach = _push_squares(state, actor, target, most)
    shove = OverlayRoute((target.square, *reach), f"Push: up to {most}\"")
    overlay = target_overlay(actor.id, (target.id,), mods).plus(Overlay(routes=(shove,)))
    return Preview(command, True, summary=f"Push: {actor.name} Strength "
                   f"{sum(m.value for m in mods):+d} against {target.name}'s Strength; "
                   "1\" back on a win, 2\" on a raise, then Athletics or prone.",
                   modifiers=tuple(mods), targets=(target.id,),
                   squares=tuple(reach), overlay=overlay,
                   rolls=("strength", "target strength", "target athletics"), cost="1 action")


def _larger(actor: Token, target: Token) -> bool:
    """The pusher's Scale is larger than the foe's (the Push goes twice as far)."""
    return board.scale(actor) > board.scale(target)


def _push_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    mods = _push_mods(state, actor, target)
    skill = "athletics" if command.option("skill") == "athletics" else "strength"
    state, mine, theirs, events = _opposed_rolls(state, actor, target, skill, "strength",
                                                 mods, dice, "Push")
    result = opp.push(mine, theirs, attacker_larger=_larger(actor, target))
    if not result.distance_inches:
        events.append(Event(EventKind.NOTE, f"{target.name} stands firm.", (target.id,)))
        return state, tuple(events)
    inches = push_distance(command, result.distance_inches)
    path = _push_squares(state, actor, target, inches)
    if path:
        state = common.put(state, state.token(target.id).moved_to(path[-1]))
    events.append(Event(EventKind.MOVE, f"{target.name} is pushed {counted(len(path), 'square')} "
                        f"(Push, {inches}\" of up to {result.distance_inches}\").",
                        (target.id,)))
    die, untrained = board.trait_die(target, "athletics")
    resisting = sum(m.value for m in trait_bonuses.resisting_modifiers(target, "athletics"))
    check = trait_roll(die, dice, modifier=int(result.prone_check_modifier or 0) + untrained
                       + resisting, wild_card=board.is_wild_card(target),
                       purpose=f"{target.name} keeps footing")
    state = trait_bonuses.spend_support(state, target.id, "athletics")
    if opp.pushed_falls_prone(check.total):
        state, more = board.add_condition(state, target.id, SWCondition.PRONE)
        events.extend(more)
    else:
        events.append(Event(EventKind.ROLL, f"{target.name} keeps footing ({check}).",
                            (target.id,)))
    return state, tuple(events)


register("push", _push_check, _push_describe, _push_resolve)


# --- Support and Test ------------------------------------------------------------------------


def _support_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    actor, target = actor_of(state, command), target_of(state, command)
    if are_opponents(actor.side, target.side):
        return ["Support helps an ally; to hinder a foe use Test"]
    return []


def _support_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    trait = str(command.option("trait", "fighting"))
    skill = str(command.option("skill", trait))
    die, untrained = board.trait_die(actor, skill)
    own = sum(m.value for m in [*attack_math.own_modifiers(state, actor),
                                *trait_bonuses.trait_modifiers(actor, skill)])
    roll = trait_roll(die, dice, modifier=untrained + own, wild_card=board.is_wild_card(actor),
                      purpose=f"{actor.name} Support")
    state = trait_bonuses.spend_support(state, actor.id, skill)
    target = state.token(target.id)
    bonus = opp.support_bonus(roll.total, critical_failure=roll.critical_failure)
    existing = [c.value for c in target.conditions
                if c.name == SWCondition.SUPPORTED and c.source == trait]
    total = opp.total_support([*existing, bonus], strength=trait == "strength")
    kept = tuple(c for c in target.conditions
                 if not (c.name == SWCondition.SUPPORTED and c.source == trait))
    acted = state.combat.has(target.id) and state.combat.combatant(target.id).acted
    new = cond.condition(SWCondition.SUPPORTED, state.combat.round, target.id, acted,
                         value=total, source=trait)
    state = common.put(state, replace(target, conditions=(*kept, new)))
    return state, (Event(EventKind.ROLL, f"{actor.name} supports {target.name}'s {trait}: {roll} "
                         f"gives {bonus:+d}, {total:+d} in all (Support).",
                         (actor.id, target.id)),)


register("support", _support_check, simple_describe("Support"), _support_resolve)


def _test_roll(command: Command) -> tuple[str, str, int]:
    """The Test's skill, the attribute resisting it, and how many skill dice it rolls."""
    skill = str(command.option("skill", "taunt")).lower()
    attribute = opp.TEST_RESISTED_BY.get(skill.title(), "Agility").lower()
    return skill, attribute, int(command.option("dice", 1) or 1)


def _test_mods(state: EncounterState, command: Command, actor: Token, target: Token,
               ) -> list[Modifier]:
    """The roller's own modifiers, +2 on a Vulnerable foe, and the GM's cover and modifier
    (the text leaves a Test's modifiers to the GM: range and cover for a shot, a telling
    taunt, repetition)."""
    return [*attack_math.common_modifiers(state, actor, target), *attack_extras(state, command)]


def _test_effects(command: Command) -> tuple[opp.SWTestEffect, opp.SWTestRaise]:
    """What a win leaves on the foe, and what a raise adds."""
    return (opp.SWTestEffect(str(command.option("effect", "Distracted")).title()),
            opp.SWTestRaise(str(command.option("on_raise", "Shaken")).title()))


_RAISE_WORDS = {opp.SWTestRaise.SHAKEN: "Shakes it", opp.SWTestRaise.PRONE: "knocks it prone"}


def _dice_words(count: int) -> str:
    return f", best of {count} dice" if count > 1 else ""


def _test_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor, target = actor_of(state, command), target_of(state, command)
    except KeyError as error:
        return Preview(command, False, summary=f"Test: {error}")
    skill, attribute, count = _test_roll(command)
    effect, on_raise = _test_effects(command)
    mods = _test_mods(state, command, actor, target)
    return Preview(command, True, summary=f"Test: {actor.name} {skill.title()} "
                   f"{sum(m.value for m in mods):+d}{_dice_words(count)} against {target.name}'s "
                   f"{attribute.title()}; a win leaves {target.name} {effect}, a raise "
                   f"{_RAISE_WORDS[on_raise]} too.", modifiers=tuple(mods), targets=(target.id,),
                   rolls=(skill, f"target {attribute}"), cost="1 action",
                   overlay=target_overlay(actor.id, (target.id,), mods))


def _test_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor, target = actor_of(state, command), target_of(state, command)
    skill, attribute, count = _test_roll(command)
    effect, on_raise = _test_effects(command)
    mods = _test_mods(state, command, actor, target)
    state, mine, theirs, events = _opposed_rolls(
        state, actor, target, skill, attribute, mods, dice,
        f"Test ({skill} against {attribute}{_dice_words(count)})", skill_dice=count)
    result = opp.resolve_test(mine, theirs, effect, on_raise)
    for name in result.conditions:
        state, more = board.add_condition(state, target.id, name, source=actor.id)
        events.extend(more)
    if not result.conditions:
        events.append(Event(EventKind.NOTE, f"{target.name} is unfazed.", (target.id,)))
    return state, tuple(events)


def _test_check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    try:
        _test_effects(command)
    except ValueError:
        return ["a Test leaves the foe Distracted or Vulnerable, and a raise Shakes it or "
                "knocks it prone"]
    return []


register("test", _test_check, _test_describe, _test_resolve)
