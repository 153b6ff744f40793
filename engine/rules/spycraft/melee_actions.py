"""Spycraft close attacks and social attacks: Coup de Grace, Disarm, Kick, Pummel, Trip,
Taunt, Threaten."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.overlays import target_overlay
from engine.rules.spycraft import attack_math as am
from engine.rules.spycraft import board, combat_state, tables
from engine.rules.spycraft.attack_actions import (
    ammo_reasons,
    attack_once,
    chosen_weapon,
    mark_attacked,
    spend_ammo,
    standard_modifiers,
    target_reasons,
    weapon_reasons,
)
from engine.rules.spycraft.checks import (
    failed_save_fluid,
    flat_footed_after_failure,
    note_failed_check,
    opposed,
    save,
)
from engine.rules.spycraft.final_attack import final_attack
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.rules.spycraft.item_actions import drop_weapon, is_ready
from engine.tokens import Expiry, ExpiryPoint, Token, Weapon
from engine.words import counted

HELPLESS_STATES = (board.HELPLESS, board.UNCONSCIOUS, board.PINNED)
TWO_HANDED_BONUS = 4
THREATEN_VITALITY = 5
DEAD_WOUNDS = -10


def _pair(state: EncounterState, command: Command) -> tuple[Token, Token]:
    return state.token(str(command.actor)), state.token(str(command.target))


def _adjacent_reason(actor: Token, target: Token) -> list[str]:
    return [] if board.adjacent(actor, target) else [f"{target.name} is not adjacent"]


def unarmed_numbers(
    state: EncounterState, actor: Token, target: Token
) -> tuple[int, int, list[Modifier]]:
    """Attack bonus, the target's Defense and their named parts for an unarmed blow."""
    mods = am.attacker_modifiers(state, actor, target, None)
    defense, dmods = am.defense(state, actor, target, None)
    bonus = board.stat_int(actor, "melee_attack") + sum(m.value for m in mods)
    return bonus, defense, [*mods, *dmods]


def unarmed_preview(
    state: EncounterState, command: Command, verb: str, effect: str, initiative: int = 0
) -> Preview:
    """The preview of an unarmed blow (Kick, Pummel): its roll, Defense and their parts."""
    actor, target = _pair(state, command)
    bonus, defense, mods = unarmed_numbers(state, actor, target)
    return Preview(
        command,
        True,
        summary=(
            f"{actor.name} {verb} {target.name}: 1d20{bonus:+d} against Defense {defense}; "
            f"{effect}."
        ),
        targets=(target.id,),
        modifiers=tuple(mods),
        overlay=target_overlay(actor.id, (target.id,), mods),
        initiative=((actor.id, initiative),) if initiative else (),
        rolls=(f"attack 1d20{bonus:+d}", "damage unarmed"),
    )


def _cqb_reason(state: EncounterState, actor: Token, target: Token) -> list[str]:
    if board.feet_between(state, actor, target) > am.cqb_range_ft(actor):
        return [f"{target.name} is beyond CQB range ({am.cqb_range_ft(actor):g} ft)"]
    return []


def deviation_square(state: EncounterState, around: Token, dice: Dice) -> Square:
    """A random free neighbouring square by the Deviation Diagram (engine.routes),
    occupied squares re-rolled; the token's own square if none is free."""
    from engine.routes import MovementGraph
    from engine.routes.deviation import deviate

    landed = deviate(
        MovementGraph(state, difficult_cost=tables.DIFFICULT_TERRAIN_COST),
        around.square,
        lambda expression: dice.roll(expression, "Deviation").total,
        ignore=(around.id,),
        diagram=tables.DEVIATION.diagram,
    )
    return landed.square if landed.square is not None else around.square


def flight_square(state: EncounterState, around: Token, dice: Dice) -> Square:
    """A disarmed weapon sent flying in a d8 direction, as far as the system's Deviation
    Diagram says (``tables.DEVIATION``, through engine.routes)."""
    from engine.routes import MovementGraph
    from engine.routes.deviation import weapon_flight

    flight = weapon_flight(
        MovementGraph(state, difficult_cost=tables.DIFFICULT_TERRAIN_COST),
        around.square,
        lambda expression: dice.roll(expression, "weapon flight").total,
        tables.DEVIATION,
    )
    return flight.landing


