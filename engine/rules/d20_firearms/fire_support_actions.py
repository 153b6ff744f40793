"""d20 firearms sighting and area fire: Aiming, Overwatch, Covering Fire, Suppressive Fire.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.geometry.areas import token_centre
from engine.geometry.los import has_line_of_sight, token_line_of_sight
from engine.geometry.results import AffectedToken, TemplateResult
from engine.geometry.suppression import SuppressionArea
from engine.grid import Square, distance_squares
from engine.overlay import Overlay, OverlayToken, Role, ShapeKind
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of, error_reasons
from engine.rules.d20_firearms import attack_math, board, take_cover_actions
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.economy import Cost
from engine.rules.d20_firearms.fire_areas import aiming_area, covering_fire_area
from engine.rules.d20_firearms.handlers import (
    REFLEX_ROLL,
    ammo_reason,
    direction_to,
    in_hand,
    register,
    rounds_per_action,
    simple_describe,
    spend_rounds,
    target_of,
    two_weapons,
    weapon_of,
)
from engine.rules.d20_firearms.perception_actions import AIM_DIRECTION
from engine.rules.d20_firearms.suppressive_fire import suppressive_fire_area
from engine.rules.overlays import (
    area_overlay,
    chosen_squares,
    lasting_area,
    overlay_tokens,
    template_overlay,
)
from engine.tokens import Condition, Token, Weapon, are_opponents
from engine.turns.combat import PendingAction
from engine.words import counted

# --- Aiming and Overwatch ---------------------------------------------------------------------


def aim_cost(state: EncounterState, command: Command) -> Cost:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError:
        return Cost.ONE
    return Cost.TWO if special.aiming_actions(weapon) == 2 else Cost.ONE


def _aim_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return error_reasons(error)
    if actor.has_condition(board.AIMING):
        return [f"{actor.name} is already Aiming"]
    reason = in_hand(actor, weapon) or special.aiming_refusal(weapon,
                                                                two_weapons=two_weapons(actor))
    return [reason] if reason else []


def _aim_direction(state: EncounterState, command: Command) -> float:
    """Where the Aiming cone points: at the command's square, else east."""
    actor = actor_of(state, command)
    return direction_to(actor, command.squares[0]) if command.squares else 0.0


def _aim_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    direction = _aim_direction(state, command)
    area = None
    try:
        area = aiming_area(state, actor.id, direction)
    except (KeyError, ValueError):
        area = None
    overlay = _aiming_overlay(actor, direction, area)
    return Preview(command, True, summary=f"Aiming: {actor.name} takes aim (+1 threat range, "
                   f"Perception +5 in the 60-ft cone, -5 outside, speed "
                   f"{special.aiming_speed(actor.speed)} ft).",
                   squares=tuple(sorted(area.squares)) if area else (),
                   shapes=(area.shape,) if area else (),
                   targets=overlay.token_ids(Role.AFFECTED), overlay=overlay)


def _aiming_overlay(actor: Token, direction: float, area: TemplateResult | None) -> Overlay:
    """The cone Aiming lays and the tokens standing in it, with the +5 the aimer then has
    to notice each (those outside, at -5, are not on the cone and not drawn)."""
    if area is None:
        return Overlay()
    inside = (token for token in area.tokens if token.squares)
    return template_overlay("Aiming", area, ShapeKind.CONE, token_centre(actor),
                            direction=direction,
                            tokens=(OverlayToken(actor.id, Role.ACTOR), *overlay_tokens(inside)))


def _aim_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    state, event = board.add_condition(state, actor.id, board.AIMING, source=weapon.name)
    state = common.set_data(state, actor.id, **{AIM_DIRECTION: _aim_direction(state, command)})
    return state, (event,)


register("aim", _aim_check, _aim_describe, _aim_resolve, cost=aim_cost)


def _stop_aim_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    return [] if actor.has_condition(board.AIMING) else [f"{actor.name} is not Aiming"]


def _stop_aim_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    state = common.remove_condition(state, actor.id, board.AIMING)
    state = common.remove_condition(state, actor.id, board.OVERWATCH)
    return state, (Event(EventKind.CONDITION, f"{actor.name} stops Aiming.", (actor.id,)),)


register("stop_aiming", _stop_aim_check, simple_describe("Stop Aiming"), _stop_aim_resolve)


