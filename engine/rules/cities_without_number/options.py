"""The options each Cities Without Number action's command may carry, as the contract
declares them.

The rule system refuses any other option, or a value of the wrong type or outside the
choices, before a handler reads it; the desktop builds each action's options form from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.rules.base import OptionSpec
from engine.rules.cities_without_number.handlers import DEFAULT_DIFFICULTY
from engine.rules.cities_without_number.movement import SECOND_MOVE
from engine.rules.cities_without_number.schema import ATTRIBUTE_MODIFIERS, SKILLS

#: start_combat options: each token rolls alone; allies roll apart from the party.
INDIVIDUAL = "individual"
ALLIES_SEPARATE = "allies_separate"

_ITEM = OptionSpec("item", str, label="Item")

OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "swarm_attack": (OptionSpec("strike", bool, default=False,
                                label="Strike now (do not wait for more assailants)"),),
    "run": (OptionSpec("hyper_accelerated", bool, default=False,
                       label="Hyper-accelerated move (no free attacks)"),
            OptionSpec(SECOND_MOVE, bool, default=False,
                       label="Second move with the Main action (twice the movement rate)")),
    "use_skill": (
        OptionSpec("skill", str, SKILLS, default="heal", label="Skill"),
        OptionSpec("attribute", str, ATTRIBUTE_MODIFIERS, default="int_mod", label="Attribute"),
        OptionSpec("difficulty", int, default=DEFAULT_DIFFICULTY, label="Difficulty"),
    ),
    "ready_item": (_ITEM,),
    "stow_item": (_ITEM,),
    "pick_up_item": (_ITEM,),
})

#: Options the system adds to the engine's start_combat.
ENGINE_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "start_combat": (
        OptionSpec(INDIVIDUAL, bool, default=False, label="Individual initiative"),
        OptionSpec(ALLIES_SEPARATE, bool, default=False,
                   label="Allies roll apart from the party"),
    ),
})