@handles("coup_de_grace")
class CoupDeGrace(SpycraftHandler):
    """Option ``knock_out=True`` knocks the target out instead of the critical hit."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        weapon = chosen_weapon(actor, command)
        reasons = weapon_reasons(weapon) + _adjacent_reason(actor, target)
        if not any(target.has_condition(c) for c in HELPLESS_STATES):
            reasons.append(f"{target.name} is not helpless")
        return reasons + ammo_reasons(weapon, 1, "Coup de Grace")

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        weapon = chosen_weapon(actor, command)
        state, events = spend_ammo(state, actor.id, weapon, 1)
        state = mark_attacked(state, target.id, actor.id)
        if command.option("knock_out", False):
            state, ev = board.add_condition(state, target.id, board.UNCONSCIOUS)
            return state, (
                *events,
                Event(
                    EventKind.ATTACK,
                    f"{actor.name} knocks {target.name} out.",
                    (actor.id, target.id),
                ),
                ev,
            )
        damage = am.roll_damage(dice, actor, weapon, "Coup de Grace damage")
        events.append(
            Event(
                EventKind.ATTACK,
                f"{actor.name} delivers a Coup de Grace to {target.name}: automatic critical hit.",
                (actor.id, target.id),
                damage,
            )
        )
        state, dealt = am.apply_damage(
            state, target.id, damage.total, critical=True, attacker=actor.id
        )
        events.extend(dealt)
        ok, _, event = save(dice, state.token(target.id), "fortitude", 10 + damage.total)
        state = failed_save_fluid(state, target.id, ok)
        events.append(event)
        if not ok:
            victim = state.token(target.id)
            state = state.with_token(board.with_stats(victim, wounds=DEAD_WOUNDS))
            state, ev = board.add_condition(state, target.id, board.DEAD)
            events.append(ev)
        return state, tuple(events)


def _holds_two_handed(token: Token, weapon: Weapon | None) -> bool:
    return weapon is not None and weapon.two_handed


@handles("disarm")
class Disarm(SpycraftHandler):
    """The target's weapon: ``option target_weapon`` (default his first ready weapon)."""

    def their_weapon(self, target: Token, command: Command) -> Weapon | None:

        name = command.option("target_weapon")
        ready = [w for w in target.weapons if is_ready(w)]
        if name is not None:
            return next((w for w in ready if w.name == name), None)
        return ready[0] if ready else None

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        weapon = chosen_weapon(actor, command)
        reasons = target_reasons(state, actor, target, weapon if am.is_melee(weapon) else None)
        if not am.is_melee(weapon):
            reasons = [r for r in reasons if "reach" not in r] + _cqb_reason(state, actor, target)
        if self.their_weapon(target, command) is None:
            reasons.append(f"{target.name} holds no weapon to lose")
        return reasons + ammo_reasons(weapon, 1, "Disarm")

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        weapon = chosen_weapon(actor, command)
        theirs = self.their_weapon(target, command)
        assert theirs is not None
        events: list[Event] = []
        state, fired = spend_ammo(state, actor.id, weapon, 1)
        events.extend(fired)
        mine_bonus = am.attack_bonus(actor, weapon) + sum(
            m.value for m in standard_modifiers(state, command, actor, target, weapon)
        )
        their_bonus = am.attack_bonus(target, theirs)
        if _holds_two_handed(actor, weapon):
            mine_bonus += TWO_HANDED_BONUS
        if _holds_two_handed(target, theirs):
            their_bonus += TWO_HANDED_BONUS
        if am.is_melee(weapon):
            a_size, b_size = (
                am.weapon_trait(weapon, "size", 0) if weapon else -2,
                am.weapon_trait(theirs, "size", 0),
            )
            if a_size > b_size:
                mine_bonus += 4 * (a_size - b_size)
            elif b_size > a_size:
                their_bonus += 4 * (b_size - a_size)
        err = 2 + (0 if board.is_proficient(actor, self.key, command.weapon) else 2)
        result = opposed(
            dice, command, actor, mine_bonus, target, their_bonus, "Disarm (opposed attack)", err
        )
        events.extend(result.events)
        state = mark_attacked(state, target.id, actor.id)
        if result.actor_wins:
            if result.actor_critical and command.option("take", False):
                holder = state.token(target.id)
                state = state.with_token(
                    replace(
                        holder, weapons=tuple(w for w in holder.weapons if w.name != theirs.name)
                    )
                )
                taker = state.token(actor.id)
                state = state.with_token(taker.taking(theirs))
                events.append(
                    Event(
                        EventKind.ACTION,
                        f"{actor.name} snatches {theirs.name}.",
                        (actor.id, target.id),
                    )
                )
            else:

                # A win with a threat (or the opponent's error) lets the winner pick the
                # adjacent square (``squares``) or send the weapon flying (``fly=True``).
                threat = result.actor_roll.natural == 20 or result.actor_critical
                holder = state.token(target.id)
                adjacent_pick = [
                    s
                    for s in command.squares
                    if max(abs(s.x - holder.square.x), abs(s.y - holder.square.y)) == 1
                ]
                if threat and command.option("fly", False):
                    where = flight_square(state, holder, dice)
                elif threat and adjacent_pick:
                    where = adjacent_pick[0]
                else:
                    where = deviation_square(state, holder, dice)
                state, ev = drop_weapon(state, target.id, theirs.name, where)
                events.append(
                    Event(
                        EventKind.ACTION,
                        f"{target.name} is disarmed: {theirs.name} lands at {where}.",
                        (target.id,),
                    )
                )
        else:
            state, ev = flat_footed_after_failure(state, actor.id)
            events.append(ev)
            if result.other_critical:
                events.append(
                    Event(
                        EventKind.NOTE,
                        f"{target.name} may make a free Disarm (or, critically, a final "
                        f"attack) against {actor.name}.",
                        (target.id,),
                    )
                )
        return state, tuple(events)


