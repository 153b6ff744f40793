"""Weapons in hand, holstered, on the ground: Draw/Holster/Pick Up, Drop, Reload.

A weapon with the trait ``holstered`` is carried but not ready; it cannot attack until
drawn. Dropped weapons lie on the map, kept in ``combat.data`` under ``item:<x>,<y>:<name>``
as the weapon's JSON, so they undo, save and load with everything else. Reload refills a
magazine-, belt- or drum-fed weapon to capacity, or 3 shots for a ``single-fed`` one; spare
ammunition is not counted (a table tracking it can give tokens a ``reloads`` stat).
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.encounter import EncounterState
from engine.grid import Square
from engine.rules.base import Command, Event, EventKind, Outcome, Preview
from engine.rules.spycraft import board, combat_state
from engine.rules.spycraft.combat_state import items_at
from engine.rules.spycraft.handlers import SpycraftHandler, handles
from engine.tokens import Weapon
from engine.words import counted

HOLSTERED = "holstered"
SINGLE_FED_SHOTS = 3


def drop_weapon(
    state: EncounterState, token_id: str, name: str, where: Square
) -> tuple[EncounterState, Event]:
    token = state.token(token_id)
    weapon = token.weapon(name)
    kept = tuple(w for w in token.weapons if w.name != name)
    state = state.with_token(replace(token, weapons=kept))
    state = combat_state.put_item(state, where, weapon)
    return state, Event(EventKind.ACTION, f"{token.name} drops {name} at {where}.", (token_id,))


def is_ready(weapon: Weapon) -> bool:
    return HOLSTERED not in weapon.traits


@handles("draw_holster")
class DrawHolster(SpycraftHandler):
    """``weapon`` names it; ``mode`` is "draw", "holster" or "pick_up" (from the square
    the token stands on, or any square of ``squares`` it moved through)."""

    def mode(self, command: Command) -> str:
        return str(command.option("mode", "draw"))

    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        mode, name = self.mode(command), command.weapon
        if name is None:
            return ["say which weapon (weapon=...)"]
        if mode == "pick_up":
            places = (*actor.squares, *command.squares)
            if not any(name in items_at(state, s) for s in places):
                return [f"no {name} lies where {actor.name} is"]
            return []
        if mode not in ("draw", "holster"):
            return [f"mode must be draw, holster or pick_up, not {mode!r}"]
        weapon = actor.weapon(name)
        if mode == "draw" and is_ready(weapon):
            return [f"{name} is already in hand"]
        if mode == "holster" and not is_ready(weapon):
            return [f"{name} is already put away"]
        return []

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        name = str(command.weapon)
        mode = self.mode(command)
        if mode == "pick_up":
            for square in (*actor.squares, *command.squares):
                found = items_at(state, square)
                if name in found:
                    state = combat_state.take_item(state, square, name)
                    actor = state.token(actor.id)
                    state = state.with_token(actor.taking(found[name]))
                    break
            return state, (Event(EventKind.ACTION, f"{actor.name} picks up {name}.", (actor.id,)),)
        weapons = []
        for weapon in actor.weapons:
            if weapon.name == name:
                traits = tuple(t for t in weapon.traits if t != HOLSTERED)
                if mode == "holster":
                    traits = (*traits, HOLSTERED)
                weapon = replace(weapon, traits=traits)
            weapons.append(weapon)
        state = state.with_token(replace(actor, weapons=tuple(weapons)))
        verb = "draws" if mode == "draw" else "puts away"
        return state, (Event(EventKind.ACTION, f"{actor.name} {verb} {name}.", (actor.id,)),)


@handles("reload")
class Reload(SpycraftHandler):
    def check(self, state: EncounterState, command: Command) -> list[str]:
        actor = state.token(str(command.actor))
        if command.weapon is None:
            return ["say which weapon to reload (weapon=...)"]
        weapon = actor.weapon(command.weapon)
        if not weapon.uses_ammunition:
            return [f"{weapon.name} takes no ammunition"]
        if weapon.ammo >= weapon.capacity:
            return [f"{weapon.name} is already full"]
        if board.STATS.given(actor, "reloads") and board.stat_int(actor, "reloads") <= 0:
            return [f"{actor.name} has no reloads left"]
        return []

    def describe(self, state: EncounterState, command: Command) -> Preview:
        actor = state.token(str(command.actor))
        weapon = actor.weapon(str(command.weapon))
        return Preview(
            command,
            True,
            summary=f"{actor.name} reloads {weapon.name} to "
                    f"{counted(self.filled(weapon), 'shot')}.",
        )

    def filled(self, weapon: Weapon) -> int:
        if "single-fed" in weapon.traits:
            return min(weapon.capacity, weapon.ammo + SINGLE_FED_SHOTS)
        return weapon.capacity

    def resolve(self, state: EncounterState, command: Command, dice: Dice) -> Outcome:
        actor = state.token(str(command.actor))
        weapon = actor.weapon(str(command.weapon))
        full = self.filled(weapon)
        weapons = tuple(w.with_ammo(full) if w.name == weapon.name else w for w in actor.weapons)
        actor = replace(actor, weapons=weapons)
        if board.STATS.given(actor, "reloads"):
            actor = board.with_stats(actor, reloads=board.stat_int(actor, "reloads") - 1)
        state = state.with_token(actor)
        return state, (
            Event(
                EventKind.AMMO,
                f"{actor.name} reloads {weapon.name} ({counted(full, 'shot')}).",
                (actor.id,),
            ),
        )
