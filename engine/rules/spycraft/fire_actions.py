"""Spycraft automatic and area fire: Autofire, Strafe, Suppressive Fire, Cover Fire.

Strafe follows its description (3 shots per square, up to a third of the remaining
shots, at most 10 squares; 9+ shots loaded), not the table's "2 per square".
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.overlay import Overlay
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.overlays import target_overlay
from engine.rules.spycraft import action_dice, board
from engine.rules.spycraft import attack_math as am
from engine.rules.spycraft.attack_actions import (
    ammo_reasons,
    chosen_weapon,
    error_range,
    mark_attacked,
    spend_ammo,
    target_reasons,
    weapon_reasons,
)
from engine.rules.spycraft.checks import check_roll, failed_save_fluid, note_failed_check, save
from engine.rules.spycraft.final_attack import final_attack
from engine.rules.spycraft.geometry_bridge import in_cone
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.rules.spycraft.strafe import MINIMUM_SHOTS, StrafePlan, plan_strafe, strafe_overlay
from engine.rules.spycraft.suppressive_fire import (
    WARNING_SHOTS,
    suppression_overlay,
    suppressive_fire_area,
)
from engine.tokens import Token, Weapon
from engine.turns.combat import PendingAction
from engine.words import counted

AUTOFIRE_MIN_SHOTS = 6
SHOTS_PER_VOLLEY = 3
MAX_VOLLEYS = 10
COVER_FIRE_SHOTS = 5


def _full_auto_reasons(weapon: Weapon | None, minimum: int, name: str) -> list[str]:
    if weapon is None or "full auto" not in weapon.modes:
        return [f"{name} needs a firearm with a full-auto mode"]
    reasons = weapon_reasons(weapon)
    if weapon.ammo < minimum:
        reasons.append(f"{name} needs {minimum}+ shots loaded; {weapon.name} has {weapon.ammo}")
    return reasons


def _brace_bonus(state: EncounterState, actor: Token, target: Token) -> list[Modifier]:
    return [
        Modifier("braced (target in cone)", 1)
        for brace in board.conditions_named(actor, board.BRACED)
        if brace.source and in_cone(state, actor, target, brace.source)
    ]


@handles("autofire")
class Autofire(SpycraftHandler):
    """Option ``volleys`` (default: as many as the weapon allows, at most 10)."""

    def volleys(self, actor: Token, command: Command) -> int:
        weapon = chosen_weapon(actor, command)
        most = min(MAX_VOLLEYS, (weapon.ammo if weapon else 0) // SHOTS_PER_VOLLEY)
        return int(command.option("volleys", most) or 0)

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        reasons = _full_auto_reasons(weapon, AUTOFIRE_MIN_SHOTS, "Autofire")
        if reasons:
            return reasons
        reasons = target_reasons(state, actor, target, weapon)
        volleys = self.volleys(actor, command)
        assert weapon is not None
        most = min(MAX_VOLLEYS, weapon.ammo // SHOTS_PER_VOLLEY)
        if not 1 <= volleys <= most:
            reasons.append(
                f"Autofire may fire 1 to {counted(most, 'volley')} (a third of the shots left, "
                "at most 10)"
            )
        return reasons

    def modifiers(
        self, state: EncounterState, command: Command, actor: Token, target: Token
    ) -> list[Modifier]:
        weapon = chosen_weapon(actor, command)
        assert weapon is not None
        mods = am.attacker_modifiers(state, actor, target, weapon)
        mods = [m for m in mods if not m.name.startswith("braced")]
        mods.extend(_brace_bonus(state, actor, target))
        mods.append(Modifier("volleys", -self.volleys(actor, command)))
        rng = am.range_modifier(state, actor, target, weapon)
        if rng:
            mods.append(rng)
        recoil = am.recoil_modifier(actor, weapon)
        if recoil:
            mods.append(recoil)
        return mods

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        volleys = self.volleys(actor, command)
        mods = self.modifiers(state, command, actor, target)
        bonus = am.attack_bonus(actor, chosen_weapon(actor, command)) + sum(m.value for m in mods)
        defense, dmods = am.defense(state, actor, target, chosen_weapon(actor, command))
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} autofires {counted(volleys, 'volley')} at {target.name}: "
                f"1d20{bonus:+d} "
                f"against Defense {defense}; every 4 over lands one more shot (up to {volleys})."
            ),
            targets=(target.id,),
            squares=target.squares,
            modifiers=(*mods, *dmods),
            overlay=target_overlay(actor.id, (target.id,), (*mods, *dmods)),
            shots=volleys * SHOTS_PER_VOLLEY,
            rolls=(f"attack 1d20{bonus:+d}", "damage per shot"),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        volleys = self.volleys(actor, command)
        mods = self.modifiers(state, command, actor, target)
        bonus = am.attack_bonus(actor, weapon) + sum(m.value for m in mods)
        defense, _ = am.defense(state, actor, target, weapon)
        events: list[Event] = []
        state, fired = spend_ammo(state, actor.id, weapon, volleys * SHOTS_PER_VOLLEY)
        events.extend(fired)
        threat = am.weapon_trait(weapon, "threat", 20) if weapon else 20
        result = am.roll_attack(
            dice,
            actor,
            target,
            bonus,
            defense,
            2 + error_range(command, 0, actor, self.key),
            f"{actor.name} autofires at {target.name}",
            threat,
        )
        state = mark_attacked(state, target.id, actor.id)
        events.append(
            Event(
                EventKind.ATTACK,
                f"{actor.name} autofires at {target.name}: {result.total} against Defense "
                f"{defense}, {'hits' if result.hit else 'misses'}.",
                (actor.id, target.id),
                result.roll,
            )
        )
        if not result.hit:
            state = note_failed_check(state, actor.id)
            return state, tuple(events)
        hits = min(volleys, 1 + result.margin // 4)
        events.append(
            Event(
                EventKind.ATTACK,
                f"{counted(hits, 'shot')} {'strikes' if hits == 1 else 'strike'} {target.name}.",
                (target.id,),
            )
        )
        critical = bool(result.threat and command.option("action_die", False))
        if critical:
            events.append(action_dice.spent(actor, "critical hit (Autofire)"))
        for shot in range(hits):
            damage = am.roll_damage(dice, actor, weapon, "Autofire damage")
            state, dealt = am.apply_damage(
                state,
                target.id,
                max(0, damage.total - board.stat_int(target, "dr")),
                critical=critical and shot == 0,
                attacker=actor.id,
            )
            events.extend(dealt)
        return state, tuple(events)


@handles("strafe")
class Strafe(SpycraftHandler):
    """``squares``: the chain, from one end to the other, in the order it is swept
    (engine.rules.spycraft.strafe plans it; check, preview and resolution read the plan)."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        weapon = chosen_weapon(actor, command)
        reasons = _full_auto_reasons(weapon, MINIMUM_SHOTS, "Strafe")
        if reasons:
            return reasons
        return list(self.plan(state, command).reasons)

    def plan(self, state: EncounterState, command: Command) -> StrafePlan:
        actor = state.token(str(command.actor))
        weapon = chosen_weapon(actor, command)
        assert weapon is not None
        return plan_strafe(
            state,
            actor,
            weapon,
            command.squares,
            from_end=bool(command.option("from_end", False)),
        )

    def base_bonus(
        self, state: EncounterState, command: Command, actor: Token
    ) -> tuple[int, list[Modifier]]:
        weapon = chosen_weapon(actor, command)
        assert weapon is not None
        mods = [m for m in am.attacker_modifiers(state, actor, None, weapon)]
        recoil = am.recoil_modifier(actor, weapon, doubled=True)
        if recoil:
            mods.append(recoil)
        return am.attack_bonus(actor, weapon) + sum(m.value for m in mods), mods

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        if chosen_weapon(actor, command) is None:
            return Preview(command, False, summary="Strafe needs a firearm")
        plan = self.plan(state, command)
        bonus, attack = self.base_bonus(state, command, actor)
        lines = []
        defence: dict[str, list[Modifier]] = {}
        for target in plan.targets:
            token = state.token(target.token_id)
            defense, dmods = am.defense(state, actor, token, chosen_weapon(actor, command))
            step = target.defense_bonus
            lines.append(f"{token.name} at {target.square}: Defense {defense}+{step}")
            defence.setdefault(token.id, []).extend(
                replace(m, name=f"{token.name}: {m.name}") for m in dmods
            )
        mods = [*attack, *(m for named in defence.values() for m in named)]
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} strafes {counted(len(command.squares), 'square')} "
                f"({counted(plan.shots, 'shot')}): one roll 1d20{bonus:+d} "
                "against " + ("; ".join(lines) if lines else "nobody in the area") + "."
            ),
            targets=tuple(dict.fromkeys(t.token_id for t in plan.targets)),
            squares=command.squares,
            shapes=(plan.chain.shape,),
            notes=tuple(
                f"{state.token(i).name} is not an opponent but stands in the sweep at {square}"
                for i, square in plan.bystanders
            ),
            modifiers=tuple(mods),
            shots=plan.shots,
            rolls=(
                f"attack 1d20{bonus:+d}",
                *(f"damage for {state.token(t.token_id).name}" for t in plan.targets),
            ),
            overlay=strafe_overlay(state, plan, actor.id, attack, defence),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        weapon = chosen_weapon(actor, command)
        events: list[Event] = []
        plan = self.plan(state, command)
        bonus, _ = self.base_bonus(state, command, actor)
        state, fired = spend_ammo(state, actor.id, weapon, plan.shots)
        events.extend(fired)
        roll = check_roll(dice, bonus, f"{actor.name} strafes")
        nat = roll.natural
        events.append(
            Event(
                EventKind.ATTACK,
                f"{actor.name} strafes {counted(len(command.squares), 'square')}: "
                f"attack {roll.total}.",
                (actor.id,),
                roll,
            )
        )
        crit_target = command.option("critical_target")
        critical = bool(
            nat is not None
            and nat >= (am.weapon_trait(weapon, "threat", 20) if weapon else 20)
            and command.option("action_die", False)
        )
        crit_used = False
        missed_any = False
        for target in plan.targets:
            square = target.square
            current = state.token(target.token_id)
            defense, _ = am.defense(state, actor, current, weapon)
            defense += target.defense_bonus
            hit = (roll.total >= defense or nat == 20) and nat != 1
            state = mark_attacked(state, current.id, actor.id)
            events.append(
                Event(
                    EventKind.ATTACK,
                    f"  {current.name} at {square} (Defense {defense}): "
                    f"{'hit' if hit else 'missed'}.",
                    (current.id,),
                )
            )
            if not hit:
                missed_any = True
                continue
            damage = am.roll_damage(dice, actor, weapon, f"Strafe damage to {current.name}")
            as_crit = critical and not crit_used and (crit_target in (None, current.id))
            if as_crit:
                events.append(action_dice.spent(actor, f"critical hit on {current.name}"))
            crit_used = crit_used or as_crit
            state, dealt = am.apply_damage(
                state,
                current.id,
                max(0, damage.total - board.stat_int(current, "dr")),
                critical=as_crit,
                attacker=actor.id,
            )
            events.extend(dealt)
        if missed_any and not any(e.text.endswith(": hit.") for e in events):
            state = note_failed_check(state, actor.id)
        return state, tuple(events)


