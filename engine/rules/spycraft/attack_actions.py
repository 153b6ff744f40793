"""Spycraft attack actions that roll against Defense, with the tricks that ride on them.

Standard Attack takes a trick as the option ``trick``: "burst", "called_shot",
"cheap_shot" (with ``cheap_on`` = an attribute or "speed") or "bounce" (with
``surfaces``). ``action_die=True`` spends an Action Die to turn a threat into a critical
hit. Ammunition is spent as each action says; too few shots makes the action illegal.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.overlays import target_overlay
from engine.rules.spycraft import action_dice, board, cheap_shot, combat_state
from engine.rules.spycraft import attack_math as am
from engine.rules.spycraft.catalogue import TRICKS
from engine.rules.spycraft.cheap_shot import ROUNDS_PER_MINUTE, save_dc
from engine.rules.spycraft.checks import failed_save_fluid, note_failed_check, save
from engine.rules.spycraft.geometry_bridge import cover, line_of_sight
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.rules.spycraft.item_actions import is_ready
from engine.rules.spycraft.schema import ATTRIBUTES
from engine.tokens import Token, Weapon
from engine.words import counted

ARMOR_PENALTY = {"none": 0, "partial": -3, "moderate": -6, "full": -9}


def chosen_weapon(actor: Token, command: Command) -> Weapon | None:
    if command.weapon is not None:
        return actor.weapon(command.weapon)
    return actor.weapons[0] if actor.weapons else None


def spend_ammo(
    state: EncounterState, actor_id: str, weapon: Weapon | None, shots: int
) -> tuple[EncounterState, list[Event]]:
    if weapon is None or not weapon.uses_ammunition or shots <= 0:
        return state, []
    actor = state.token(actor_id)
    current = actor.weapon(weapon.name)
    left = current.ammo - shots
    weapons = tuple(w.with_ammo(left) if w.name == weapon.name else w for w in actor.weapons)
    state = state.with_token(replace(actor, weapons=weapons))
    events = [
        Event(
            EventKind.AMMO,
            f"{actor.name} fires {counted(shots, 'shot')} from {weapon.name} "
            f"({left} left).",
            (actor_id,),
        )
    ]
    state, fluid = weapon_fluid(state, actor_id, weapon)
    return state, events + fluid


def weapon_fluid(
    state: EncounterState, actor_id: str, weapon: Weapon
) -> tuple[EncounterState, list[Event]]:
    """Table: Fluid Initiative Modifiers for firing: -2 for a tactical weapon (trait
    ``tactical``), -4 once a round per weapon used without proficiency."""
    if not state.combat.has(actor_id):
        return state, []
    actor = state.token(actor_id)
    events: list[Event] = []
    if "tactical" in weapon.traits:
        state = board.add_fluid(state, actor_id, -2)
        events.append(
            Event(
                EventKind.INITIATIVE,
                f"{actor.name} fires a tactical weapon: -2 Initiative.",
                (actor_id,),
            )
        )
    fired = combat_state.fired_without_proficiency(state, actor_id)
    if not board.is_proficient(actor, "", weapon.name) and weapon.name not in fired:
        state = board.add_fluid(state, actor_id, -4)
        state = combat_state.note_fired_without_proficiency(state, actor_id, weapon.name)
        events.append(
            Event(
                EventKind.INITIATIVE,
                f"{actor.name} uses {weapon.name} without proficiency: -4 Initiative.",
                (actor_id,),
            )
        )
    return state, events


def ammo_reasons(weapon: Weapon | None, shots: int, action: str) -> list[str]:
    if weapon is None or not weapon.uses_ammunition or shots <= 0:
        return []
    if weapon.ammo < shots:
        return [f"{action} needs {counted(shots, 'shot')}; {weapon.name} has {weapon.ammo}"]
    return []


def weapon_reasons(weapon: Weapon | None) -> list[str]:

    if weapon is not None and not is_ready(weapon):
        return [f"{weapon.name} is put away: draw it first"]
    return []


def target_reasons(
    state: EncounterState, actor: Token, target: Token, weapon: Weapon | None
) -> list[str]:
    reasons: list[str] = weapon_reasons(weapon)
    if target.id == actor.id:
        reasons.append(f"{actor.name} cannot attack himself")
    if not line_of_sight(state, actor, target):
        reasons.append(f"{actor.name} has no line of sight to {target.name}")
    elif not cover(state, actor, target).can_be_attacked:
        reasons.append(f"{target.name} has total cover from {actor.name}")
    reasons.extend(am.range_reasons(state, actor, target, weapon))
    return reasons


def standard_modifiers(
    state: EncounterState, command: Command, actor: Token, target: Token, weapon: Weapon | None
) -> list[Modifier]:
    mods = am.attacker_modifiers(state, actor, target, weapon)
    rng = am.range_modifier(state, actor, target, weapon)
    if rng:
        mods.append(rng)
    for aim in board.conditions_named(actor, board.AIMING):
        if aim.source == target.id:
            mods.append(Modifier("aim", 1))
    trick = command.option("trick")
    if trick == "burst" and weapon is not None:
        recoil = am.recoil_modifier(actor, weapon)
        if recoil:
            mods.append(recoil)
    if trick == "called_shot":
        armor = board.STATS.text(target, "armor")
        if ARMOR_PENALTY.get(armor):
            mods.append(Modifier(f"called shot vs {armor} armor", ARMOR_PENALTY[armor]))
        if board.STATS.flag(target, "helmet"):
            mods.append(Modifier("called shot vs helmet", -1))
    if trick == "cheap_shot":
        mods.append(Modifier("cheap shot", -4))
    if trick == "bounce":
        mods.append(Modifier("bounce", -2 * int(command.option("surfaces", 1) or 0)))
    return mods


def error_range(command: Command, base: int, actor: Token, key: str) -> int:
    spec_error = base
    trick = command.option("trick")
    if trick in ("burst", "cheap_shot"):
        spec_error += 1
    if trick == "bounce":
        spec_error += int(command.option("surfaces", 1) or 0)
    if not board.is_proficient(actor, key, command.weapon):
        spec_error += 2
    return spec_error


@handles("standard_attack")
class StandardAttack(SpycraftHandler):
    def shots(self, command: Command) -> int:
        return 3 if command.option("trick") == "burst" else 1

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        reasons = target_reasons(state, actor, target, weapon)
        trick = command.option("trick")
        if trick is not None and trick not in TRICKS:
            reasons.append(f"unknown trick {trick!r} (tricks: {', '.join(TRICKS)})")
        if trick == "burst" and (weapon is None or "burst" not in weapon.modes):
            reasons.append("Burst needs a firearm with a burst mode")
        if trick == "called_shot":
            aiming = any(a.source == target.id for a in board.conditions_named(actor, board.AIMING))
            close = board.adjacent(actor, target) and am.is_melee(weapon)
            if not (aiming and not am.is_melee(weapon)) and not close:
                reasons.append(
                    "a Called Shot needs Aim (ranged) or an adjacent target (melee or unarmed)"
                )
        if trick == "cheap_shot":
            if cheap_shot.suffered_this_scene(state, target):
                reasons.append(f"{target.name} already suffered a Cheap Shot this scene")
            on = str(command.option("cheap_on", "speed"))
            if on not in (*ATTRIBUTES, "speed"):
                reasons.append(f"a Cheap Shot targets an attribute or speed, not {on!r}")
        if trick == "bounce":
            surfaces = int(command.option("surfaces", 1) or 0)
            if weapon is None or "thrown" not in weapon.traits:
                reasons.append("Bounce needs a thrown weapon")
            most = max(0, board.stat_int(actor, "dex"))
            if surfaces > most:
                reasons.append(f"{actor.name} may bounce off at most {most} surfaces")
        reasons.extend(ammo_reasons(weapon, self.shots(command), self.spec.name))
        return reasons

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        mods = standard_modifiers(state, command, actor, target, weapon)
        bonus = am.attack_bonus(actor, weapon) + sum(m.value for m in mods)
        defense, dmods = am.defense(state, actor, target, weapon)
        trick = command.option("trick")
        name = weapon.name if weapon else "bare hands"
        initiative = ((actor.id, -5),) if trick == "called_shot" else ()
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} attacks {target.name} with {name}"
                + (f" ({str(trick).replace('_', ' ')})" if trick else "")
                + f": 1d20{bonus:+d} against Defense {defense}."
            ),
            targets=(target.id,),
            squares=target.squares,
            modifiers=(*mods, *dmods),
            overlay=target_overlay(actor.id, (target.id,), (*mods, *dmods)),
            shots=self.shots(command) if weapon and weapon.uses_ammunition else 0,
            initiative=initiative,
            rolls=(f"attack 1d20{bonus:+d}", "damage " + (weapon.damage if weapon else "unarmed")),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        trick = command.option("trick")
        events: list[Event] = []
        state, fired = spend_ammo(state, actor.id, weapon, self.shots(command))
        events.extend(fired)
        mods = standard_modifiers(state, command, actor, target, weapon)
        bonus = am.attack_bonus(actor, weapon) + sum(m.value for m in mods)
        defense, _ = am.defense(state, actor, target, weapon)
        err = error_range(command, 0, actor, self.key)
        state, more = attack_once(
            state,
            dice,
            actor,
            target,
            weapon,
            bonus,
            defense,
            err,
            command,
            label=f"{actor.name} attacks {target.name}",
        )
        events.extend(more)
        if trick == "called_shot":
            state = board.add_fluid(state, actor.id, -5)
            events.append(
                Event(
                    EventKind.INITIATIVE,
                    f"{actor.name}: Called Shot, -5 fluid Initiative.",
                    (actor.id,),
                )
            )
        return state, tuple(events)


def attack_once(
    state: EncounterState,
    dice: Dice,
    actor: Token,
    target: Token,
    weapon: Weapon | None,
    bonus: int,
    defense: int,
    err: int,
    command: Command,
    *,
    label: str,
    subdual: bool = False,
    damage_bonus: int = 0,
    damage_times: int = 1,
) -> tuple[EncounterState, list[Event]]:
    """One attack check, with hits, threats, errors and the trick's effect."""
    events: list[Event] = []
    threat = am.weapon_trait(weapon, "threat", 20) if weapon else 20
    result = am.roll_attack(dice, actor, target, bonus, defense, err, f"{label}: attack", threat)
    outcome = "hits" if result.hit else "misses"
    extra = ""
    if result.threat and result.hit:
        extra = " (a threat)"
    if result.error and not result.hit:
        extra = " (an error)"
    events.append(
        Event(
            EventKind.ATTACK,
            f"{label}: {result.total} against Defense {defense}, {outcome}{extra}.",
            (actor.id, target.id),
            result.roll,
        )
    )
    state = mark_attacked(state, target.id, actor.id)
    state = _use_edge(state, actor.id, target.id)
    trick = command.option("trick")
    if not result.hit:
        state = note_failed_check(state, actor.id)
        if trick == "cheap_shot":
            state, flat = board.add_condition(
                state, actor.id, board.FLAT_FOOTED, board.until_next_turn(state, actor.id)
            )
            events.append(flat)
        return state, events
    critical = bool(result.threat and command.option("action_die", False))
    if critical:
        events.append(action_dice.spent(actor, "critical hit"))
    shots = 1
    if trick == "burst":
        shots = 1 + (result.margin >= 5) + (result.margin >= 10)
        events.append(Event(EventKind.ATTACK, f"Burst: {shots} of 3 shots hit.", (target.id,)))
    for shot in range(shots):
        for _ in range(damage_times):
            damage = am.roll_damage(dice, actor, weapon, f"{label}: damage", damage_bonus)
            total = damage.total * (
                2 if subdual and damage_times == 1 and command.action == "pummel" else 1
            )
            events.append(
                Event(EventKind.ROLL, f"Damage roll: {damage.total}.", (target.id,), damage)
            )
            ignore_dr = trick == "called_shot"
            reduced = total if ignore_dr else max(0, total - board.stat_int(target, "dr"))
            state, dealt = am.apply_damage(
                state,
                target.id,
                reduced,
                critical=critical and shot == 0,
                subdual=subdual,
                source=" (armor ignored)" if ignore_dr and board.stat_int(target, "dr") else "",
                attacker=actor.id,
            )
            events.extend(dealt)
    if trick == "cheap_shot":
        on = str(command.option("cheap_on", "speed"))
        state, ev = cheap_shot.land(state, target.id, on)
        events.append(ev)
    return state, events


