"""d20 firearms Perception: the check that locates the enemies (before Blind-Fire).

The roll is 1d20 + Perception against a DC (15 unless the command's ``dc`` option says
otherwise), with the Aiming modifier and the Suppressed penalty as named modifiers. Aiming
gives +5 to notice what is inside its 60-ft cone and -5 outside it; locating means placing
every enemy, so the enemy worst placed for the aimer sets the modifier (+5 only when every
enemy checked is inside the cone). The command's ``targets`` narrow the check to those
tokens; without them it covers every opponent.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.rules import common
from engine.rules.base import Command, Event, EventKind, Modifier, Outcome, Preview
from engine.rules.common import actor_of
from engine.rules.d20_firearms import board
from engine.rules.d20_firearms import combat_rules as special
from engine.rules.d20_firearms.economy import Cost
from engine.rules.d20_firearms.fire_areas import aiming_area
from engine.rules.d20_firearms.handlers import LOCATE_DC, register
from engine.tokens import Token

#: Combatant data key: the direction (degrees clockwise from east) the Aiming cone points.
AIM_DIRECTION = "aim_direction"
PERCEPTION = "Perception"


def locate_cost(state: EncounterState, command: Command) -> Cost:
    actor = actor_of(state, command)
    free = special.blind_fire_locate_actions(board.STATS.flag(actor, "quick_recon")) == 0
    return Cost.FREE if free else Cost.ONE


def _sought(state: EncounterState, actor: Token, command: Command) -> list[Token]:
    if command.targets:
        return [state.token(t) for t in command.targets]
    return board.opponents(state, actor)


def aiming_modifier(state: EncounterState, actor: Token, sought: list[Token]) -> Modifier | None:
    """The Aiming cone's Perception modifier for noticing ``sought`` (None when not Aiming)."""
    if not actor.has_condition(board.AIMING) or not sought:
        return None
    direction = float(common.data(state, actor.id, AIM_DIRECTION, 0.0))
    area = aiming_area(state, actor.id, direction)
    values = [m.value for t in sought for m in area.affected(t.id).modifiers]
    inside = bool(values) and min(values) > 0
    value = special.aiming_perception(inside)
    where = "every one inside the cone" if inside else "outside the cone"
    return Modifier("Aiming", value, f"{PERCEPTION} ({where})")


def perception_modifiers(state: EncounterState, actor: Token, command: Command,
                         ) -> tuple[Modifier, ...]:
    mods = [Modifier(PERCEPTION, board.stat_int(actor, "perception"), PERCEPTION)]
    aiming = aiming_modifier(state, actor, _sought(state, actor, command))
    if aiming is not None:
        mods.append(aiming)
    if actor.has_condition(board.SUPPRESSED):
        mods.append(Modifier("Suppressed", special.SUPPRESSED_PENALTY, PERCEPTION))
    return tuple(m for m in mods if m.value)


def _dc(command: Command) -> int:
    return int(command.option("dc", LOCATE_DC) or LOCATE_DC)


def _locate_check(state: EncounterState, command: Command) -> list[str]:
    if command.actor in command.targets:
        return ["a token cannot look for itself"]
    for target_id in command.targets:
        state.token(target_id)
    return []


def _locate_describe(state: EncounterState, command: Command) -> Preview:
    actor = actor_of(state, command)
    mods = perception_modifiers(state, actor, command)
    bonus = sum(m.value for m in mods)
    return Preview(command, True, summary=f"Locate Enemies: {actor.name} rolls Perception "
                   f"1d20{bonus:+d} against DC {_dc(command)} to place the enemies for "
                   "Blind-Fire.", targets=command.targets, modifiers=mods,
                   rolls=(f"Perception 1d20{bonus:+d}",))


def _locate_resolve(state: EncounterState, command: Command, dice: Dice) -> Outcome:
    actor = actor_of(state, command)
    dc = _dc(command)
    mods = perception_modifiers(state, actor, command)
    roll = dice.roll(f"1d20{sum(m.value for m in mods):+d}", f"{actor.name} {PERCEPTION}")
    located = roll.total >= dc
    state = common.set_data(state, actor.id, located=located)
    words = "places every enemy" if located else "cannot tell where the enemies are"
    named = "".join(f"; {m.name} {m.value:+d}" for m in mods if m.name != PERCEPTION)
    return state, (Event(EventKind.ROLL, f"{actor.name} {words} ({roll.total} against "
                         f"{dc}{named}).", (actor.id,), roll),)


register("locate_enemies", _locate_check, _locate_describe, _locate_resolve, cost=locate_cost)