# ---- Suppressive Fire


@handles("suppressive_fire")
class SuppressiveFire(SpycraftHandler):
    """One empty square in range; 5 shots now, 1 per final attack later."""

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        weapon = chosen_weapon(actor, command)
        if weapon is None or weapon.melee or not weapon.uses_ammunition:
            return ["Suppressive Fire needs a firearm"]
        # Empty square, range, sight and the 5 shots: engine.geometry's area check.
        area = suppressive_fire_area(state, actor.id, command.squares[0], weapon.name)
        return weapon_reasons(weapon) + list(area.reasons)

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        weapon = chosen_weapon(actor, command)
        area = (
            suppressive_fire_area(state, actor.id, command.squares[0], weapon.name)
            if weapon is not None
            else None
        )
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} suppresses {command.squares[0]}: for a round, a final attack at "
                "-4 on "
                "each foe crossing it, who also takes -4 to attacks and skills."
            ),
            squares=command.squares,
            shapes=(area.shape,) if area else (),
            # What an opponent crossing the square will face, as the area's rule gives it.
            modifiers=tuple(Modifier(m.rule, m.value, m.applies_to) for m in area.movers)
            if area
            else (),
            shots=WARNING_SHOTS,
            overlay=suppression_overlay(area) if area else Overlay(),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        weapon = chosen_weapon(actor, command)
        assert weapon is not None
        state, fired = spend_ammo(state, actor.id, weapon, WARNING_SHOTS)
        square = command.squares[0]
        zone = PendingAction(
            actor.id,
            "suppress",
            "",
            "suppressive_fire",
            {"x": square.x, "y": square.y, "weapon": weapon.name, "round": state.combat.round},
        )
        state = replace(state, combat=replace(state.combat, pending=(*state.combat.pending, zone)))
        return state, (
            *fired,
            Event(
                EventKind.ACTION,
                f"{actor.name} lays down Suppressive Fire on {square}.",
                (actor.id,),
            ),
        )


