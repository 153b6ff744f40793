"""Killbox engine: the rules, geometry, routes, turns and files, with no Qt in sight.

The scripting API (what the desktop, the tests and a GM's own scripts use):

>>> import engine
>>> fight = engine.open_encounter(engine.bundled_map("warehouse"), seed=7)
>>> fight.system.title
'Spycraft 2.0'
>>> _ = fight.apply(engine.Command("start_combat"))
>>> who = fight.state.combat.active
>>> "standard_move" in [spec.key for spec in fight.legal_actions(who)]
True
>>> token = fight.state.token(who)
>>> north = (token.square.x, token.square.y - 1)
>>> step = engine.Command.build("standard_move", who, squares=[north])
>>> fight.preview(step).legal
True
>>> events = fight.apply(step)
>>> events[0].text.startswith(token.name)
True
>>> _ = fight.undo()
>>> fight.state.token(who).square == token.square
True
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.dice import Dice, DiceError, GivenDice, Roll, SeededDice
from engine.encounter import EncounterState
from engine.files.grid_detection import GRID_FOUND, GridGuess, NoGrid, detect_grid
from engine.files.roster import Roster, place_character
from engine.preparation import NoGridFound
from engine.preparation import new_encounter as _prepare
from engine.rules import UnknownSystem, get_system, register_system, system_names
from engine.rules.base import (
    ActionSpec,
    Command,
    CommandError,
    Event,
    IllegalCommand,
    Preview,
    RuleSystem,
    UnknownAction,
)
from engine.rules.editing import EDIT_ACTIONS
from engine.rules.presets import weapon_presets
from engine.tokens import Side, Token, Weapon
from engine.turns.session import Encounter, NothingToUndo

_MAPS = Path(__file__).resolve().parent.parent / "maps"


def bundled_map(name: str) -> Path:
    """The path of an encounter that ships with Killbox ("warehouse", "night_street"...).

    >>> bundled_map("warehouse").name
    'warehouse.killbox'
    """
    path = _MAPS / f"{name}.killbox"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in _MAPS.glob("*.killbox"))) or "none"
        raise FileNotFoundError(f"no bundled encounter {name!r} (bundled: {known})")
    return path


def open_encounter(path: str | Path, *, seed: int | None = None) -> Encounter:
    """Load an encounter file and get it ready to play (undo, dice, log).

    ``seed`` replaces the file's dice seed (None keeps it, so a replay rolls the same).
    """
    return Encounter.open(path, seed=seed)


def new_encounter(
    state_or_system: EncounterState | str | RuleSystem,
    name: str | None = None,
    *,
    size: tuple[int, int] | None = None,
    picture: bytes | str | os.PathLike[str] | None = None,
    grid: tuple[float, float, float] | GridGuess | None = None,
    seed: int | None = None,
) -> Encounter:
    """A new encounter: from a state built in code, or a blank map or a picture to prepare.

    ``new_encounter(state, seed=...)`` plays a state built in code;
    ``new_encounter("spycraft", "Alley", size=(30, 20))`` makes a blank map and
    ``new_encounter("spycraft", "Alley", picture="map.png", grid=None)`` a map over a picture
    (its grid found by :func:`detect_grid` when left out; NoGridFound says when none is).
    The scale and the diagonal rule come from the rule system.

    >>> blank = new_encounter("savage-worlds", "Rooftop", size=(12, 8))
    >>> (blank.state.battlemap.width, blank.state.scale.diagonal.value)
    (12, 'one')

    >>> from engine.battlemap import BattleMap
    >>> from engine.grid import FIVE_FOOT, Square
    >>> from engine.tokens import Side, Token, Weapon
    >>> pistol = Weapon("pistol", "2d6", 30, ammo=10, capacity=10, modes=("single-shot",))
    >>> kevin = Token("kevin", "Kevin", Side.PARTY, Square(1, 1), weapons=(pistol,),
    ...               stats={"initiative": 5, "ranged_attack": 4})
    >>> guard = Token("guard", "Guard", Side.ENEMY, Square(5, 1), stats={"defense": 12})
    >>> state = EncounterState("Alley", "spycraft", FIVE_FOOT, BattleMap(8, 4), (kevin, guard))
    >>> fight = new_encounter(state, seed=1)
    >>> _ = fight.apply(Command("start_combat"), [17, 3])   # the d20 faces rolled at the table
    >>> fight.state.combat.combatant("kevin").initiative
    22
    >>> shot = Command.build("standard_attack", "kevin", targets=["guard"], weapon="pistol")
    >>> fight.preview(shot).rolls
    ('attack 1d20+4', 'damage 2d6')
    >>> [e.text for e in fight.apply(shot, [15, 7])][1]
    'Kevin attacks Guard: 19 against Defense 12, hits.'
    >>> fight.state.token("kevin").weapon("pistol").ammo
    9
    """
    if isinstance(state_or_system, EncounterState):
        return Encounter(state_or_system, seed=seed)
    if name is None:
        raise CommandError("a new encounter needs a name")
    return _prepare(state_or_system, name, size=size, picture=picture, grid=grid, seed=seed)


__all__ = [
    "EDIT_ACTIONS",
    "GRID_FOUND",
    "ActionSpec",
    "Command",
    "CommandError",
    "Dice",
    "DiceError",
    "Encounter",
    "EncounterState",
    "Event",
    "GivenDice",
    "GridGuess",
    "IllegalCommand",
    "NoGrid",
    "NoGridFound",
    "NothingToUndo",
    "Preview",
    "Roll",
    "Roster",
    "RuleSystem",
    "SeededDice",
    "Side",
    "Token",
    "UnknownAction",
    "UnknownSystem",
    "Weapon",
    "bundled_map",
    "detect_grid",
    "get_system",
    "new_encounter",
    "open_encounter",
    "place_character",
    "register_system",
    "system_names",
    "weapon_presets",
]
