"""The options each Savage Worlds action's command may carry, as the contract declares them.

The rule system refuses any other option, or a value of the wrong type or outside the
choices, before a handler reads it; the desktop builds each action's options form from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.limits import MAX_RATE_OF_FIRE
from engine.rules.base import ListOf, MapOf, OptionSpec, Ref
from engine.rules.savage_worlds.deck import full_deck
from engine.rules.savage_worlds.maneuvers import DESPERATE_STEPS, CalledShotTarget, Scale
from engine.rules.savage_worlds.opposed_maneuvers import (
    TEST_RESISTED_BY,
    SWTestEffect,
    SWTestRaise,
)
from engine.rules.savage_worlds.schema import ATTRIBUTES, SKILLS

#: The GM's additions to any attack roll: a cover penalty and a free modifier.
_ATTACK = (
    OptionSpec("cover", int, default=0, label="Cover penalty (GM)"),
    OptionSpec("modifier", int, default=0, label="Other modifier"),
)
_SCALES = tuple(int(scale) for scale in Scale)
_TRAITS = (*ATTRIBUTES, *SKILLS)

OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "move": (OptionSpec("run", bool, default=False, label="Run (roll the running die)"),),
    "fighting": _ATTACK,
    "shooting": _ATTACK,
    "touch_attack": _ATTACK,
    "wild_attack": _ATTACK,
    "desperate_attack": (
        *_ATTACK,
        OptionSpec("step", int, DESPERATE_STEPS, default=2, label="Points traded"),
    ),
    "called_shot": (
        *_ATTACK,
        OptionSpec("location", str, tuple(t.value for t in CalledShotTarget),
                   default=CalledShotTarget.HEAD_OR_VITALS.value, label="Location"),
        OptionSpec("scale", int, _SCALES, label="Item's Scale (item)"),
        OptionSpec("helmet", bool, default=False, label="Open-faced helmet"),
    ),
    "disarm": (
        *_ATTACK,
        OptionSpec("location", str, (CalledShotTarget.HAND.value, CalledShotTarget.ITEM.value),
                   default=CalledShotTarget.HAND.value, label="Aim at"),
        OptionSpec("scale", int, _SCALES, default=int(Scale.VERY_SMALL),
                   label="Item's Scale (item)"),
    ),
    "finishing_move": (
        OptionSpec("at_range", bool, default=False, label="With a ranged weapon"),
    ),
    "suppressive_fire": (
        OptionSpec("recoil_negated", bool, default=False, label="Recoil negated"),
        OptionSpec("hit_first", ListOf(Ref.TOKEN), label="Whom to hit first when more get a "
                   "raise than the Rate of Fire (in order)"),
    ),
    "area_attack": (OptionSpec("modifier", int, default=0, label="Other modifier"),),
    "stabilise": (OptionSpec("modifier", int, default=0,
                             label="Other modifier (no healer's kit, ...)"),),
    "aim": (OptionSpec("choice", str, ("ignore", "+2"), default="ignore",
                       label="Ignore 4 points of penalties or +2"),),
    "push": (OptionSpec("skill", str, ("strength", "athletics"), default="strength",
                        label="Roll"),
             OptionSpec("distance", int, label="Push up to (inches; at most what the roll "
                        "allows, empty: all of it)")),
    "support": (
        OptionSpec("trait", str, _TRAITS, default="fighting", label="Trait supported"),
        OptionSpec("skill", str, _TRAITS, label="Skill rolled (default: that trait)"),
    ),
    "test": (
        OptionSpec("skill", str, tuple(name.lower() for name in TEST_RESISTED_BY),
                   default="taunt", label="Skill"),
        OptionSpec("effect", str, tuple(e.value for e in SWTestEffect),
                   default=SWTestEffect.DISTRACTED.value, label="Effect"),
        OptionSpec("on_raise", str, tuple(e.value for e in SWTestRaise),
                   default=SWTestRaise.SHAKEN.value,
                   label="A raise adds (Prone only as the GM allows, e.g. a trip)"),
        OptionSpec("dice", int, default=1, minimum=1, maximum=MAX_RATE_OF_FIRE,
                   label="Skill dice (more with a fast-firing weapon; the best one counts)"),
        *_ATTACK,  # the GM sets a Test's modifiers: cover on a shot, a telling taunt...
    ),
    "act_from_hold": (
        OptionSpec("interrupt", bool, default=False, label="Cut into the active turn"),
    ),
})

#: Options the system adds to the engine's start_combat.
ENGINE_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "start_combat": (
        OptionSpec("cards", MapOf(str), tuple(card.code for card in full_deck()),
                   label="Cards dealt by hand (token -> card code)"),
    ),
})
