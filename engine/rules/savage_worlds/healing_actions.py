"""Stabilise: Healing from someone beside a character Bleeding Out (``incapacitation``).

One action; the healer rolls Healing (untrained d4-2) with its own modifiers (Wounds,
Distracted, Multi-Action, Support on Healing), the patient's Wound penalty and the GM's
modifier (no healer's kit, say); a success stops the bleeding. The patient stays
Incapacitated until its Wounds are healed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.events import Event, EventKind
from engine.rules import common
from engine.rules.base import Command, Modifier, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.overlays import target_overlay
from engine.rules.savage_worlds import attack_math, board, incapacitation, rerolls, trait_bonuses
from engine.rules.savage_worlds.handlers import register, target_of, target_reasons
from engine.rules.savage_worlds.incapacitation import STABILISE_SKILL
from engine.rules.savage_worlds.traits import TARGET_NUMBER, outcome, trait_roll
from engine.tokens import Token


@dataclass(frozen=True, slots=True)
class StabilisePlan:
    healer: Token
    patient: Token
    modifiers: tuple[Modifier, ...]

    @property
    def to_hit(self) -> int:
        """The modifiers with an untrained healer's -2."""
        return sum(m.value for m in self.modifiers) + board.trait_die(self.healer,
                                                                       STABILISE_SKILL)[1]


def _plan(state: EncounterState, command: Command) -> StabilisePlan:
    healer, patient = actor_of(state, command), target_of(state, command)
    mods = [*attack_math.own_modifiers(state, healer),
            *trait_bonuses.trait_modifiers(healer, STABILISE_SKILL)]
    if board.wound_penalty(patient):
        mods.append(Modifier("Patient's Wounds", board.wound_penalty(patient)))
    free = int(command.option("modifier", 0) or 0)
    if free:
        mods.append(Modifier("GM modifier", free))
    return StabilisePlan(healer, patient, tuple(mods))


def _check(state: EncounterState, command: Command) -> list[str]:
    reasons = target_reasons(state, command)
    if reasons:
        return reasons
    healer, patient = actor_of(state, command), target_of(state, command)
    if not incapacitation.bleeding_out(patient):
        return [f"{patient.name} is not Bleeding Out"]
    if not common.adjacent(healer, patient):
        return [f"{patient.name} is not beside {healer.name}: Healing is hands-on"]
    return []


def _describe(state: EncounterState, command: Command) -> Preview:
    plan = _plan(state, command)
    die, _ = board.trait_die(plan.healer, STABILISE_SKILL)
    summary = (f"Stabilise (rule: Bleeding Out): {plan.healer.name} rolls Healing d{die} "
               f"{plan.to_hit:+d} against {TARGET_NUMBER} to stop {plan.patient.name}'s "
               "bleeding; a success stabilises (still Incapacitated).")
    return Preview(command, True, summary=summary, targets=(plan.patient.id,),
                   modifiers=plan.modifiers,
                   overlay=target_overlay(plan.healer.id, (plan.patient.id,), plan.modifiers),
                   rolls=(f"healing d{die}",), cost="1 action")


def _resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    plan = _plan(state, command)
    healer, patient = plan.healer, plan.patient
    die, _ = board.trait_die(healer, STABILISE_SKILL)
    roll = trait_roll(die, dice, modifier=plan.to_hit, wild_card=board.is_wild_card(healer),
                      purpose=f"{healer.name} Healing to stabilise {patient.name}")
    state = trait_bonuses.spend_support(state, healer.id, STABILISE_SKILL)
    if outcome(roll.total).success:
        state = incapacitation.stabilised(state, patient.id)
        words = f"{patient.name} stops bleeding (stable, still Incapacitated)"
    else:
        words = f"{patient.name} is still Bleeding Out"
        made = rerolls.RollMade(STABILISE_SKILL, die, plan.to_hit, roll.total,
                                roll.critical_failure)
        state = rerolls.keep(state, healer.id, rerolls.RollKind.STABILISE, made,
                             other=patient.id)
    return state, (Event(EventKind.CONDITION, f"{healer.name} rolls Healing {roll} to stabilise "
                         f"{patient.name}: {words}.", (healer.id, patient.id)),)


register("stabilise", _check, _describe, _resolve)