@handles("kick")
class Kick(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        return target_reasons(state, actor, target, None)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        return unarmed_preview(
            state, command, "kicks", "-2 Initiative, Strength bonus twice on damage", -2
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        bonus, defense, _ = unarmed_numbers(state, actor, target)
        extra = max(0, board.stat_int(actor, "str"))
        state, events = attack_once(
            state,
            dice,
            actor,
            target,
            None,
            bonus,
            defense,
            0,
            command,
            label=f"{actor.name} kicks {target.name}",
            damage_bonus=extra,
        )
        state = board.add_fluid(state, actor.id, -2)
        return state, (
            *events,
            Event(EventKind.INITIATIVE, f"{actor.name}: Kick, -2 Initiative.", (actor.id,)),
        )


@handles("pummel")
class Pummel(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        return _adjacent_reason(actor, target) or target_reasons(state, actor, target, None)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        return unarmed_preview(state, command, "pummels", "subdual damage")

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        bonus, defense, _ = unarmed_numbers(state, actor, target)
        state, events = attack_once(
            state,
            dice,
            actor,
            target,
            None,
            bonus,
            defense,
            0,
            command,
            label=f"{actor.name} pummels {target.name}",
            subdual=True,
        )
        raise_by = max(1, board.stat_int(actor, "str"))
        events.append(
            Event(
                EventKind.NOTE,
                f"Any save {target.name} makes against a knock-out from this is {raise_by} harder.",
                (target.id,),
            )
        )
        return state, tuple(events)


@handles("trip")
class Trip(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        reasons = _adjacent_reason(actor, target)
        if board.size_difference(actor, target) > 1:
            reasons.append(f"{target.name} is too big to Trip")
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        a_bonus, b_bonus = board.size_bonus(actor, target)
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "acrobatics") + a_bonus,
            target,
            board.skill(target, "acrobatics") + b_bonus,
            "Trip (Acrobatics)",
            1,
        )
        events = list(result.events)
        state = mark_attacked(state, target.id, actor.id)
        if result.actor_wins:
            state, ev = board.add_condition(state, target.id, board.SPRAWLED)
            events.append(ev)
            if result.actor_critical:
                weapon = chosen_weapon(actor, command)

                if weapon is not None:
                    state, more = final_attack(
                        state, dice, state.token(actor.id), state.token(target.id), weapon, "Trip"
                    )
                    events.extend(more)
        else:
            state, ev = flat_footed_after_failure(state, actor.id)
            events.append(ev)
            if result.other_critical:
                events.append(
                    Event(
                        EventKind.NOTE,
                        f"{target.name} may Trip {actor.name} back as a free action.",
                        (target.id,),
                    )
                )
        return state, tuple(events)


def _for_2d4_rounds(
    state: EncounterState, dice: Dice, token_id: str, condition: str
) -> tuple[EncounterState, Event]:
    """A Taunt's or Threaten's critical: the condition lasts 2d4 rounds (to a round's end)."""
    rounds = dice.roll("2d4", f"{condition} rounds").total
    expires = Expiry(state.combat.round + rounds, ExpiryPoint.END_OF_ROUND)
    state, _ = board.add_condition(state, token_id, condition, expires)
    return state, Event(
        EventKind.CONDITION,
        f"{state.token(token_id).name} is {condition} for {counted(rounds, 'round')}.",
        (token_id,),
    )


def _provoke_fails(
    state: EncounterState, actor: str, target: str, target_critical: bool
) -> tuple[EncounterState, Event]:
    """A failed Taunt or Threaten gives the target +1 (+2 on his critical) at the actor."""
    state = note_failed_check(state, actor)
    return board.grant_edge(state, target, actor, 2 if target_critical else 1)


@handles("taunt")
class Taunt(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        return _cqb_reason(state, actor, target)

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "manipulate"),
            target,
            board.skill(target, "sense_motive"),
            "Taunt (Manipulate vs Sense Motive)",
        )
        events = list(result.events)
        if result.actor_wins:
            state, ev = board.add_condition(state, target.id, board.TAUNTED, source=actor.id)
            events.append(
                Event(
                    EventKind.CONDITION,
                    f"{target.name} must attack {actor.name} with his next action.",
                    (target.id,),
                )
            )
            if result.actor_critical:
                state, ev = _for_2d4_rounds(state, dice, target.id, board.ENRAGED)
                events.append(ev)
        else:
            state, ev = _provoke_fails(state, actor.id, target.id, result.other_critical)
            events.append(ev)
        return state, tuple(events)


@handles("threaten")
class Threaten(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor, target = _pair(state, command)
        reasons = _cqb_reason(state, actor, target)
        vitality, wounds = combat_state.harm_done(state, actor.id, target.id)
        if vitality < THREATEN_VITALITY and wounds < 1:
            reasons.append(
                f"{actor.name} has not yet hurt {target.name} enough (5 vitality or 1 wound)"
            )
        return reasons

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor, target = _pair(state, command)
        result = opposed(
            dice,
            command,
            actor,
            board.skill(actor, "intimidate"),
            target,
            board.skill(target, "resolve_wis"),
            "Threaten (Intimidate vs Resolve)",
        )
        events = list(result.events)
        if result.actor_wins:
            stress = dice.roll("1d4+1", "Threaten stress")
            total = board.stat_int(target, "stress") + stress.total
            state = state.with_token(board.with_stats(target, stress=total))
            events.append(
                Event(
                    EventKind.DAMAGE,
                    f"{target.name} takes {stress.total} stress (now {total}).",
                    (target.id,),
                    stress,
                )
            )
            if result.actor_critical:
                state, ev = _for_2d4_rounds(state, dice, target.id, board.FRIGHTENED)
                events.append(ev)
        else:
            state, ev = _provoke_fails(state, actor.id, target.id, result.other_critical)
            events.append(ev)
        return state, tuple(events)