def _use_edge(state: EncounterState, actor_id: str, target_id: str) -> EncounterState:
    """A +1/+2 edge against someone is spent by the next attack on him."""
    actor = state.token(actor_id)
    kept = tuple(c for c in actor.conditions if not (c.name == "edge" and c.source == target_id))
    if len(kept) == len(actor.conditions):
        return state
    return state.with_token(replace(actor, conditions=kept))


def mark_attacked(state: EncounterState, target_id: str, attacker_id: str) -> EncounterState:
    """Being targeted spoils a Refresh, and a Taunt is answered by attacking the taunter."""
    target = state.token(target_id)
    if target.has_condition(board.REFRESHING):
        state = (
            board.set_data(state, target_id, refresh_spoiled=True)
            if state.combat.has(target_id)
            else state
        )
    attacker = state.token(attacker_id)
    for taunt in board.conditions_named(attacker, board.TAUNTED):
        if taunt.source == target_id:
            state = board.remove_condition(state, attacker_id, board.TAUNTED)
    return state


class _Trick(SpycraftHandler):
    """Tricks ride on a Standard Attack (its ``trick`` option); alone they are refused."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        return [f"{self.spec.name} is a trick: add trick={self.key} to a Standard Attack"]


for _key in TRICKS:
    handles(_key)(type(f"Trick_{_key}", (_Trick,), {}))


@handles("fight_defensively")
class FightDefensively(SpycraftHandler):
    """Chosen at the start of his Initiative Count: -4 to attacks and skills, +2 dodge
    Defense, for 1 full round."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        mine = state.combat.combatant(str(command.actor))
        started = mine.budget.get("half", 0) < 2 or mine.get("moved", False)
        if started or mine.get("stepped", False):
            return ["Fight Defensively is chosen at the start of his Initiative Count"]
        return []

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = str(command.actor)
        state, event = board.add_condition(
            state, actor, board.DEFENSIVE, board.until_next_turn(state, actor)
        )
        return state, (event,)


