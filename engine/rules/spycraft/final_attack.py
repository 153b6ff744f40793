"""The Spycraft final attack: the one shot a Suppressive Fire zone, Cover Fire or a
critical Trip gets at someone, at -4 and -2 fluid Initiative for the shooter.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules.base import Command, Event, EventKind
from engine.rules.spycraft import attack_math as am
from engine.rules.spycraft import board
from engine.rules.spycraft.attack_actions import attack_once, spend_ammo
from engine.rules.spycraft.geometry_bridge import cover, line_of_sight
from engine.tokens import Token, Weapon

FINAL_ATTACK_PENALTY = -4


FINAL_ATTACK_FLUID = -2


def final_attack(
    state: EncounterState, dice: Dice, shooter: Token, target: Token, weapon: Weapon, why: str
) -> tuple[EncounterState, list[Event]]:
    """A final attack: 1 shot, -4, no Aim bonus; -2 fluid Initiative for the shooter.

    ``target`` is the token where the shot meets him (it may differ from where he ends);
    against total cover or out of sight there is no shot.
    """
    if (
        not line_of_sight(state, shooter, target)
        or not cover(state, shooter, target).can_be_attacked
    ):
        return state, [
            Event(
                EventKind.NOTE,
                f"{target.name} is out of {shooter.name}'s sight or in total cover: "
                f"no {why} final attack.",
                (shooter.id, target.id),
            )
        ]
    state, fired = spend_ammo(state, shooter.id, weapon, 1)
    mods = [m for m in am.attacker_modifiers(state, shooter, target, weapon)]
    bonus = am.attack_bonus(shooter, weapon) + sum(m.value for m in mods) + FINAL_ATTACK_PENALTY
    defense, _ = am.defense(state, shooter, target, weapon)
    cmd = Command("standard_attack", shooter.id, (target.id,), weapon=weapon.name)
    state, events = attack_once(
        state,
        dice,
        shooter,
        target,
        weapon,
        bonus,
        defense,
        0,
        cmd,
        label=f"{shooter.name} ({why} final attack) at {target.name}",
    )
    state = board.add_fluid(state, shooter.id, FINAL_ATTACK_FLUID)
    return state, [*fired, *events]