@dataclass(frozen=True, slots=True)
class Watched:
    """What an Overwatch command watches: a token (its id) or a square, in words."""

    token_id: str | None
    square: Square | None
    words: str
    visible: bool
    distance_ft: float

    def is_watched_by(self, current: Condition | None) -> bool:
        """``current`` (an Overwatch) watches this same token or square."""
        return current is not None and (current.source, current.square) == (self.token_id,
                                                                              self.square)


def watched(state: EncounterState, command: Command) -> Watched:
    """The watched token or square, whether the actor sees it, and how far it is (ft)."""
    actor = actor_of(state, command)
    if command.target is not None:
        target = target_of(state, command)
        return Watched(target.id, None, target.name,
                       token_line_of_sight(state.battlemap, actor, target),
                       board.feet_between(state, actor, target))
    if len(command.squares) != 1:
        raise KeyError("watch one target or one square")
    square = command.squares[0]
    sees = any(has_line_of_sight(state.battlemap, s, square) for s in actor.squares)
    distance = min(distance_squares(s, square, state.scale.diagonal) for s in actor.squares)
    return Watched(None, square, f"square {square}", sees, state.scale.distance(distance))


def _overwatch_check(state: EncounterState, command: Command) -> list[str]:
    actor = actor_of(state, command)
    try:
        seen = watched(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    if seen.token_id is not None and board.dead(state.token(seen.token_id)):
        return [f"{seen.words} is dead"]
    aim = board.condition(actor, board.AIMING)
    weapon_name = aim.source if aim is not None and aim.source else None
    weapon = actor.weapon(weapon_name) if weapon_name else (actor.weapons[0] if actor.weapons
                                                            else None)
    if weapon is None:
        return [f"{actor.name} has no weapon"]
    reason = special.overwatch_refusal(
        weapon, aiming=aim is not None,
        target_unaware=not bool(command.option("target_aware", False)),
        target_visible=seen.visible, distance_ft=seen.distance_ft)
    if reason:
        return [reason]
    current = board.overwatch(actor)
    spent = current.value if current is not None and seen.is_watched_by(current) else 0
    if spent >= special.overwatch_cap(board.stat_int(actor, "int_mod")):
        return [f"Overwatch is at its limit of +{spent} (Intelligence x3)"]
    return []


def _overwatch_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    seen = watched(state, command)
    current = board.overwatch(actor)
    spent = current.value if current is not None and seen.is_watched_by(current) else 0
    bonus = special.overwatch_bonus(spent + 1, board.stat_int(actor, "int_mod"))
    state, _ = board.add_condition(state, actor.id, board.OVERWATCH, source=seen.token_id,
                                   value=bonus, square=seen.square)
    return state, (Event(EventKind.CONDITION, f"{actor.name} watches {seen.words}: threat range "
                         f"+{bonus} on the next shot (Overwatch).", (actor.id, *command.targets)),)


def _overwatch_describe(state: EncounterState, command: Command) -> Preview:
    """The catalogue words, and what is watched drawn: the target ringed, or the watched
    square marked (a square watched with no target drew nothing at all)."""
    preview = simple_describe("Overwatch")(state, command)
    if command.target is not None or not command.squares:
        return preview
    actor = actor_of(state, command)
    return replace(preview, squares=command.squares,
                   overlay=chosen_squares(actor.id, command.squares, "Overwatch"))


register("overwatch", _overwatch_check, _overwatch_describe, _overwatch_resolve)


# --- Covering Fire ---------------------------------------------------------------------------

COVERING_FIRE = "covering_fire"


def _covering_actions(weapon: Weapon) -> int:
    return 3 if special.is_automatic(weapon) else 1


def _covering_area(state: EncounterState, command: Command) -> TemplateResult:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    return covering_fire_area(state, actor.id, direction_to(actor, command.squares[0]),
                              weapon.name)


def _covering_check(state: EncounterState, command: Command) -> list[str]:
    if len(command.squares) != 1:
        return ["aim the cone at one square"]
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
    except KeyError as error:
        return error_reasons(error)
    reason = in_hand(actor, weapon) or special.covering_fire_refusal(weapon)
    if reason:
        return [reason]
    area = _covering_area(state, command)
    if not area.allowed:
        return list(area.reasons)
    reasons = take_cover_actions.destination_reasons(state, command, area.token_ids())
    if reasons:
        return reasons
    return ammo_reason(weapon, _covering_actions(weapon) * rounds_per_action(weapon))


def _covering_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor = actor_of(state, command)
        weapon = weapon_of(actor, command)
        area = _covering_area(state, command)
    except (KeyError, IndexError, ValueError) as error:
        return Preview(command, False, summary=f"Covering Fire: {error}")
    actions = _covering_actions(weapon)
    living = _living(state, area.tokens)
    return Preview(command, True, summary=f"Covering Fire: {actor.name} sprays a "
                   f"{weapon.range_increment:g}-ft cone with {counted(actions, 'attack action')}; "
                   "each "
                   "foe inside can be hit once per action; after the first, Reflex DC "
                   f"{special.COVERING_FIRE_REFLEX_DC} to dive for cover.",
                   squares=tuple(sorted(area.squares)), shapes=(area.shape,),
                   targets=tuple(t.token_id for t in living),
                   shots=actions * rounds_per_action(weapon),
                   overlay=template_overlay(
                       "Covering Fire", area, ShapeKind.CONE, token_centre(actor),
                       direction=direction_to(actor, command.squares[0]),
                       tokens=(OverlayToken(actor.id, Role.ACTOR),
                               *overlay_tokens(living, Role.TARGET)),
                       reasons=() if area.allowed else area.reasons),
                   notes=tuple(f"{state.token(t).name} takes cover at {tuple(q)} on a save."
                               for t, q in take_cover_actions.destinations(command).items()))


def _covering_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    area = _covering_area(state, command)
    actions = _covering_actions(weapon)
    targets = [t.token_id for t in _living(state, area.tokens)]
    events: list[Event] = []
    for step, hits in enumerate(special.covering_fire_hits(actions, tuple(targets)), start=1):
        state = spend_rounds(state, actor.id, weapon, rounds_per_action(weapon))
        for target_id in hits:
            target = state.token(target_id)
            if target.has_condition(board.TAKING_COVER):
                continue
            try:
                plan = attack_math.plan_attack(state, state.token(actor.id), target, weapon,
                                               recoil_step=step)
            except attack_math.AttackError as error:
                events.append(Event(EventKind.NOTE, f"{target.name}: {error}", (target_id,)))
                continue
            state, result = attack_math.roll_attack(state, state.token(actor.id), target, plan,
                                                    dice, f"lays down covering fire ({step})")
            events.extend(result.events)
        if step == 1:
            for target_id in targets:
                target = state.token(target_id)
                if board.helpless(target):  # unconscious: it cannot dive for cover
                    continue
                save = dice.roll(f"{REFLEX_ROLL}{board.reflex(target):+d}",
                                 f"{target.name} Reflex against Covering Fire")
                if save.total >= special.COVERING_FIRE_REFLEX_DC:
                    reach = special.takes_cover_reach_ft(target.speed)
                    state, _ = board.add_condition(
                        state, target_id, board.TAKING_COVER,
                        common.until_next_turn(state, target_id))
                    events.append(Event(EventKind.ROLL, f"{target.name} saves ({save.total}) "
                                        f"and dives for cover within {reach:g} ft, or drops "
                                        "prone (Covering Fire).", (target_id,), save))
                    state, dive = take_cover_actions.dive_for_cover(state, command, target_id,
                                                                    actor.id)
                    events.append(dive)
                else:
                    events.append(Event(EventKind.ROLL, f"{target.name} fails the save "
                                        f"({save.total}) and cannot react.", (target_id,), save))
    # The cone stays covered until the shooter's next turn: foes who step into it are shot.
    watch = PendingAction(actor.id, COVERING_FIRE, data={
        "weapon": weapon.name, "direction": direction_to(actor, command.squares[0]),
        "until_round": common.next_turn_round(state, actor.id)})
    others = tuple(p for p in state.combat.pending
                   if not (p.token_id == actor.id and p.kind == COVERING_FIRE))
    state = replace(state, combat=replace(state.combat, pending=(*others, watch)))
    return state, tuple(events)


def _living(state: EncounterState, tokens: Iterable[AffectedToken]) -> list[AffectedToken]:
    """The tokens of an area that its fire is at: any but the dead (a Disabled, dying or
    stable soldier can be hit, the d20 rule)."""
    return [t for t in tokens if not board.dead(state.token(t.token_id))]


def covering_shot(state: EncounterState, watch: PendingAction, mover_id: str, before: Square,
                  ) -> tuple[Token, Weapon] | None:
    """The shooter and weapon of ``watch`` if it is a Covering Fire that fires at ``mover_id``,
    standing where it stands in ``state`` after moving from ``before``: a foe who moves into
    the covered cone (it was not in it before), while the shooter has rounds left."""
    if watch.kind != COVERING_FIRE or not any(t.id == watch.token_id for t in state.tokens):
        return None
    shooter, mover = state.token(watch.token_id), state.token(mover_id)
    if not are_opponents(shooter.side, mover.side) or board.out_of_fight(shooter):
        return None
    try:
        weapon = shooter.weapon(str(watch.data.get("weapon", "")))
    except KeyError:
        return None
    area = covering_fire_area(state, shooter.id, float(watch.data.get("direction", 0.0)),
                              weapon.name)
    was_inside = any(before.offset(dx, dy) in area.squares
                     for dx in range(mover.size) for dy in range(mover.size))
    if mover_id not in area.token_ids() or was_inside:
        return None
    if weapon.uses_ammunition and weapon.ammo < rounds_per_action(weapon):
        return None
    try:
        attack_math.plan_attack(state, shooter, mover, weapon)
    except attack_math.AttackError:
        return None
    return shooter, weapon


def covering_fire_threats(state: EncounterState, mover_id: str, end: Square,
                          ) -> tuple[tuple[Token, Weapon], ...]:
    """The shooters whose Covering Fire a move of ``mover_id`` ending on ``end`` draws, for
    the move's preview: the same test the move's resolution makes once it has moved."""
    mover = state.token(mover_id)
    moved = common.put(state, mover.moved_to(end))
    found = (covering_shot(moved, watch, mover_id, mover.square) for watch in state.combat.pending)
    return tuple(shot for shot in found if shot is not None)


def covering_fire_on_mover(state: EncounterState, mover_id: str, before: Square, dice: Dice,
                           ) -> Outcome:
    """A foe who moves into a covered cone (it was not in it before) draws one attack from
    each shooter covering it, while the shooter has rounds left."""
    events: list[Event] = []
    for watch in state.combat.pending:
        shot = covering_shot(state, watch, mover_id, before)
        if shot is None:
            continue
        shooter, weapon = shot
        mover = state.token(mover_id)
        plan = attack_math.plan_attack(state, shooter, mover, weapon)
        state = spend_rounds(state, shooter.id, weapon, rounds_per_action(weapon))
        state, fired = attack_math.roll_attack_outcome(
            state, state.token(shooter.id), mover, plan, dice,
            "fires at a foe entering the covered cone (Covering Fire)")
        events.extend(fired)
    return state, tuple(events)


def end_covering_fire(state: EncounterState, shooter_id: str) -> EncounterState:
    """The shooter's turn has come round: its cone is no longer covered."""
    kept = tuple(p for p in state.combat.pending
                 if not (p.token_id == shooter_id and p.kind == COVERING_FIRE))
    return replace(state, combat=replace(state.combat, pending=kept))


register("covering_fire", _covering_check, _covering_describe, _covering_resolve)


# --- Suppressive Fire --------------------------------------------------------------------------


def _suppress_area(state: EncounterState, command: Command) -> SuppressionArea:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    return suppressive_fire_area(state, actor.id, command.squares[0], weapon.name,
                                advanced_firearms_proficiency=bool(
                                    board.STATS.flag(actor, "advanced_firearms")))


def _suppress_check(state: EncounterState, command: Command) -> list[str]:
    if len(command.squares) != 1:
        return ["choose the top-left square of the 10x10-ft area"]
    actor = actor_of(state, command)
    try:
        weapon = weapon_of(actor, command)
        area = _suppress_area(state, command)
    except (KeyError, ValueError) as error:
        return error_reasons(error)
    reason = in_hand(actor, weapon) or special.suppressive_refusal(weapon)
    if reason:
        return [reason]
    return list(area.reasons)


def _suppress_describe(state: EncounterState, command: Command) -> Preview:
    try:
        actor = actor_of(state, command)
        area = _suppress_area(state, command)
    except (KeyError, IndexError, ValueError) as error:
        return Preview(command, False, summary=f"Suppressive Fire: {error}")
    bonus = board.stat_int(actor, "ranged_attack") + special.suppressive_attack_modifier(
        bool(board.STATS.flag(actor, "advanced_firearms")))
    roll = tuple(Modifier(m.rule, m.value, m.applies_to) for m in area.attack)
    under = _living(state, area.tokens)
    return Preview(command, True, summary=f"Suppressive Fire: {actor.name} fires 10 rounds into "
                   f"the area, 1d20{bonus:+d} against Defense 10.",
                   squares=tuple(sorted(area.squares)), shapes=(area.shape,),
                   targets=tuple(t.token_id for t in under), shots=area.shots,
                   modifiers=roll,
                   rolls=("attack 1d20", "Reflex save per creature", "damage per failed save"),
                   overlay=area_overlay("Suppressive Fire", area.squares, outline=area.shape,
                                        reasons=area.reasons).plus(Overlay(tokens=(
                                            # The roll is the shooter's, against the area.
                                            OverlayToken(actor.id, Role.ACTOR, roll),
                                            *overlay_tokens(under)))))


def _suppress_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    weapon = weapon_of(actor, command)
    area = _suppress_area(state, command)
    state = spend_rounds(state, actor.id, weapon, special.SUPPRESSIVE_ROUNDS)
    bonus = board.stat_int(actor, "ranged_attack") + special.suppressive_attack_modifier(
        bool(board.STATS.flag(actor, "advanced_firearms")))
    roll = dice.roll(f"1d20{bonus:+d}", f"{actor.name} Suppressive Fire")
    hit = special.suppressive_hits_area(roll.total)
    events = [Event(EventKind.ATTACK, f"{actor.name} lays down Suppressive Fire: {roll.total} "
                    f"against Defense 10 - {'the area is suppressed' if hit else 'no effect'}.",
                    (actor.id,), roll)]
    if not hit:
        return state, tuple(events)
    for affected in _living(state, area.tokens):
        target = state.token(affected.token_id)
        state, mark = board.add_condition(state, target.id, board.SUPPRESSED,
                                          board.until_end_of_next_turn(state, target.id),
                                          source=actor.id, value=1)
        events.append(mark)
        save = dice.roll(f"{REFLEX_ROLL}{board.reflex(target):+d}",
                         f"{target.name} Reflex against Suppressive Fire")
        if save.total >= special.SUPPRESSIVE_REFLEX_DC:
            events.append(Event(EventKind.ROLL, f"{target.name} saves ({save.total}).",
                                (target.id,), save))
            continue
        damage = dice.roll(weapon.damage, f"{target.name} suppressive damage")
        state, more = attack_math.apply_damage(state, target.id, max(1, damage.total), dice,
                                               damage)
        events.append(Event(EventKind.ROLL, f"{target.name} fails the save ({save.total}).",
                            (target.id,), save))
        events.extend(more)
    return state, tuple(events)


register("suppressive_fire", _suppress_check, _suppress_describe, _suppress_resolve)


def watch_overlay(state: EncounterState) -> Overlay:
    """What stays covered on the map: each Covering Fire cone until its shooter's next turn,
    and the cone of each token on Overwatch (its Aiming cone)."""
    parts: list[Overlay] = []
    for watch in state.combat.pending:
        if watch.kind != COVERING_FIRE or all(t.id != watch.token_id for t in state.tokens):
            continue
        shooter = state.token(watch.token_id)
        weapon = str(watch.data.get("weapon", ""))
        try:
            area = covering_fire_area(state, shooter.id, float(watch.data.get("direction", 0.0)),
                                      weapon)
        except (KeyError, ValueError):
            continue
        label = f"Covering Fire by {shooter.name} ({weapon}): a foe stepping in is shot at"
        parts.append(lasting_area(label, area.squares, area.shape))
    for token in state.tokens:
        if not token.has_condition(board.OVERWATCH):
            continue
        direction = float(common.data(state, token.id, AIM_DIRECTION, 0.0))
        area = aiming_area(state, token.id, direction)
        label = f"Overwatch by {token.name}: the next shot, at a target in this cone"
        parts.append(lasting_area(label, area.squares, area.shape))
    return Overlay().plus(*parts)
