"""The options each d20 firearms action's command may carry, as the contract declares them.

The rule system refuses any other option, or a value of the wrong type or outside the
choices, before a handler reads it; the desktop builds each action's options form from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.grid import Square
from engine.rules.base import MapOf, OptionSpec
from engine.rules.d20_firearms.economy import ACTIONS_OPTION, DEFAULT_ACTIONS_PER_ROUND, MOVES
from engine.rules.d20_firearms.handlers import LOCATE_DC
from engine.rules.d20_firearms.take_cover_actions import TAKE_COVER

OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "move": (OptionSpec("accept_fire", bool, default=False,
                        label="Move anyway and draw the suppressing fire"),
             OptionSpec(MOVES, int, (1, 2, 3), default=1,
                        label="Move actions spent (each up to the speed)",
                        choice_words=("1: a move", "2: a double move", "3: a triple move"))),
    "two_weapon_attack": (OptionSpec("offhand", str, label="Off-hand weapon"),),
    "blind_fire": (OptionSpec("full_auto", bool, default=False, label="Full auto (3 actions)"),),
    "overwatch": (OptionSpec("target_aware", bool, default=False,
                             label="The target knows he is watched"),),
    "locate_enemies": (OptionSpec("dc", int, default=LOCATE_DC, label="DC"),),
    "covering_fire": (OptionSpec(TAKE_COVER, MapOf(Square),
                                 label="Where savers take cover (token -> square)"),),
})

#: Options the system adds to the engine's start_combat.
ENGINE_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "start_combat": (
        OptionSpec(ACTIONS_OPTION, int, default=DEFAULT_ACTIONS_PER_ROUND,
                   label="Actions per round"),
    ),
})
