"""The Savage Worlds Area Effect Attack handler: a grenade, a launcher or a flamethrower
lays its template on the map (the numbers are in ``area_attack``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.areas import token_centre
from engine.geometry.los import first_blocker
from engine.geometry.results import TemplateResult
from engine.grid import Square, distance_squares
from engine.overlay import Overlay, OverlayShape, OverlayToken, Role, ShapeKind
from engine.routes import MovementGraph
from engine.routes.deviation import fly
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.overlays import sight_to_square, template_overlay
from engine.rules.savage_worlds import area_attack as area
from engine.rules.savage_worlds import (
    attack_math,
    blast_marks,
    board,
    tables,
    templates,
    trait_bonuses,
)
from engine.rules.savage_worlds.combat_state import BlastLanding
from engine.rules.savage_worlds.handlers import register, weapon_of
from engine.rules.savage_worlds.traits import TARGET_NUMBER, acing_die, outcome, trait_roll
from engine.tokens import Side, Token, Weapon
from engine.words import counted

#: The d8 face names of the Deviation Diagram's directions, for the log.
_COMPASS = {(0, -1): "north", (1, -1): "north-east", (1, 0): "east", (1, 1): "south-east",
            (0, 1): "south", (-1, 1): "south-west", (-1, 0): "west", (-1, -1): "north-west"}


@dataclass(frozen=True, slots=True)
class AreaPlan:
    """What an area attack rolls: the weapon, its template, the skill and its modifiers, the
    range band to the aim square and how many squares away that is."""

    actor: Token
    weapon: Weapon
    template: area.AreaTemplate
    aim: Square
    skill: str
    modifiers: tuple[Modifier, ...]
    band: str | None
    aim_squares: int

    @property
    def to_hit(self) -> int:
        return sum(m.value for m in self.modifiers)


def _plan(state: EncounterState, command: Command) -> AreaPlan:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command, melee=False)
    template = area.template_of(weapon)
    if template is None:
        raise area.AreaError(f"{weapon.name} has no area template (a Blast or Cone trait)")
    if len(command.squares) != 1:
        raise area.AreaError("an Area Effect Attack needs the one square it is aimed at")
    aim = command.squares[0]
    squares = min(distance_squares(s, aim, state.scale.diagonal) for s in actor.squares)
    skill = area.skill_of(weapon)
    mods = [*attack_math.own_modifiers(state, actor),
            *trait_bonuses.trait_modifiers(actor, skill)]
    band: str | None = None
    if template.is_blast:
        found = attack_math.range_modifier(weapon, state.scale.distance(squares))
        if found is not None:
            band = found[1]
            if found[0]:
                mods.append(Modifier(f"{band} range", found[0]))
    bonus = attack_math.weapon_bonus(weapon, skill)
    if bonus:
        mods.append(Modifier(weapon.name, bonus))
    free = int(command.option("modifier", 0) or 0)
    if free:
        mods.append(Modifier("GM modifier", free))
    return AreaPlan(actor, weapon, template, aim, skill, tuple(mods), band, squares)


def _laid(state: EncounterState, plan: AreaPlan, centre: Square) -> TemplateResult:
    """The template as it lands: a blast centred on ``centre``, a cone from the attacker
    towards it."""
    if plan.template.is_blast:
        return templates.blast(state, centre.centre, plan.template.value)
    return templates.cone(state, _cone_origin(plan), _cone_direction(plan))


def _cone_origin(plan: AreaPlan) -> tuple[float, float]:
    return plan.actor.square.x + plan.actor.size / 2, plan.actor.square.y + plan.actor.size / 2


def _cone_direction(plan: AreaPlan) -> float:
    ox, oy = _cone_origin(plan)
    cx, cy = plan.aim.centre
    return math.degrees(math.atan2(cy - oy, cx - ox))


@dataclass(frozen=True, slots=True)
class UnderTemplate:
    """A token under the template, and the Armor its cover from the blast's centre gives
    (None: total cover, out of the blast)."""

    token: Token
    armor: int | None
    cover: str = ""


def _under(state: EncounterState, plan: AreaPlan, laid: TemplateResult,
           centre: Square) -> list[UnderTemplate]:
    """Every token under the template still in the fight, the attacker too when a blast
    lands on it (a cone starts at the attacker and spares it)."""
    touched = set(laid.token_ids())
    origin = _centre_token(centre) if plan.template.is_blast else plan.actor
    found = []
    for token in state.tokens:
        if token.id not in touched or board.out_of_fight(token):
            continue
        if token.id == plan.actor.id and not plan.template.is_blast:
            continue
        found.append(_with_cover(state, origin, token))
    return found


def _centre_token(centre: Square) -> Token:
    """A stand-in on the blast's centre square, to measure cover from (engine.geometry's
    cover is measured between tokens)."""
    return Token("blast centre", "the blast's centre", Side.NEUTRAL, centre)


def _with_cover(state: EncounterState, origin: Token, token: Token) -> UnderTemplate:
    if token.squares == origin.squares:
        return UnderTemplate(token, 0)
    try:
        found = attack_math.cover_modifiers(state, origin, token,
                                            board.inches_between(state, origin, token))
    except attack_math.AttackError:
        return UnderTemplate(token, None, "total cover from the blast")
    penalty = sum(m.value for m in found)
    names = ", ".join(m.name for m in found)
    return UnderTemplate(token, area.cover_armor(penalty), names)


def _armor_modifier(under: UnderTemplate) -> tuple[Modifier, ...]:
    if not under.armor:
        return ()
    return (Modifier(f"Cover as Armor ({under.cover})", under.armor, "Toughness"),)


def _aim_sight(state: EncounterState, plan: AreaPlan) -> tuple[str | None, OverlayShape]:
    """Why the attacker cannot aim a blast at its square (None: it sees it), and the sight
    line the map draws from the attacker to the aim point."""
    sees, line = sight_to_square(state, plan.actor, plan.aim)
    if sees:
        return None, line
    blocker = first_blocker(state.battlemap, token_centre(plan.actor), plan.aim.centre)
    return (f"{plan.actor.name} cannot see {plan.aim}, where the blast is aimed (blocked by "
            f"{blocker or 'walls'}): a blast is aimed at a square in sight"), line


# --- check, describe, resolve -----------------------------------------------------------------


def _check(state: EncounterState, command: Command) -> list[str]:
    try:
        plan = _plan(state, command)
    except (KeyError, area.AreaError, attack_math.AttackError) as error:
        return common.error_reasons(error)
    if not state.battlemap.in_bounds(plan.aim):
        return [f"{plan.aim} is off the map"]
    if plan.aim in plan.actor.squares and not plan.template.is_blast:
        return ["a cone needs a square to point at, not the attacker's own"]
    reason = area.refusal(plan.weapon, plan.band)
    if reason is None and plan.template.is_blast:
        reason, _ = _aim_sight(state, plan)
    return [reason] if reason else []


def _describe(state: EncounterState, command: Command) -> Preview:
    try:
        plan = _plan(state, command)
        laid = _laid(state, plan, plan.aim)
    except (KeyError, IndexError, ValueError) as error:
        return Preview(command, False, summary=f"Area Effect Attack: {error}")
    under = _under(state, plan, laid, plan.aim)
    overlay = _overlay(plan, laid, under)
    if plan.template.is_blast and state.battlemap.in_bounds(plan.aim):
        unseen, line = _aim_sight(state, plan)
        if unseen:  # the blocked line shows where sight fails
            overlay = overlay.plus(Overlay(shapes=(line,)))
    die, untrained = board.trait_die(plan.actor, plan.skill)
    summary = (f"Area Effect Attack: {plan.actor.name} with {plan.weapon.name} "
               f"({plan.template.label}), {plan.skill.title()} d{die} "
               f"{plan.to_hit + untrained:+d} against {TARGET_NUMBER}; everyone under it "
               f"takes {plan.weapon.damage} (a raise adds a d6), each rolled on its own; cover "
               "from the centre counts as Armor.")
    notes = list(laid.reasons)
    if plan.template.is_blast and plan.band is not None:
        rule = area.deviation_rule(plan.weapon)
        notes.append(f"A miss deviates {rule.flight}\" x{area.DEVIATION_MULTIPLIER[plan.band]} "
                     f"({plan.band} range) in a d8 direction, at most "
                     f"{counted(math.floor(plan.aim_squares * area.DEVIATION_CAP), 'square')}.")
    elif not plan.template.is_blast:
        notes.append("A miss: the cone comes to nothing.")
    return Preview(command, True, summary=summary, squares=tuple(sorted(laid.squares)),
                   shapes=(laid.shape,), targets=overlay.token_ids(Role.AFFECTED),
                   notes=tuple(notes), modifiers=plan.modifiers,
                   shots=1 if plan.weapon.uses_ammunition else 0,
                   rolls=(f"{plan.skill} d{die}", "deviation 1d8 and distance on a miss",
                          "damage per target"), cost="1 action", overlay=overlay)


def _overlay(plan: AreaPlan, laid: TemplateResult, under: list[UnderTemplate]) -> Overlay:
    """The template where it is aimed, the attacker with the roll's modifiers and every
    token under it with the Armor its cover from the centre gives (total cover: spared)."""
    touched = [OverlayToken(plan.actor.id, Role.ACTOR, plan.modifiers,
                            f"one {plan.skill.title()} roll against {TARGET_NUMBER}")]
    for found in under:
        if found.armor is None:
            touched.append(OverlayToken(found.token.id, Role.SPARED, note=found.cover))
            continue
        touched.append(OverlayToken(found.token.id, Role.AFFECTED, _armor_modifier(found),
                                    "own damage roll"))
    scale = plan.template
    if scale.is_blast:
        reach = templates.BLASTS[scale.value]
        return template_overlay(f"Area Effect Attack ({scale.label})", laid, ShapeKind.CIRCLE,
                                plan.aim.centre, reach=reach, tokens=touched)
    return template_overlay(f"Area Effect Attack ({scale.label})", laid, ShapeKind.CONE,
                            _cone_origin(plan), direction=_cone_direction(plan),
                            reach=templates.CONE_LENGTH, tokens=touched)


def _overhead(state: EncounterState) -> EncounterState:
    """The map as a blast in flight meets it: only what is taller than a person (walls,
    closed doors, cover that blocks sight) stops it; a car or a low wall it sails over."""
    tall = tuple(item for item in state.battlemap.cover if item.blocks_sight)
    return replace(state, battlemap=replace(state.battlemap, cover=tall))


def _deviate(state: EncounterState, plan: AreaPlan, dice: Dice) -> tuple[Square, Event]:
    """Where a missed blast lands: a d8 direction of the Deviation Diagram, the weapon's
    dice times the range band's multiplier (capped), flown over heads, stopped by walls."""
    rule = area.deviation_rule(plan.weapon)
    direction = dice.roll("1d8", f"{plan.actor.name} deviation direction").total
    rolled = dice.roll(rule.flight, f"{plan.actor.name} deviation distance").total
    step = rule.diagram[direction]
    distance = area.deviation_distance(rolled, plan.band or "Short", plan.aim_squares,
                                       templates.squares_per_inch(state))
    graph = MovementGraph(_overhead(state), difficult_cost=tables.DIFFICULT_TERRAIN_COST)
    path, stopped_by = fly(graph, plan.aim, step, distance.squares)
    text = (f"The {plan.weapon.name} misses and deviates: d8 {direction} "
            f"({_COMPASS.get(step, str(step))}), {rule.flight} {rolled}\" "
            f"x{distance.multiplier} ({plan.band} range)")
    if distance.capped:
        text += f", held to {counted(distance.squares, 'square')} (half the way to the aim point)"
    text += f"; it lands at {path[-1]}"
    if stopped_by:
        text += f", stopped by {stopped_by}"
    # A note, not a roll: the dice dialog shows what follows its rows (where it lands).
    return path[-1], Event(EventKind.NOTE, text + ".", (plan.actor.id,))