# ---- Cover Fire


@handles("cover_fire")
class CoverFire(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        if weapon is None or weapon.melee or not weapon.uses_ammunition:
            return ["Cover Fire needs a firearm"]
        reasons = weapon_reasons(weapon) + target_reasons(state, actor, target, weapon)
        if board.feet_between(state, actor, target) > am.max_range_ft(weapon) // 2:
            reasons.append(f"{target.name} is beyond half of {weapon.name}'s maximum range")
        if board.adjacent_opponents(state, target):
            reasons.append(f"{target.name} is engaged in melee")
        reasons.extend(ammo_reasons(weapon, COVER_FIRE_SHOTS, "Cover Fire"))
        return reasons

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        dc = 10 + board.stat_int(actor, "ranged_attack")
        return Preview(
            command,
            True,
            summary=(
                f"{actor.name} pins {target.name} down: Will DC {dc} or -4 to attacks and "
                "skills for a full round."
            ),
            targets=(target.id,),
            overlay=target_overlay(actor.id, (target.id,)),
            shots=COVER_FIRE_SHOTS,
            rolls=(f"{target.name} Will save vs DC {dc}",),
        )

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        target = state.token(str(command.target))
        weapon = chosen_weapon(actor, command)
        assert weapon is not None
        state, events = spend_ammo(state, actor.id, weapon, COVER_FIRE_SHOTS)
        dc = 10 + board.stat_int(actor, "ranged_attack")
        ok, roll, event = save(dice, target, "will", dc)
        state = failed_save_fluid(state, target.id, ok)
        events.append(event)
        state = mark_attacked(state, target.id, actor.id)
        if not ok:
            state, ev = board.add_condition(
                state,
                target.id,
                board.COVER_FIRED,
                board.until_next_turn(state, actor.id),
                source=actor.id,
            )
            events.append(ev)
            if (
                roll.total <= dc - 5
                and command.option("action_die", False)
                and state.token(actor.id).weapon(weapon.name).ammo > 0
            ):
                state, more = final_attack(
                    state,
                    dice,
                    state.token(actor.id),
                    state.token(target.id),
                    state.token(actor.id).weapon(weapon.name),
                    "Cover Fire",
                )
                events.append(action_dice.spent(state.token(actor.id), "a final attack "
                                                "(Cover Fire)"))
                events.extend(more)
        return state, tuple(events)
