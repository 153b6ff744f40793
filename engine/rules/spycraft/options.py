"""The options each Spycraft action's command may carry, as the contract declares them.

The rule system refuses any other option, or a value of the wrong type or outside the
choices, before a handler reads it; the desktop builds each action's options form from here.
Actions tagged Incidental take ``incidental`` (ride free with a movement action) and
``with_move``; every action takes ``permitted`` (a surrendered character acts with his
captors' leave).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.rules.base import ActionSpec, ListOf, OptionSpec, Ref
from engine.rules.spycraft.catalogue import ACTIONS, HALVES, IDL, TRICKS
from engine.rules.spycraft.flow import BASE_DISTANCE
from engine.rules.spycraft.fluid_initiative import FLUID_EVENTS
from engine.rules.spycraft.grapple_actions import BENEFITS
from engine.rules.spycraft.schema import ATTRIBUTES, SKILLS
from engine.tokens import Side

#: Spend an Action Die to turn a threat into a critical success.
_ACTION_DIE = OptionSpec("action_die", bool, default=False, label="Spend an Action Die on a threat")
#: Checks: also let the GM activate the opponent's error (Action Die).
_CHECK = (_ACTION_DIE, OptionSpec("activate_error", bool, default=False,
                                  label="Activate an error (Action Die)"))
_SURFACES = OptionSpec("surfaces", int, default=1, label="Surfaces to bounce off", minimum=0)
_CHEAP_ON = OptionSpec("cheap_on", str, (*ATTRIBUTES, "speed"), default="speed",
                       label="Cheap Shot against")
_BENEFIT = tuple(BENEFITS)
_JOIN = OptionSpec("join", bool, default=False, label="Join the one already going")
_SUBDUAL = OptionSpec("subdual", bool, default=False, label="Subdual damage")

OPTIONS_BY_ACTION: dict[str, tuple[OptionSpec, ...]] = {
    "standard_attack": (
        OptionSpec("trick", str, TRICKS, label="Trick"), _CHEAP_ON, _SURFACES, _ACTION_DIE,
    ),
    "standard_move": (OptionSpec("double", bool, default=False,
                                 label="Double move (both half actions, twice the Speed)"),),
    "burst": (_ACTION_DIE,),
    "called_shot": (_ACTION_DIE,),
    "cheap_shot": (_CHEAP_ON, _ACTION_DIE),
    "bounce": (_SURFACES, _ACTION_DIE),
    "kick": (_ACTION_DIE,),
    "pummel": (_ACTION_DIE,),
    "autofire": (OptionSpec("volleys", int, label="Volleys (default: as many as he may)",
                            minimum=1),
                 _ACTION_DIE),
    "strafe": (
        OptionSpec("from_end", bool, default=False, label="Sweep from the other end"),
        OptionSpec("critical_target", str, label="Token a critical hits"),
        _ACTION_DIE,
    ),
    "cover_fire": (_ACTION_DIE,),
    "coup_de_grace": (OptionSpec("knock_out", bool, default=False, label="Knock out only"),),
    "disarm": (
        OptionSpec("target_weapon", str, label="Weapon to take away"),
        OptionSpec("take", bool, default=False, label="Take it (critical)"),
        OptionSpec("fly", bool, default=False, label="Send it flying (threat)"),
        *_CHECK,
    ),
    "grapple": (
        _JOIN,
        OptionSpec("second", bool, default=False, label="Seize a second opponent"),
        OptionSpec("benefit", str, _BENEFIT, label="Benefit on a critical"),
        _SUBDUAL,
        *_CHECK,
    ),
    "grapple_check": (
        OptionSpec("benefit", str, _BENEFIT, label="Benefit if he wins"),
        OptionSpec("their_benefit", str, _BENEFIT, label="Benefit if the opponent wins"),
        OptionSpec("benefit2", str, _BENEFIT, label="Second benefit on a critical"),
        _SUBDUAL,
        *_CHECK,
    ),
    "taunt": _CHECK,
    "threaten": _CHECK,
    "trip": _CHECK,
    "feint": _CHECK,
    "tire": _CHECK,
    "diversion": _CHECK,
    "anticipate": _CHECK,
    "bull_rush": (
        OptionSpec("obstacle_breaks", bool, label="GM's ruling: an obstacle in the way breaks "
                   "(empty: it rolls its Damage save)"),
        OptionSpec("obstacle_save", int, label="Damage save bonus of an obstacle in the way "
                   "(empty: by its kind)"),
        *_CHECK,
    ),
    "joint_action": (
        OptionSpec("order", ListOf(Ref.TOKEN), label="Acting order (the leader and each "
                   "teammate once)"),
        *_CHECK,
    ),
    "delay": (
        OptionSpec("to", int, label="Delay to Initiative Count"),
        OptionSpec("times", int, default=1, label="Delays", minimum=1),
    ),
    "ready": (
        OptionSpec("then", str, tuple(
            spec.key for spec in ACTIONS
            if HALVES[spec.time] == 1 and spec.key not in ("ready", "trigger_ready")
        ), label="Half action to hold"),
        OptionSpec("trigger", str, label="Trigger (in words)"),
    ),
    "stand_off": (_JOIN,),
    "draw_holster": (OptionSpec("mode", str, ("draw", "holster", "pick_up"), default="draw",
                                label="Draw, holster or pick up"),),
    "enter_combat": (OptionSpec("deliberate", bool, default=False,
                                label="Deliberately (not flat-footed)"),),
    "fluid_event": (
        OptionSpec("event", str, tuple(FLUID_EVENTS), required=True, label="Event"),
        OptionSpec("times", int, default=1, label="Times", minimum=1),
    ),
    "action_check": (
        OptionSpec("name", str, default="an action", label="What he does"),
        OptionSpec("skill", str, (*SKILLS, *ATTRIBUTES), label="Skill"),
        OptionSpec("dc", int, label="DC"),
        OptionSpec("full", bool, default=False, label="A full action"),
        *_CHECK,
    ),
}

_INCIDENTAL = (
    OptionSpec("incidental", bool, default=False, label="Incidental (free with a move)"),
    OptionSpec("with_move", bool, default=False, label="Moving with it"),
)


def _with_incidental(spec: ActionSpec) -> tuple[OptionSpec, ...]:
    own = OPTIONS_BY_ACTION.get(spec.key, ())
    return (*own, *_INCIDENTAL) if IDL in spec.tags else own


def _readied_options() -> tuple[OptionSpec, ...]:
    """What a Ready trigger passes on to the held half action: the options of any of them."""
    held = {spec.key for spec in ACTIONS if HALVES[spec.time] == 1}
    found: dict[str, OptionSpec] = {}
    for spec in ACTIONS:
        if spec.key in held:
            for option in _with_incidental(spec):
                found.setdefault(option.name, option)
    return tuple(found.values())


OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    **{spec.key: _with_incidental(spec) for spec in ACTIONS if _with_incidental(spec)},
    "trigger_ready": (
        OptionSpec("count", int, label="Initiative Count it happens on"),
        OptionSpec("cancel", bool, default=False, label="Try to hold back (Reflex DC 15)"),
        *_readied_options(),
    ),
})

#: Options every catalogue action takes.
SHARED_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("permitted", bool, default=False,
               label="With his captors' leave (surrendered)"),
)

_SIDES = tuple(side.value for side in Side)

#: Options the system adds to the engine's start_combat (lists of token ids or sides).
ENGINE_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = MappingProxyType({
    "start_combat": (
        OptionSpec("deliberate", ListOf(Ref.TOKEN), label="Entering on purpose"),
        OptionSpec("awareness", str, ("all", "some", "none"), default="all",
                   label="Who is aware",
                   choice_words=("Everyone is aware: no surprise round",
                                 "An ambush: the ticked sides try to act first",
                                 "Nobody is aware: team stealth checks decide")),
        OptionSpec("acting", ListOf(Ref.SIDE), _SIDES, label="Sides trying to ambush"),
        OptionSpec("unaware", ListOf(Ref.TOKEN), label="Left out of the surprise check"),
        OptionSpec("group_initiative", ListOf(Ref.SIDE), _SIDES,
                   label="Sides rolling one check"),
        OptionSpec("location", str, tuple(BASE_DISTANCE), label="Location"),
        OptionSpec("sight_cap", float, label="Sight cap (ft)", minimum=0),
        OptionSpec("boost", ListOf(Ref.TOKEN),
                   label="Spending an Action Die on Initiative"),
        OptionSpec("gm_action_dice", int, label="The GM's Action Dice for the fight",
                   minimum=0),
    ),
})