def _resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    plan = _plan(state, command)
    actor, weapon = plan.actor, plan.weapon
    if weapon.uses_ammunition:
        state = common.put(state, replace(actor, weapons=tuple(
            w.with_ammo(w.ammo - 1) if w.name == weapon.name else w for w in actor.weapons)))
    die, untrained = board.trait_die(actor, plan.skill)
    roll = trait_roll(die, dice, modifier=plan.to_hit + untrained,
                      wild_card=board.is_wild_card(actor),
                      purpose=f"{actor.name} {weapon.name}")
    state = trait_bonuses.spend_support(state, actor.id, plan.skill)
    result = outcome(roll.total, TARGET_NUMBER)
    words = "hits where aimed" if result.success else "misses"
    if result.raises:
        words += " with a raise"
    events: list[Event] = [Event(EventKind.ATTACK, f"{actor.name} uses the {weapon.name} "
                                 f"({plan.template.label}) at {plan.aim}: {plan.skill.title()} "
                                 f"{roll} against {TARGET_NUMBER} - {words}.", (actor.id,))]
    centre = plan.aim
    if not result.success:
        if not plan.template.is_blast:
            events.append(Event(EventKind.NOTE, "The cone comes to nothing.", (actor.id,)))
            return state, tuple(events)
        centre, deviated = _deviate(state, plan, dice)
        events.append(deviated)
        state = blast_marks.record(state, BlastLanding(actor.id, weapon.name,
                                                       plan.template.value, plan.aim, centre))
    laid = _laid(state, plan, centre)
    piercing = attack_math.armor_piercing(weapon)
    for found in _under(state, plan, laid, centre):
        if found.armor is None:
            events.append(Event(EventKind.NOTE, f"{found.token.name} is in total cover from "
                                "the blast.", (found.token.id,)))
            continue
        damage = attack_math.roll_damage(weapon.damage, actor, dice,
                                         f"{actor.name} damage to {found.token.name}")
        if result.raises:
            damage += acing_die(attack_math.RAISE_DAMAGE_DIE, dice,
                                f"{actor.name} raise damage to {found.token.name}")
        if found.armor:
            events.append(Event(EventKind.NOTE, f"{found.token.name}'s cover counts as "
                                f"+{found.armor} Armor.", (found.token.id,)))
        state, more = attack_math.apply_damage(state, found.token.id, damage, piercing,
                                               found.armor, dice=dice)
        events.extend(more)
    return state, tuple(events)


register("area_attack", _check, _describe, _resolve)