# ---- Shake Off (the end of a Cheap Shot)


@handles("shake_off")
class ShakeOff(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if not actor.has_condition(board.CHEAP_SHOT):
            return [f"{actor.name} suffers no Cheap Shot"]
        tried = state.combat.combatant(actor.id).data.get("cheap_shot_try")
        if tried is not None and state.combat.round - int(tried) < ROUNDS_PER_MINUTE:
            again = int(tried) + ROUNDS_PER_MINUTE
            return [
                f"{actor.name} may try to shake off the Cheap Shot once a minute (round {again})"
            ]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        dc = save_dc(state, actor.id)
        return Preview(
            command,
            True,
            summary=f"{actor.name} tries to shake off the Cheap Shot: Fortitude save DC {dc}.",
            rolls=(f"{actor.name} Fortitude save vs DC {dc}",),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        dc = save_dc(state, actor.id)
        ok, _, event = save(dice, actor, "fortitude", dc)
        state = board.set_data(state, actor.id, cheap_shot_try=state.combat.round)
        state = failed_save_fluid(state, actor.id, ok)
        if not ok:
            return state, (event,)
        state = board.remove_condition(state, actor.id, board.CHEAP_SHOT)
        done = Event(EventKind.CONDITION, f"{actor.name} shakes off the Cheap Shot.", (actor.id,))
        return state, (event, done)
